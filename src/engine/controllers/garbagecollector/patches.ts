/**
 * The collector's patches (pkg/controller/garbagecollector patch.go): strategic merge patches
 * that delete owner references by uid or unblock them, keyed by the dependent's uid so they
 * cannot land on a newer object of the same name; a merge patch that rewrites finalizers at the
 * resourceVersion they were read at.
 */
import type { JsonObject, KubeObject } from '../../api/types';

export function deleteOwnerReferencesPatch(dependentUid: string, ownerUids: readonly string[]): JsonObject {
  return { metadata: { ownerReferences: ownerUids.map((uid) => ({ $patch: 'delete', uid })), uid: dependentUid } };
}

/** Every blocking reference of the object, with blockOwnerDeletion turned off. */
export function unblockOwnerReferencesPatch(obj: KubeObject): JsonObject {
  const refs = (obj.metadata.ownerReferences ?? []).filter((r) => r.blockOwnerDeletion === true).map((r) => ({ ...r, blockOwnerDeletion: false }));
  return { metadata: { ownerReferences: refs, uid: obj.metadata.uid ?? '' } };
}

/** The finalizers without `finalizer`, or undefined when it is not there. */
export function removeFinalizerPatch(obj: KubeObject, finalizer: string): JsonObject | undefined {
  const finalizers = obj.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) return undefined;
  const rest = finalizers.filter((f) => f !== finalizer);
  return { metadata: { resourceVersion: obj.metadata.resourceVersion ?? '', finalizers: rest.length > 0 ? rest : null } };
}
