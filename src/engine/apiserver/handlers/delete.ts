/**
 * DELETE (generic registry Store.Delete with rest.BeforeDelete): preconditions, graceful
 * deletion (deletionTimestamp = now + grace period, the object stays until its grace period is
 * cut to zero), finalizers (the object stays, marked as deleting, until they are removed) and the
 * garbage collector's propagation finalizers orphan and foregroundDeletion.
 */
import type { ErrorList } from '../../api/field';
import { conflictError, invalidError, notFoundError, type StatusDetails } from '../../api/status';
import type { JsonObject, KubeObject } from '../../api/types';
import type { RequestContext, Target } from '../context';
import type { PropagationPolicy } from '../request';
import { groupResource } from '../resources';
import type { StoredObject } from '../storage/resource-storage';
import { validateDeleteOptions } from '../validation/meta';
import { admissionAttributes, mutate, validate } from './admit';
import type * as meta from '../../api/generated/meta-v1';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

/** A request's metav1.DeleteOptions as the handler reads them: dryRun decided, the propagation policy one kube-apiserver knows. */
export type DeleteOptions = Pick<meta.DeleteOptions, 'gracePeriodSeconds' | 'orphanDependents' | 'preconditions'> & { propagationPolicy?: PropagationPolicy; dryRun: boolean };

export interface DeleteOutcome {
  /** The deleted object, the object still being deleted, or a Status for kinds that answer with one. */
  body: JsonObject;
  deleted: boolean;
}

/** The request's DeleteOptions: a DeleteOptions body overrides the query options, as kube-apiserver reads them. */
export function deleteOptions(ctx: RequestContext): DeleteOptions {
  const o = ctx.options;
  const body = ctx.request.body && 'object' in ctx.request.body ? ctx.request.body.object : undefined;
  const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const pre = typeof b.preconditions === 'object' && b.preconditions !== null ? (b.preconditions as Record<string, unknown>) : undefined;
  const dryRun = Array.isArray(b.dryRun) ? b.dryRun.includes('All') : ctx.dryRun;
  const options: DeleteOptions = {
    gracePeriodSeconds: num(b.gracePeriodSeconds) ?? o.gracePeriodSeconds,
    propagationPolicy: (str(b.propagationPolicy) as PropagationPolicy | undefined) ?? o.propagationPolicy,
    orphanDependents: typeof b.orphanDependents === 'boolean' ? b.orphanDependents : o.orphanDependents,
    preconditions: pre ? { uid: str(pre.uid), resourceVersion: str(pre.resourceVersion) } : o.preconditions,
    dryRun,
  };
  return acceptDeleteOptions(ctx, options);
}

/**
 * DeleteOptions as read from a DELETE or an Eviction, validated (an Invalid DeleteOptions error
 * otherwise) and with the request's dry-run set from them.
 */
export function acceptDeleteOptions(ctx: RequestContext, options: DeleteOptions): DeleteOptions {
  const errs: ErrorList = validateDeleteOptions({
    dryRun: options.dryRun ? ['All'] : [],
    orphanDependents: options.orphanDependents ?? null,
    propagationPolicy: options.propagationPolicy ?? null,
    gracePeriodSeconds: options.gracePeriodSeconds ?? null,
  });
  if (errs.length > 0) throw invalidError({ group: 'meta.k8s.io', name: 'DeleteOptions' }, '', errs);
  ctx.setDryRun(options.dryRun);
  return options;
}

/**
 * The first step of the registries that delete in two phases (namespaces, custom resource
 * definitions): the object as stored now, its preconditions checked with their own texts before
 * it is marked for deletion.
 */
export async function currentForTwoPhaseDelete(t: Target, kind: { group: string; name: string }, key: string, options: DeleteOptions): Promise<StoredObject> {
  const current = await t.storage.get(key);
  if (!current) throw notFoundError(kind, t.name);
  checkTwoPhasePreconditions(kind, current.object, options);
  return current;
}

/** A two-phase registry's DELETE of an object already marked: the generic one, for the object's uid. */
export function deleteMarked(ctx: RequestContext, t: Target, obj: KubeObject, options: DeleteOptions): Promise<DeleteOutcome> {
  return deleteObject(ctx, t, { ...options, preconditions: { uid: obj.metadata.uid, ...options.preconditions } });
}

/** Stores a two-phase registry's object marked Terminating; undefined when another write came first (read it again). */
export async function writeTerminating(ctx: RequestContext, t: Target, key: string, next: KubeObject, current: StoredObject, what: string): Promise<KubeObject | undefined> {
  delete next.metadata.resourceVersion;
  ctx.writing(key, current.modRevision);
  const result = await t.storage.update(key, next, current, ctx.dryRun);
  if ('conflict' in result) return undefined;
  if (result.revision !== undefined) ctx.wrote(result.revision);
  ctx.stage({ stage: 'storage', verdict: 'passed', rule: key, detail: ctx.dryRun ? 'dry run: Terminating not stored' : `${what} Terminating` });
  return result.object;
}

