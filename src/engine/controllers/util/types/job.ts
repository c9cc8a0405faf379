/** The batch/v1 Job as the Job controller reads and writes it (status fields in Go's order). */
import type { LabelSelector } from '../../../api/labels';
import type { KubeObject } from '../../../api/types';

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
  /** Indexed Jobs: the succeeded indexes, as intervals ("1,3-5"). */
  completedIndexes?: string;
  /** Indexed Jobs with backoffLimitPerIndex: the failed indexes, as intervals. */
  failedIndexes?: string;
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
    backoffLimitPerIndex?: number | null;
    maxFailedIndexes?: number | null;
    selector?: LabelSelector | null;
    template?: PodTemplate;
    completionMode?: string;
    suspend?: boolean;
    podReplacementPolicy?: string;
    podFailurePolicy?: PodFailurePolicy | null;
    successPolicy?: SuccessPolicy | null;
  };
  status?: JobStatus;
}

export interface ContainerStatus {
  name?: string;
  restartCount?: number;
  state?: { terminated?: { finishedAt?: string; exitCode?: number } };
}

export interface PodFailurePolicyRule {
  action: 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';
  onExitCodes?: { containerName?: string | null; operator: 'In' | 'NotIn'; values: number[] } | null;
  onPodConditions?: { type: string; status: string }[] | null;
}

export interface PodFailurePolicy {
  rules: PodFailurePolicyRule[];
}

export interface SuccessPolicy {
  rules: { succeededIndexes?: string | null; succeededCount?: number | null }[];
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
