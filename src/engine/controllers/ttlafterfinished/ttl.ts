/**
 * When a finished Job's time to live runs out (ttlafterfinished_controller.go): a Job with
 * ttlSecondsAfterFinished that has a Complete or Failed condition expires that many seconds after
 * the condition's lastTransitionTime.
 */
import { timeMs } from '../../api/time';
import type { Job, JobCondition } from '../../api/generated/batch-v1';

export type { Job };

const finishedCondition = (job: Job): JobCondition | undefined =>
  job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');

/** needsCleanup: finished, with a TTL. */
export function needsCleanup(job: Job): boolean {
  return typeof job.spec?.ttlSecondsAfterFinished === 'number' && finishedCondition(job) !== undefined;
}

/**
 * processTTL: undefined when the Job is not to be cleaned up (being deleted, not finished, no
 * TTL), else how long until it expires (0 or less: expired), or an error when its finish time is unknown.
 */
export function ttlLeftMs(job: Job, nowMs: number): number | undefined | Error {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  const cond = finishedCondition(job);
  if (job.metadata.deletionTimestamp || typeof ttl !== 'number' || !cond) return undefined;
  if (!cond.lastTransitionTime) return new Error(`unable to find the time when the Job ${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''} finished`);
  return timeMs(cond.lastTransitionTime) + ttl * 1000 - nowMs;
}
