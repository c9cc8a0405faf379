/**
 * Typed views of the apps/v1 and core/v1 objects the workload controllers read. Objects arrive as
 * plain JSON from the informers; these interfaces name only the fields the controllers use.
 */
import type { LabelSelector } from '../../../api/labels';
import type { JsonObject, KubeObject, ObjectMeta } from '../../../api/types';

/** apps/v1 DefaultDeploymentUniqueLabelKey: the label that names the template a ReplicaSet's pods (and a ControllerRevision) came from. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: JsonObject;
}

export interface ReplicaSetCondition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

export interface ReplicaSet extends KubeObject {
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelector | null;
    template?: PodTemplateSpec;
  };
  status?: ReplicaSetStatus;
}

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime?: string | null;
}

export interface ContainerStatus {
  name?: string;
  restartCount?: number;
}

export interface Pod extends KubeObject {
  spec?: {
    nodeName?: string;
    initContainers?: { name: string; restartPolicy?: string }[];
  };
  status?: {
    phase?: string;
    conditions?: PodCondition[];
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
  };
}

/** spec.replicas; the API server defaults a missing value to 1. */
export const specReplicas = (rs: ReplicaSet): number => rs.spec.replicas ?? 1;
