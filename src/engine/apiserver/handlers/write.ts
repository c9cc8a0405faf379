/**
 * The generic registry store's writes (k8s.io/apiserver/pkg/registry/generic/registry.Store):
 * create with generated names, and GuaranteedUpdate: read, compute the new object, check the
 * resourceVersion precondition, prepare and validate, admit, and write only if the key is still
 * at the revision read, retrying from the read when another write got there first.
 */
import {
  alreadyExistsError,
  conflictError,
  generateNameConflictError,
  internalServerError,
  invalidError,
  isStatusError,
  notFoundError,
  OPTIMISTIC_LOCK_MESSAGE,
  type StatusError,
} from '../../api/status';
import { invalid, Path, type ErrorList } from '../../api/field';
import type { KubeObject } from '../../api/types';
import type { RequestContext, Target } from '../context';
import { keepUnchangedTimestamps } from '../managed-fields';
import { ensureNamespace, fillSystemFields, generateName, keepSystemFields } from '../objects';
import { groupResource } from '../resources';
import type { StoredObject, WriteResult } from '../storage/resource-storage';
import { NO_TRANSACTION } from '../strategies/types';
import { createErrors, enforce, updateErrors } from '../validate';
import { admissionForbidden } from '../admission/errors';
import { isConditionTrue } from '../customresources/conditions';
import { CRDS } from '../customresources/controller';
import { admissionAttributes, mutate, validate } from './admit';
import { checkEscalation } from './rbac-escalation';

const MAX_NAME_GENERATION_ATTEMPTS = 8;

function stored(ctx: RequestContext, t: Target, result: WriteResult, verb: string): KubeObject {
  if (result.revision !== undefined) ctx.wrote(result.revision);
  const detail = ctx.dryRun ? `dry run: ${verb} not stored` : result.revision === undefined ? 'no change' : `${verb} at revision ${result.revision}`;
  ctx.stage({ stage: 'storage', verdict: result.revision === undefined ? 'skipped' : 'passed', rule: t.storage.key(t.namespace, result.object.metadata.name ?? ''), detail });
  return result.object;
}

/**
 * Store.create after mutating admission: system fields, generated name, the strategy's
 * BeginCreate and BeforeCreate, validating admission, and the write.
 */
async function storeCreate(ctx: RequestContext, t: Target, admitted: KubeObject): Promise<KubeObject> {
  await checkEscalation(ctx, t, admitted, undefined);
  const generated = !!admitted.metadata.generateName && !admitted.metadata.name;
  for (let attempt = 1; ; attempt++) {
    const obj: KubeObject = attempt === 1 ? admitted : structuredClone(admitted);
    fillSystemFields(obj.metadata, ctx.server.clock, ctx.server.random);
    if (generated) obj.metadata.name = generateName(obj.metadata.generateName!, ctx.server.random);
    const txn = t.strategy.beginCreate?.(obj, ctx.strategyContext) ?? NO_TRANSACTION;
    try {
      ensureNamespace(obj.metadata, t.namespace, t.info.namespaced);
      t.strategy.prepareForCreate(obj, ctx.strategyContext);
      enforce(ctx, t, obj, createErrors(t, obj));
      for (const w of t.strategy.warningsOnCreate?.(obj) ?? []) ctx.warn(w);
      await validate(ctx, admissionAttributes(ctx, { ...t, name: obj.metadata.name ?? '' }, 'CREATE', obj, undefined));
      const key = t.storage.key(t.namespace, obj.metadata.name ?? '');
      ctx.writing(key, 0);
      const result = await t.storage.create(key, obj, ctx.dryRun);
      txn.commit();
      return stored(ctx, t, result, 'created');
    } catch (err) {
      txn.revert();
      if (isStatusError(err) && err.reason === 'AlreadyExists') {
        if (generated && attempt < MAX_NAME_GENERATION_ATTEMPTS) continue;
        throw await alreadyExists(ctx, t, obj, generated);
      }
      throw err;
    }
  }
}

