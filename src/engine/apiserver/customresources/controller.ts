/**
 * The apiextensions-apiserver's controllers, run inside the API server as kube-apiserver embeds
 * them, for each CustomResourceDefinition in turn:
 * - naming: the requested names become status.acceptedNames unless another CRD of the group
 *   has them (NamesAccepted, and Established False "Installing" until established);
 * - establishing: accepted names make the CRD Established ("InitialNamesAccepted");
 * - serving: an established CRD's versions are served (catalog.ts) until the CRD is gone;
 * - finalizing (customresourcecleanup.apiextensions.k8s.io): a deleted CRD's instances are
 *   deleted, then its finalizer is removed and the CRD goes.
 * Status writes go through the loopback client, so they are requests and revisions like any.
 */
import type { Clock } from '../../clock';
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import { APISERVER_USER } from '../authn/user';
import type { ApiRequest, ApiResponse } from '../request';
import type { ObjectReader } from '../storage/reader';
import { NameQueue } from '../name-queue';
import type { CustomResources } from './catalog';
import { hasCondition, isConditionTrue, withCondition, type CrdCondition } from './conditions';
import { acceptedNames } from './naming';

export const CRDS = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** How often a finalizing CRD looks again whether its instances are gone. */
const INSTANCES_POLL_MS = 5000;

const ESTABLISHED: CrdCondition = { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
const DELETION_IN_PROGRESS: CrdCondition = { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' };
const DELETION_COMPLETED: CrdCondition = { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
const NEVER_ESTABLISHED: CrdCondition = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };

export interface CrdControllerDeps {
  clock: Clock;
  reader: ObjectReader;
  catalog: CustomResources;
  loopback(request: ApiRequest): Promise<ApiResponse>;
}

export class CrdController {
  private readonly queue: NameQueue;
  private stopFollowing: (() => void) | undefined;
  private readonly timers = new Map<string, ReturnType<Clock['setTimer']>>();

  constructor(private readonly deps: CrdControllerDeps) {
    this.queue = new NameQueue(deps.clock, 'apiextensions: sync CustomResourceDefinitions', (name) => this.sync(name));
  }

  start(): void {
    this.stopFollowing = this.deps.reader.follow(CRDS, (e) => this.enqueue(e.object.metadata.name ?? ''));
  }

  stop(): void {
    this.stopFollowing?.();
    for (const t of this.timers.values()) this.deps.clock.clearTimer(t);
    this.timers.clear();
  }

  private enqueue(name: string): void {
    this.queue.add(name);
  }

  private async sync(name: string): Promise<void> {
    const crd = await this.deps.reader.get(CRDS, '', name);
    if (!crd) {
      await this.deps.catalog.unserve(name);
      // Names this CRD held may be free now for others of the group.
      for (const other of this.deps.reader.cached(CRDS)) if (!isConditionTrue(other, 'NamesAccepted')) this.enqueue(other.metadata.name ?? '');
      return;
    }
    if (await this.acceptNames(crd)) return;
    if (isConditionTrue(crd, 'NamesAccepted') && !isConditionTrue(crd, 'Established')) {
      await this.updateStatus(withCondition(crd, ESTABLISHED, this.deps.clock.rfc3339()));
      return;
    }
    if (isConditionTrue(crd, 'Established')) await this.deps.catalog.serve(crd);
    if (crd.metadata.deletionTimestamp && (crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) await this.finalize(crd);
  }

  /** The naming controller's step; true when it wrote the status (the write brings the CRD back). */
  private async acceptNames(crd: KubeObject): Promise<boolean> {
    const spec = isObject(crd.spec) ? crd.spec : {};
    const others = this.deps.reader.cached(CRDS).filter((c) => c.metadata.name !== crd.metadata.name && isObject(c.spec) && c.spec.group === spec.group);
    const result = acceptedNames(crd, others);
    if (!result) return false;
    const now = this.deps.clock.rfc3339();
    let next: KubeObject = { ...crd, status: { ...(isObject(crd.status) ? crd.status : {}), acceptedNames: result.names } };
    next = withCondition(next, result.namesAccepted, now);
    next = withCondition(next, result.established, now);
    await this.updateStatus(next);
    return true;
  }

  /** The finalizer controller: instances deleted namespace by namespace, then the finalizer removed. */
  private async finalize(crd: KubeObject): Promise<void> {
    const name = crd.metadata.name ?? '';
    const now = this.deps.clock.rfc3339();
    if (!isConditionTrue(crd, 'Established')) {
      await this.updateStatus(removeFinalizer(withCondition(crd, NEVER_ESTABLISHED, now)));
      return;
    }
    if (!hasCondition(crd, DELETION_IN_PROGRESS)) {
      await this.updateStatus(withCondition(crd, DELETION_IN_PROGRESS, now));
      return;
    }
    const target = servedResource(crd);
    const instances = await this.deps.reader.list(target);
    if (instances.length > 0) {
      for (const namespace of new Set(instances.filter((o) => !o.metadata.deletionTimestamp).map((o) => o.metadata.namespace ?? ''))) {
        await this.deps.loopback({ verb: 'deletecollection', user: APISERVER_USER, group: target.group, version: target.version, resource: target.resource, namespace: namespace || undefined });
      }
      if ((await this.deps.reader.list(target)).length > 0) {
        this.timers.set(name, this.deps.clock.setTimer(INSTANCES_POLL_MS, () => this.enqueue(name), { label: `apiextensions: ${name} waits for its instances to be removed` }));
        return;
      }
    }
    await this.updateStatus(removeFinalizer(withCondition(crd, DELETION_COMPLETED, now)));
  }

  private async updateStatus(crd: KubeObject): Promise<void> {
    await this.deps.loopback({
      verb: 'update',
      user: APISERVER_USER,
      group: CRDS.group,
      version: 'v1',
      resource: CRDS.resource,
      subresource: 'status',
      name: crd.metadata.name,
      body: { object: crd as JsonObject },
    });
  }
}

function removeFinalizer(crd: KubeObject): KubeObject {
  return { ...crd, metadata: { ...crd.metadata, finalizers: (crd.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER) } };
}

/** The CRD's resource in a served version (the storage version if served), as the finalizer lists and deletes it. */
function servedResource(crd: KubeObject): { group: string; version: string; resource: string } {
  const spec = isObject(crd.spec) ? crd.spec : {};
  const status = isObject(crd.status) ? crd.status : {};
  const names = isObject(status.acceptedNames) ? status.acceptedNames : {};
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [];
  const served = versions.filter((v) => v.served === true);
  const storage = served.find((v) => v.storage === true) ?? served[0];
  return { group: String(spec.group ?? ''), version: String(storage?.name ?? ''), resource: String(names.plural ?? '') };
}
