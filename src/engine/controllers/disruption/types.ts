/** The policy/v1, core/v1 and apps/v1 fields the disruption controller reads and writes. */
import type { IntOrString } from '../../api/intstr';
import type { LabelSelector } from '../../api/labels';
import type { KubeObject } from '../../api/types';

/** metav1.Condition (fields in Go's order: message is always written, observedGeneration only when set). */
export interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** PodDisruptionBudgetStatus, fields in Go's order. */
export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  /** Pod name to the time the eviction subresource took a disruption for it. */
  disruptedPods?: Record<string, string>;
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  conditions?: Condition[];
}

export interface PodDisruptionBudget extends KubeObject {
  spec?: {
    minAvailable?: IntOrString;
    maxUnavailable?: IntOrString;
    selector?: LabelSelector | null;
  };
  status?: PodDisruptionBudgetStatus;
}

export type { Pod, PodCondition } from '../../api/generated/core-v1';

/** A Deployment, ReplicaSet, StatefulSet or ReplicationController: only its scale matters here. */
export interface Workload extends KubeObject {
  spec?: { replicas?: number };
}

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const DISRUPTION_TARGET = 'DisruptionTarget';