async function alreadyExists(ctx: RequestContext, t: Target, obj: KubeObject, generated: boolean): Promise<StatusError> {
  const name = obj.metadata.name ?? '';
  const err = generated ? generateNameConflictError(groupResource(t.info), name, 1) : alreadyExistsError(groupResource(t.info), name);
  const existing = await t.storage.get(t.storage.key(t.namespace, name));
  if (existing?.object.metadata.deletionTimestamp) err.status.message = `object is being deleted: ${err.status.message}`;
  ctx.stage({ stage: 'storage', verdict: 'rejected', rule: t.storage.key(t.namespace, name), detail: err.status.message });
  return err;
}

/** A create: mutating admission, then the store's create. */
export async function createObject(ctx: RequestContext, t: Target, obj: KubeObject): Promise<KubeObject> {
  await refuseWhileTerminating(ctx, t, obj);
  await mutate(ctx, admissionAttributes(ctx, t, 'CREATE', obj, undefined));
  return storeCreate(ctx, t, obj);
}

/** The crdHandler's forbidCreateAdmission: no new instances of a CRD that is being deleted. */
async function refuseWhileTerminating(ctx: RequestContext, t: Target, obj: KubeObject): Promise<void> {
  const custom = ctx.server.customResources.forResource(t.info);
  if (!custom) return;
  const crd = await ctx.server.storage.get(CRDS, '', custom.crd);
  if (!crd || !isConditionTrue(crd, 'Terminating')) return;
  const err = admissionForbidden(admissionAttributes(ctx, t, 'CREATE', obj, undefined), 'create not allowed while custom resource definition is terminating');
  ctx.stage({ stage: 'mutating-admission', verdict: 'rejected', rule: 'CustomResourceDefinition terminating', detail: err.message });
  throw err;
}

export interface UpdateSpec {
  /** The new object, computed from the current one (undefined when there is none). */
  updatedObject(current: KubeObject | undefined): Promise<KubeObject>;
  /** Server-side apply creates missing objects whatever the strategy says. */
  forceAllowCreate?: boolean;
  /** Replaces the strategy's PrepareForUpdate (subresources); returns the object to store. */
  prepare?(obj: KubeObject, old: KubeObject): KubeObject;
  /** Replaces the main resource's update rules (subresources). */
  errors?(obj: KubeObject, old: KubeObject): ErrorList;
  /** For writes the registry makes on its own (binding a pod): admission already ran on the request. */
  skipAdmission?: boolean;
}

export interface UpdateResult {
  object: KubeObject;
  created: boolean;
}

/**
 * The registry's update over etcd3's GuaranteedUpdate behind the cacher: the first round starts
 * from the watch cache's object (the cacher's cachedExistingObject; a dry run reads etcd, as
 * DryRunnableStorage does), and etcd is read only when that state proves stale: a txn that lost
 * its race reads the key itself (GetOnFailure), and an error or a no-op against a state the
 * round did not read from etcd is checked against etcd before it is final.
 */
export async function guaranteedUpdate(ctx: RequestContext, t: Target, spec: UpdateSpec): Promise<UpdateResult> {
  const key = t.storage.key(t.namespace, t.name);
  const suggested = ctx.dryRun ? undefined : t.storage.suggestion(key);
  let current = suggested ?? (await t.storage.get(key));
  let isCurrent = suggested === undefined;
  for (;;) {
    if (!current) {
      if (!t.strategy.allowCreateOnUpdate && !spec.forceAllowCreate) throw notFoundError(groupResource(t.info), t.name);
      const obj = await spec.updatedObject(undefined);
      // The create branch of GuaranteedUpdate writes whatever version the client had in mind.
      delete obj.metadata.resourceVersion;
      await refuseWhileTerminating(ctx, t, obj);
      await mutate(ctx, admissionAttributes(ctx, t, 'CREATE', obj, undefined));
      return { object: await storeCreate(ctx, t, obj), created: true };
    }
    const round = await tryUpdate(ctx, t, spec, key, current, isCurrent);
    if ('object' in round) return { object: round.object, created: false };
    current = round.retry;
    isCurrent = true;
  }
}

/** The next round's state: the key as etcd has it, when it moved on from `current`. */
type Retry = { readonly retry: StoredObject | undefined };

/** etcd3's check of a state it did not read itself: etcd's, when it differs (the round is redone), else undefined (the round's answer stands). */
async function fresher(t: Target, key: string, current: StoredObject): Promise<Retry | undefined> {
  const live = await t.storage.get(key);
  return live?.modRevision === current.modRevision ? undefined : { retry: live };
}

