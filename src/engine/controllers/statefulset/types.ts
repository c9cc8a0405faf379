/** The apps/v1 StatefulSet as the StatefulSet controller reads and writes it. */
import type { LabelSelector } from '../../api/labels';
import type { JsonObject, KubeObject } from '../../api/types';
import type { PodTemplateSpec } from '../util/types/workload';

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  availableReplicas: number;
}

export interface StatefulSet extends KubeObject {
  spec: {
    replicas?: number;
    selector?: LabelSelector | null;
    template?: PodTemplateSpec;
    volumeClaimTemplates?: (KubeObject & { spec?: JsonObject })[];
    serviceName?: string;
    podManagementPolicy?: string;
    updateStrategy?: { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } };
    revisionHistoryLimit?: number;
    minReadySeconds?: number;
    ordinals?: { start?: number };
  };
  status?: StatefulSetStatus;
}

/** Pods carry the name of the revision they were made from. */
export const POD_REVISION_LABEL = 'controller-revision-hash';
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** ControllerRevisions carry their hash. */
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';
