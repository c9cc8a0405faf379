/**
 * CustomResourceDefinition deletion (apiextensions-apiserver's CRD REST Delete): the first DELETE
 * marks the CRD (deletionTimestamp, the customresourcecleanup finalizer, Terminating
 * "InstanceDeletionPending") and answers with it; the CRD controller deletes the instances and
 * removes the finalizer, and the CRD goes. A DELETE after the first is the generic one.
 */
import { notFoundError } from '../../api/status';
import type { JsonObject, KubeObject } from '../../api/types';
import type { RequestContext, Target } from '../context';
import { withCondition } from '../customresources/conditions';
import { CLEANUP_FINALIZER } from '../customresources/controller';
import { admissionAttributes, mutate, validate } from './admit';
import { checkTwoPhasePreconditions, deleteObject, type DeleteOptions, type DeleteOutcome } from './delete';

const CRDS = { group: 'apiextensions.k8s.io', name: 'customresourcedefinitions' };

const PENDING = {
  type: 'Terminating',
  status: 'True',
  reason: 'InstanceDeletionPending',
  message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
} as const;

export async function deleteCustomResourceDefinition(ctx: RequestContext, t: Target, options: DeleteOptions): Promise<DeleteOutcome> {
  const key = t.storage.key('', t.name);
  for (;;) {
    const current = await t.storage.get(key);
    if (!current) throw notFoundError(CRDS, t.name);
    const crd = current.object;
    checkTwoPhasePreconditions(CRDS, crd, options);
    if (crd.metadata.deletionTimestamp) return deleteObject(ctx, t, { ...options, preconditions: { uid: crd.metadata.uid, ...options.preconditions } });
    const a = admissionAttributes(ctx, t, 'DELETE', undefined, crd);
    await mutate(ctx, a);
    await validate(ctx, a);
    const now = ctx.server.clock.rfc3339();
    const next = withCondition(structuredClone(crd) as KubeObject, PENDING, now);
    next.metadata.deletionTimestamp = now;
    const finalizers = next.metadata.finalizers ?? [];
    if (!finalizers.includes(CLEANUP_FINALIZER)) next.metadata.finalizers = [...finalizers, CLEANUP_FINALIZER];
    delete next.metadata.resourceVersion;
    ctx.writing(key, current.modRevision);
    const result = await t.storage.update(key, next, current, ctx.dryRun);
    if ('conflict' in result) continue;
    if (result.revision !== undefined) ctx.wrote(result.revision);
    ctx.stage({ stage: 'storage', verdict: 'passed', rule: key, detail: ctx.dryRun ? 'dry run: Terminating not stored' : 'CustomResourceDefinition Terminating' });
    return { body: result.object as JsonObject, deleted: false };
  }
}
