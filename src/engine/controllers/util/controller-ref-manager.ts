/**
 * Adoption and release through ownerReferences (controller_ref_manager.go), for any controller
 * of any dependents: an orphan that matches the selector is adopted, a dependent that stopped
 * matching is released, and what another controller owns is left alone. Before the first
 * adoption the controller is read fresh from the API, so a controller being deleted adopts
 * nothing.
 */
import type { GroupVersionResource, JsonObject, KubeObject, OwnerReference } from '../../api/types';
import type { Client } from '../../client/client';
import { isInvalid, isNotFound } from '../../client/errors';

export type ClaimDecision = 'owned' | 'ignore' | 'adopt' | 'release';

export interface ControllerIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { name?: string; namespace?: string; uid?: string; deletionTimestamp?: string };
}

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** ClaimObject's decision for one object. */
export function claimDecision(controller: ControllerIdentity, obj: KubeObject, matches: boolean): ClaimDecision {
  const ref = controllerOf(obj);
  const beingDeleted = controller.metadata.deletionTimestamp !== undefined;
  if (ref) {
    if (ref.uid !== controller.metadata.uid) return 'ignore';
    if (matches) return 'owned';
    // A controller that is going away keeps what it has; the garbage collector decides.
    return beingDeleted ? 'ignore' : 'release';
  }
  if (beingDeleted || !matches) return 'ignore';
  if (obj.metadata.deletionTimestamp) return 'ignore';
  const ns = controller.metadata.namespace ?? '';
  if (ns !== '' && ns !== (obj.metadata.namespace ?? '')) return 'ignore';
  return 'adopt';
}

/** The strategic merge patch that makes the controller the object's controller (ownerRefControllerPatch). */
export function adoptPatch(controller: ControllerIdentity, objUid: string): JsonObject {
  return {
    metadata: {
      ownerReferences: [
        {
          apiVersion: controller.apiVersion,
          kind: controller.kind,
          name: controller.metadata.name ?? '',
          uid: controller.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      uid: objUid,
    },
  };
}

/** The strategic merge patch that removes the controller's ownerReference (GenerateDeleteOwnerRefStrategicMergeBytes). */
export function releasePatch(controllerUid: string, objUid: string): JsonObject {
  return { metadata: { uid: objUid, ownerReferences: [{ $patch: 'delete', uid: controllerUid }] } };
}

export interface ClaimOps<T extends KubeObject> {
  /** A fresh read of the controller; rejects if it is gone, replaced or being deleted. */
  recheck(): Promise<void>;
  adopt(obj: T): Promise<void>;
  release(obj: T): Promise<void>;
  /** Errors a write may end with that mean there is nothing left to do (NotFound). */
  ignorable(err: unknown): boolean;
}

/**
 * Claims the objects: returns those the controller owns afterwards and the errors of failed
 * adoptions and releases (the caller retries the sync when there are any).
 */
export async function claimObjects<T extends KubeObject>(
  controller: ControllerIdentity,
  objects: readonly T[],
  matches: (obj: T) => boolean,
  ops: ClaimOps<T>,
): Promise<[T[], Error[]]> {
  const claimed: T[] = [];
  const errors: Error[] = [];
  let recheck: Promise<Error | undefined> | undefined;
  for (const obj of objects) {
    const decision = claimDecision(controller, obj, matches(obj));
    if (decision === 'owned') {
      claimed.push(obj);
    } else if (decision === 'release') {
      const err = await attempt(() => ops.release(obj));
      if (err && !ops.ignorable(err)) errors.push(err);
    } else if (decision === 'adopt') {
      recheck ??= attempt(() => ops.recheck());
      const recheckErr = await recheck;
      if (recheckErr) {
        const { namespace = '', name = '', uid = '' } = obj.metadata;
        errors.push(new Error(`can't adopt ${obj.kind} ${namespace}/${name} (${uid}): ${recheckErr.message}`));
        continue;
      }
      const err = await attempt(() => ops.adopt(obj));
      if (!err) claimed.push(obj);
      else if (!ops.ignorable(err)) errors.push(err);
    }
  }
  return [claimed, errors];
}

/**
 * Claims through the API as the Deployment and ReplicaSet controllers do: adoption and release
 * are strategic merge patches of the dependent, the recheck a fresh read of the controller, and a
 * dependent that is gone or refuses the patch (NotFound, Invalid) is no failure. The first
 * failure is thrown, so the sync is retried.
 */
export async function claimThroughApi<T extends KubeObject>(
  client: Client,
  controller: ControllerIdentity,
  resources: { controller: GroupVersionResource; dependents: GroupVersionResource },
  objects: readonly T[],
  matches: (obj: T) => boolean,
): Promise<T[]> {
  const namespace = controller.metadata.namespace ?? '';
  const dependents = client.resource<T>(resources.dependents, namespace);
  const [claimed, errors] = await claimObjects(controller, objects, matches, {
    recheck: async () => {
      const fresh = await client.resource(resources.controller, namespace).get(controller.metadata.name ?? '');
      const err = recheckError(controller, fresh);
      if (err) throw err;
    },
    adopt: async (obj) => void (await dependents.patch(obj.metadata.name ?? '', 'strategic', adoptPatch(controller, obj.metadata.uid ?? ''))),
    release: async (obj) => void (await dependents.patch(obj.metadata.name ?? '', 'strategic', releasePatch(controller.metadata.uid ?? '', obj.metadata.uid ?? ''))),
    ignorable: (err) => isNotFound(err) || isInvalid(err),
  });
  if (errors.length > 0) throw errors[0];
  return claimed;
}

async function attempt(fn: () => Promise<void>): Promise<Error | undefined> {
  try {
    await fn();
    return undefined;
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** RecheckDeletionTimestamp's verdict on a freshly read controller. */
export function recheckError(expected: ControllerIdentity, fresh: KubeObject): Error | undefined {
  const { namespace = '', name = '' } = expected.metadata;
  if (fresh.metadata.uid !== expected.metadata.uid) {
    return new Error(`original ${expected.kind} ${namespace}/${name} is gone: got uid ${fresh.metadata.uid ?? ''}, wanted ${expected.metadata.uid ?? ''}`);
  }
  if (fresh.metadata.deletionTimestamp) return new Error(`${namespace}/${name} has just been deleted at ${goTimeString(fresh.metadata.deletionTimestamp)}`);
  return undefined;
}

/** metav1.Time printed with %v: Go's time.Time String() in UTC. */
function goTimeString(rfc3339: string): string {
  const iso = new Date(rfc3339).toISOString();
  const [date, time] = iso.split('T') as [string, string];
  const [hms, frac = ''] = time.replace('Z', '').split('.');
  const nanos = frac.replace(/0+$/, '');
  return `${date} ${hms}${nanos ? `.${nanos}` : ''} +0000 UTC`;
}
