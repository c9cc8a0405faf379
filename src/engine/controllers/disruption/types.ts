/** The policy/v1, core/v1 and meta/v1 types the disruption controller reads and writes (generated from the OpenAPI), and the workloads whose scale it reads. */
import type { KubeObject } from '../../api/types';

export type { Condition } from '../../api/generated/meta-v1';
export type { PodDisruptionBudget, PodDisruptionBudgetStatus } from '../../api/generated/policy-v1';
export type { Pod, PodCondition } from '../../api/generated/core-v1';

/** A Deployment, ReplicaSet, StatefulSet or ReplicationController: only its scale matters here. */
export interface Workload extends KubeObject {
  spec?: { replicas?: number };
}

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const DISRUPTION_TARGET = 'DisruptionTarget';
