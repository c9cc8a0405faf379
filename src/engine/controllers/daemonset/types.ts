/** The apps/v1 DaemonSet as the DaemonSet controller reads and writes them. */
import type { LabelSelector } from '../../api/labels';
import type { KubeObject } from '../../api/types';
import type { PodTemplateSpec } from '../util/types/workload';

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
}

export interface DaemonSet extends KubeObject {
  spec: {
    selector?: LabelSelector | null;
    template?: PodTemplateSpec;
    updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: DaemonSetStatus;
}

export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** The deprecated label DaemonSet pods still carry. */
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
