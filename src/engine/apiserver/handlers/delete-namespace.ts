/**
 * Namespace deletion (pkg/registry/core/namespace/storage): the first DELETE only marks the
 * namespace Terminating (deletionTimestamp set, orphan/foregroundDeletion finalizers per the
 * policy); the namespace controller empties it and clears spec.finalizers through the finalize
 * subresource; a DELETE after that removes it.
 */
import { isObject, type KubeObject } from '../../api/types';
import type { RequestContext, Target } from '../context';
import { currentForTwoPhaseDelete, deleteMarked, deleteValidation, finalizeDelete, FINALIZER_FOREGROUND, FINALIZER_ORPHAN, writeTerminating, type DeleteOptions, type DeleteOutcome } from './delete';

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
    const current = await currentForTwoPhaseDelete(t, NAMESPACES, key, options);
    const ns = current.object;
    await deleteValidation(ctx, t, ns);
    if (ns.metadata.deletionTimestamp) {
      const spec = isObject(ns.spec) ? ns.spec : {};
      if (Array.isArray(spec.finalizers) && spec.finalizers.length > 0) return { body: finalizeDelete(t, ns), deleted: false };
      return deleteMarked(ctx, t, ns, options);
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
    const written = await writeTerminating(ctx, t, key, next, current, 'namespace');
    if (written) return { body: finalizeDelete(t, written), deleted: false };
  }
}
