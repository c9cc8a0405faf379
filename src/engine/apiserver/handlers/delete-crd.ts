/**
 * CustomResourceDefinition deletion (apiextensions-apiserver's CRD REST Delete): the first DELETE
 * marks the CRD (deletionTimestamp, the customresourcecleanup finalizer, Terminating
 * "InstanceDeletionPending") and answers with it; the CRD controller deletes the instances and
 * removes the finalizer, and the CRD goes. A DELETE after the first is the generic one.
 */
import type { JsonObject, KubeObject } from '../../api/types';
import type { RequestContext, Target } from '../context';
import { withCondition } from '../customresources/conditions';
import { CLEANUP_FINALIZER } from '../customresources/controller';
import { currentForTwoPhaseDelete, deleteMarked, deleteValidation, writeTerminating, type DeleteOptions, type DeleteOutcome } from './delete';

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
    const current = await currentForTwoPhaseDelete(t, CRDS, key, options);
    const crd = current.object;
    if (crd.metadata.deletionTimestamp) return deleteMarked(ctx, t, crd, options);
    await deleteValidation(ctx, t, crd);
    const now = ctx.server.clock.rfc3339();
    const next = withCondition(structuredClone(crd) as KubeObject, PENDING, now);
    next.metadata.deletionTimestamp = now;
    const finalizers = next.metadata.finalizers ?? [];
    if (!finalizers.includes(CLEANUP_FINALIZER)) next.metadata.finalizers = [...finalizers, CLEANUP_FINALIZER];
    const written = await writeTerminating(ctx, t, key, next, current, 'CustomResourceDefinition');
    if (written) return { body: written as JsonObject, deleted: false };
  }
}
