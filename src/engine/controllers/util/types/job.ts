/**
 * The batch/v1 and core/v1 types the Job and CronJob controllers read and write, as generated
 * from the OpenAPI (src/engine/api/generated). A stored Job always has a spec (validation
 * requires its template and selector), so the view says so once here.
 */
import type * as batch from '../../../api/generated/batch-v1';
import type { Pod, PodSpec } from '../../../api/generated/core-v1';

export type {
  JobCondition,
  JobStatus,
  PodFailurePolicy,
  PodFailurePolicyRule,
  SuccessPolicy,
  UncountedTerminatedPods,
} from '../../../api/generated/batch-v1';
export type { ContainerStatus, Pod, PodTemplateSpec } from '../../../api/generated/core-v1';

/** A stored Job: validation requires its spec. */
export type Job = batch.Job & { spec: batch.JobSpec };

/** A pod made from a Job's template, before it is created: its spec is always there. */
export type TemplatePod = Pod & { spec: PodSpec };

/** batch.kubernetes.io/job-tracking: a finished pod is counted in the Job's status before it may go. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