function checkTwoPhasePreconditions(kind: { group: string; name: string }, obj: KubeObject, options: DeleteOptions): void {
  const p = options.preconditions;
  const name = obj.metadata.name ?? '';
  if (p?.uid !== undefined && p.uid !== obj.metadata.uid) {
    throw conflictError(kind, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
  }
  if (p?.resourceVersion !== undefined && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw conflictError(kind, name, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`);
  }
}

/** rest.BeforeDelete's precondition check, against the object as stored now. */
export function checkPreconditions(t: Target, obj: KubeObject, options: DeleteOptions): void {
  const p = options.preconditions;
  if (!p) return;
  const kind = { group: t.info.group, name: t.info.kind };
  const name = obj.metadata.name ?? '';
  if (p.uid !== undefined && p.uid !== obj.metadata.uid) {
    throw conflictError(
      kind,
      name,
      `the UID in the precondition (${p.uid}) does not match the UID in record (${obj.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw conflictError(
      kind,
      name,
      `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
}

interface GracefulDecision {
  graceful: boolean;
  pending: boolean;
  /** The grace period the deletion ends up with. */
  period: number;
}

/** rest.BeforeDelete's graceful part; sets deletionTimestamp on `obj` when it starts a graceful deletion. */
function beforeDelete(ctx: RequestContext, t: Target, obj: KubeObject, options: DeleteOptions): GracefulDecision {
  const requested = options.gracePeriodSeconds === undefined ? undefined : options.gracePeriodSeconds < 0 ? 1 : options.gracePeriodSeconds;
  if (!t.strategy.gracePeriod) return { graceful: false, pending: false, period: 0 };
  const m = obj.metadata;
  const now = ctx.server.clock.now();
  if (m.deletionTimestamp) {
    const current = m.deletionGracePeriodSeconds;
    if (current === undefined || current === 0) return { graceful: false, pending: false, period: 0 };
    if (requested === undefined || requested >= current) return { graceful: false, pending: true, period: current };
    let at = Date.parse(m.deletionTimestamp) - current * 1000 + requested * 1000;
    let period = requested;
    if (at < Math.floor(now / 1000) * 1000) {
      at = now;
      if (period !== 0) period = 1;
    }
    m.deletionTimestamp = ctx.server.clock.rfc3339(at);
    m.deletionGracePeriodSeconds = period;
    return { graceful: true, pending: false, period };
  }
  const period = t.strategy.gracePeriod(obj, requested);
  m.deletionTimestamp = ctx.server.clock.rfc3339(now + period * 1000);
  m.deletionGracePeriodSeconds = period;
  if ((m.generation ?? 0) > 0) m.generation = (m.generation ?? 0) + 1;
  return { graceful: true, pending: false, period };
}

/** The finalizers after applying the propagation policy, or undefined when they stay as they are. */
function propagationFinalizers(t: Target, obj: KubeObject, options: DeleteOptions): string[] | undefined {
  if (!t.strategy.garbageCollected) return undefined;
  const current = obj.metadata.finalizers ?? [];
  const policy = options.propagationPolicy;
  let orphan: boolean;
  if (options.orphanDependents !== undefined) orphan = options.orphanDependents;
  else if (policy !== undefined) orphan = policy === 'Orphan';
  else orphan = current.includes(FINALIZER_ORPHAN) && !current.slice(0, current.indexOf(FINALIZER_ORPHAN)).includes(FINALIZER_FOREGROUND);
  let foreground: boolean;
  if (options.orphanDependents !== undefined) foreground = false;
  else if (policy !== undefined) foreground = policy === 'Foreground';
  else foreground = current.includes(FINALIZER_FOREGROUND);
  const next = current.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (orphan) next.push(FINALIZER_ORPHAN);
  if (foreground) next.push(FINALIZER_FOREGROUND);
  const same = new Set(next).size === new Set(current).size && next.every((f) => current.includes(f));
  return same ? undefined : next;
}

/** What DELETE answers: the object for kinds that return it, else a Success Status. */
export function finalizeDelete(t: Target, obj: KubeObject): JsonObject {
  if (t.strategy.returnDeletedObject) return obj as JsonObject;
  const details: StatusDetails = { name: obj.metadata.name ?? '', kind: t.info.resource };
  if (t.info.group) details.group = t.info.group;
  if (obj.metadata.uid) details.uid = obj.metadata.uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: details as JsonObject };
}

/** The DELETE admission of the object as it is stored: mutating, then validating plugins. */
export async function deleteValidation(ctx: RequestContext, t: Target, existing: KubeObject): Promise<void> {
  const a = admissionAttributes(ctx, t, 'DELETE', undefined, existing);
  await mutate(ctx, a);
  await validate(ctx, a);
}

function recordStorage(ctx: RequestContext, key: string, revision: number | undefined, detail: string): void {
  if (revision !== undefined) ctx.wrote(revision);
  ctx.stage({ stage: 'storage', verdict: revision === undefined ? 'skipped' : 'passed', rule: key, detail: ctx.dryRun ? `dry run: ${detail}` : detail });
}

export async function deleteObject(ctx: RequestContext, t: Target, options: DeleteOptions): Promise<DeleteOutcome> {
  const key = t.storage.key(t.namespace, t.name);
  const first = await t.storage.get(key);
  if (!first) throw notFoundError(groupResource(t.info), t.name);
  checkPreconditions(t, first.object, options);
  const probe = structuredClone(first.object) as KubeObject;
  const decision = beforeDelete(ctx, t, probe, options);
  if (decision.pending) return { body: finalizeDelete(t, first.object), deleted: false };
  const needsUpdate = decision.graceful || (probe.metadata.finalizers ?? []).length > 0 || propagationFinalizers(t, probe, options) !== undefined;
  if (needsUpdate) {
    const marked = await markForDeletion(ctx, t, key, options);
    if (marked.kind === 'pending') return { body: finalizeDelete(t, marked.object), deleted: false };
    if (marked.kind === 'kept') return { body: marked.object as JsonObject, deleted: false };
    if (ctx.dryRun && marked.object) return { body: finalizeDelete(t, marked.object), deleted: true };
  }
  return deleteNow(ctx, t, key, options);
}

/** One attempt's read of the object to delete: as stored now, its preconditions checked and the deletion admitted. */
async function currentForDelete(ctx: RequestContext, t: Target, key: string, options: DeleteOptions): Promise<StoredObject> {
  const current = await t.storage.get(key);
  if (!current) throw notFoundError(groupResource(t.info), t.name);
  checkPreconditions(t, current.object, options);
  await deleteValidation(ctx, t, current.object);
  return current;
}

type Marked =
  | { kind: 'pending'; object: KubeObject }
  | { kind: 'kept'; object: KubeObject }
  | { kind: 'delete'; object?: KubeObject };

/** updateForGracefulDeletionAndFinalizers: marks the object as being deleted, or says to delete it now. */
async function markForDeletion(ctx: RequestContext, t: Target, key: string, options: DeleteOptions): Promise<Marked> {
  for (;;) {
    const current = await currentForDelete(ctx, t, key, options);
    const obj = structuredClone(current.object) as KubeObject;
    const decision = beforeDelete(ctx, t, obj, options);
    if (decision.pending) return { kind: 'pending', object: current.object };
    const finalizers = propagationFinalizers(t, obj, options);
    if (finalizers) obj.metadata.finalizers = finalizers;
    if (obj.metadata.finalizers?.length === 0) delete obj.metadata.finalizers;
    const pendingFinalizers = (obj.metadata.finalizers ?? []).length > 0;
    if (!decision.graceful) {
      if (!pendingFinalizers) return { kind: 'delete' };
      markAsDeleting(ctx, obj);
    }
    const result = await writeMarked(ctx, t, key, obj, current);
    if (!result) continue;
    if (pendingFinalizers || decision.period > 0) return { kind: 'kept', object: result };
    return { kind: 'delete', object: result };
  }
}

/** Kinds without graceful deletion that wait for finalizers: deleting now, with no grace period. */
function markAsDeleting(ctx: RequestContext, obj: KubeObject): void {
  const m = obj.metadata;
  if (!m.deletionTimestamp && (m.generation ?? 0) > 0) m.generation = (m.generation ?? 0) + 1;
  const now = ctx.server.clock.rfc3339();
  if (!m.deletionTimestamp || m.deletionTimestamp > now) m.deletionTimestamp = now;
  m.deletionGracePeriodSeconds = 0;
}

async function writeMarked(ctx: RequestContext, t: Target, key: string, obj: KubeObject, current: StoredObject): Promise<KubeObject | undefined> {
  delete obj.metadata.resourceVersion;
  ctx.writing(key, current.modRevision);
  const result = await t.storage.update(key, obj, current, ctx.dryRun);
  if ('conflict' in result) return undefined;
  const m = result.object.metadata;
  recordStorage(ctx, key, result.revision, `marked for deletion at ${m.deletionTimestamp ?? ''} (grace period ${m.deletionGracePeriodSeconds ?? 0}s)`);
  return result.object;
}

async function deleteNow(ctx: RequestContext, t: Target, key: string, options: DeleteOptions): Promise<DeleteOutcome> {
  for (;;) {
    const current = await currentForDelete(ctx, t, key, options);
    ctx.writing(key, current.modRevision);
    const result = await t.storage.delete(key, current, ctx.dryRun);
    if (!result) continue;
    if (!ctx.dryRun) t.strategy.afterDelete?.(current.object);
    recordStorage(ctx, key, result.revision, 'deleted');
    return { body: finalizeDelete(t, current.object), deleted: true };
  }
}