/** One round of GuaranteedUpdate; a retry when the key moved on and the round must be redone. */
async function tryUpdate(ctx: RequestContext, t: Target, spec: UpdateSpec, key: string, current: StoredObject, isCurrent: boolean): Promise<{ object: KubeObject } | Retry> {
  const old = current.object;
  let txn = NO_TRANSACTION;
  let obj: KubeObject;
  try {
    obj = await spec.updatedObject(old);
    if (!spec.skipAdmission) await mutate(ctx, admissionAttributes(ctx, t, 'UPDATE', obj, old));
    await checkEscalation(ctx, t, obj, old);
    const rv = obj.metadata.resourceVersion ?? '';
    if (rv === '') {
      if (!t.strategy.allowUnconditionalUpdate) {
        const path = Path.root('metadata', 'resourceVersion');
        throw invalidError({ group: t.info.group, name: t.info.resource }, t.name, [invalid(path, 0, 'must be specified for an update')]);
      }
      // An unconditional update is made against the version it read.
      obj.metadata.resourceVersion = old.metadata.resourceVersion;
    } else if (rv !== old.metadata.resourceVersion) {
      const retry = isCurrent ? undefined : await fresher(t, key, current);
      if (retry) return retry;
      ctx.stage({ stage: 'storage', verdict: 'rejected', rule: key, detail: OPTIMISTIC_LOCK_MESSAGE });
      throw conflictError(groupResource(t.info), t.name, OPTIMISTIC_LOCK_MESSAGE);
    }
    txn = t.strategy.beginUpdate?.(obj, old, ctx.strategyContext) ?? NO_TRANSACTION;
    ensureNamespace(obj.metadata, t.namespace, t.info.namespaced);
    keepSystemFields(obj, old);
    if (spec.prepare) obj = spec.prepare(obj, old);
    else t.strategy.prepareForUpdate(obj, old);
    enforce(ctx, t, obj, spec.errors ? spec.errors(obj, old) : updateErrors(t, obj, old));
    if (!spec.errors && !t.subresource) for (const w of t.strategy.warningsOnUpdate?.(obj, old) ?? []) ctx.warn(w);
    if (!spec.skipAdmission) await validate(ctx, admissionAttributes(ctx, t, 'UPDATE', obj, old));
  } catch (err) {
    txn.revert();
    const retry = isCurrent ? undefined : await fresher(t, key, current);
    if (retry) return retry;
    throw err;
  }
  try {
    obj.metadata.resourceVersion = old.metadata.resourceVersion;
    keepUnchangedTimestamps(obj, old);
    delete obj.metadata.resourceVersion;
    ctx.writing(key, current.modRevision);
    const result = await t.storage.update(key, obj, current, ctx.dryRun, isCurrent);
    if ('conflict' in result) {
      txn.revert();
      return { retry: result.conflict };
    }
    txn.commit();
    const out = stored(ctx, t, result, 'updated');
    if ((t.strategy.shouldDeleteDuringUpdate ?? shouldDeleteDuringUpdate)(out, old)) return { object: await deleteWithoutFinalizers(ctx, t, key, out) };
    return { object: out };
  } catch (err) {
    txn.revert();
    throw err;
  }
}

/** The last finalizer of an object being deleted is gone: the update completes the deletion. */
export function shouldDeleteDuringUpdate(obj: KubeObject, old: KubeObject): boolean {
  if ((obj.metadata.finalizers ?? []).length > 0) return false;
  if (!old.metadata.deletionTimestamp) return false;
  const grace = obj.metadata.deletionGracePeriodSeconds;
  return grace === undefined || grace === 0;
}

async function deleteWithoutFinalizers(ctx: RequestContext, t: Target, key: string, obj: KubeObject): Promise<KubeObject> {
  const current = await t.storage.get(key);
  if (!current) return obj;
  ctx.writing(key, current.modRevision);
  const result = await t.storage.delete(key, current, ctx.dryRun);
  if (!result) throw internalServerError(`the object ${key} changed while it was being deleted`);
  if (result.revision !== undefined) ctx.wrote(result.revision);
  t.strategy.afterDelete?.(current.object);
  ctx.stage({ stage: 'storage', verdict: 'passed', rule: key, detail: 'deleted: no finalizers left' });
  return obj;
}
