/** The apps/v1 StatefulSet as the StatefulSet controller reads and writes it. */
import type * as apps from '../../api/generated/apps-v1';

export type { StatefulSetStatus } from '../../api/generated/apps-v1';

/** A stored StatefulSet: validation requires its spec (selector and template). */
export type StatefulSet = apps.StatefulSet & { spec: apps.StatefulSetSpec };

/** Pods carry the name of the revision they were made from. */
export const POD_REVISION_LABEL = 'controller-revision-hash';
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** ControllerRevisions carry their hash. */
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';
