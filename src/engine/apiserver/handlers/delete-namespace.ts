/**
 * Namespace deletion (pkg/registry/core/namespace/storage): the first DELETE only marks the
 * namespace Terminating (deletionTimestamp set, orphan/foregroundDeletion finalizers per the
 * policy); the namespace controller empties it and clears spec.finalizers through the finalize
 * subresource; a DELETE after that removes it.
 */
import { notFoundError } from '../../api/status';
import { isObject, type KubeObject } from '../../api/types';
import type { RequestContext, Target } from '../context';
import { admissionAttributes, mutate, validate } from './admit';
import { checkTwoPhasePreconditions, deleteObject, finalizeDelete, FINALIZER_FOREGROUND, FINALIZER_ORPHAN, type DeleteOptions, type DeleteOutcome } from './delete';

const NAMESPACES = { group: '', name: 'namespaces' };

function wantsFinalizer(options: DeleteOptions, finalizer: string, has: boolean): boolean {
  const orphan = finalizer === FINALIZER_ORPHAN;
  if (options.orphanDependents !== undefined) return orphan ? options.orphanDependents : false;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === (orphan ? 'Orphan' : 'Foreground');
  return has;
}

export async function deleteNamespace(ctx: RequestContext, t: Target, options: DeleteOptions): Promise<DeleteOutcome> {
  const key = t.storage.key('', t.name);
  for (;;) {
    const current = await t.storage.get(key);
    if (!current) throw notFoundError(NAMESPACES, t.name);
    const ns = current.object;
    checkTwoPhasePreconditions(NAMESPACES, ns, options);
    const a = admissionAttributes(ctx, t, 'DELETE', undefined, ns);
    await mutate(ctx, a);
    await validate(ctx, a);
    if (ns.metadata.deletionTimestamp) {
      const spec = isObject(ns.spec) ? ns.spec : {};
      if (Array.isArray(spec.finalizers) && spec.finalizers.length > 0) return { body: finalizeDelete(t, ns), deleted: false };
      return deleteObject(ctx, t, { ...options, preconditions: { uid: ns.metadata.uid, ...options.preconditions } });
    }
    const next = structuredClone(ns) as KubeObject;
    next.metadata.deletionTimestamp = ctx.server.clock.rfc3339();
    next.status = { ...(isObject(next.status) ? next.status : {}), phase: 'Terminating' };
    const finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
    const has = new Set(ns.metadata.finalizers ?? []);
    if (wantsFinalizer(options, FINALIZER_ORPHAN, has.has(FINALIZER_ORPHAN))) finalizers.push(FINALIZER_ORPHAN);
    if (wantsFinalizer(options, FINALIZER_FOREGROUND, has.has(FINALIZER_FOREGROUND))) finalizers.push(FINALIZER_FOREGROUND);
    if (finalizers.length > 0) next.metadata.finalizers = finalizers;
    else delete next.metadata.finalizers;
    delete next.metadata.resourceVersion;
    ctx.writing(key, current.modRevision);
    const result = await t.storage.update(key, next, current, ctx.dryRun);
    if ('conflict' in result) continue;
    if (result.revision !== undefined) ctx.wrote(result.revision);
    ctx.stage({ stage: 'storage', verdict: 'passed', rule: key, detail: ctx.dryRun ? 'dry run: Terminating not stored' : 'namespace Terminating' });
    return { body: finalizeDelete(t, result.object), deleted: false };
  }
}
