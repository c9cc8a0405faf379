/** The batch/v1 Job as the Job controller reads and writes it (status fields in Go's order). */
import type { LabelSelector } from '../../api/labels';
import type { KubeObject } from '../../api/types';

export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface UncountedTerminatedPods {
  succeeded?: string[];
  failed?: string[];
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  uncountedTerminatedPods?: UncountedTerminatedPods;
  ready?: number;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
  spec?: { restartPolicy?: string; [key: string]: unknown };
}

export interface Job extends KubeObject {
  spec: {
    parallelism?: number;
    completions?: number | null;
    activeDeadlineSeconds?: number;
    backoffLimit?: number;
    selector?: LabelSelector | null;
    template?: PodTemplate;
    completionMode?: string;
    suspend?: boolean;
    podReplacementPolicy?: string;
  };
  status?: JobStatus;
}

export interface ContainerStatus {
  restartCount?: number;
  state?: { terminated?: { finishedAt?: string } };
}

export interface Pod extends KubeObject {
  spec?: { [key: string]: unknown };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; lastTransitionTime?: string | null }[];
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
  };
}

/** batch.kubernetes.io/job-tracking: a finished pod is counted in the Job's status before it may go. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
