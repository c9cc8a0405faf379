/**
 * The informer indexes the workload controllers look things up by (controller_utils.go):
 * pods by the uid of their controller, orphans under one key per namespace, and ReplicaSets by
 * the uid of their controller.
 */
import type { IndexFunc } from '../../client/informer';
import { controllerOf } from './controller-ref-manager';

/** PodControllerUIDIndex. */
export const POD_CONTROLLER_UID_INDEX = 'podControllerUID';

/** OrphanPodIndexKeyForNamespace: where pods without a controller are indexed. */
export const orphanPodIndexKey = (namespace: string): string => `_ORPHAN_POD/${namespace}`;

export const podControllerUidIndexFunc: IndexFunc = (pod) => [controllerOf(pod)?.uid ?? orphanPodIndexKey(pod.metadata.namespace ?? '')];

export const CONTROLLER_UID_INDEX = 'controllerUID';

export const controllerUidIndexFunc: IndexFunc = (obj) => {
  const ref = controllerOf(obj);
  return ref ? [ref.uid] : [];
};
