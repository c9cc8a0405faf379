/**
 * Job conditions and their texts (batch/v1 and pkg/controller/job). A Job that reaches its goal
 * first gets SuccessCriteriaMet, and Complete once its pods are accounted for and gone; one that
 * fails first gets FailureTarget, then Failed, each with the same reason and message.
 */
import type { Job, JobCondition } from '../util/types/job';

export const REASON_COMPLETIONS_REACHED = 'CompletionsReached';
export const MESSAGE_COMPLETIONS_REACHED = 'Reached expected number of succeeded pods';
export const REASON_BACKOFF_LIMIT_EXCEEDED = 'BackoffLimitExceeded';
export const MESSAGE_BACKOFF_LIMIT_EXCEEDED = 'Job has reached the specified backoff limit';
export const REASON_DEADLINE_EXCEEDED = 'DeadlineExceeded';
export const MESSAGE_DEADLINE_EXCEEDED = 'Job was active longer than specified deadline';

export function newCondition(type: string, reason: string, message: string, now: string): JobCondition {
  const c: JobCondition = { type, status: 'True', lastProbeTime: now, lastTransitionTime: now };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

export function findCondition(job: Job, type: string): JobCondition | undefined {
  return job.status?.conditions?.find((c) => c.type === type);
}

/** Complete or Failed with status True: the controller is done with the Job. */
export function isJobFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/**
 * ensureJobConditionStatus: sets the condition's status, reason and message (a status change moves
 * both timestamps, other changes only lastProbeTime); a False condition that is absent is not added.
 */
export function ensureCondition(conditions: readonly JobCondition[], type: string, status: string, reason: string, message: string, now: string): [JobCondition[], boolean] {
  const i = conditions.findIndex((c) => c.type === type);
  if (i < 0) {
    if (status === 'False') return [[...conditions], false];
    const c = newCondition(type, reason, message, now);
    c.status = status;
    return [[...conditions, c], true];
  }
  const old = conditions[i]!;
  if (old.status === status && (old.reason ?? '') === reason && (old.message ?? '') === message) return [[...conditions], false];
  const next: JobCondition = { ...old, status, lastProbeTime: now };
  if (old.status !== status) next.lastTransitionTime = now;
  if (reason) next.reason = reason;
  else delete next.reason;
  if (message) next.message = message;
  else delete next.message;
  return [conditions.map((c, j) => (j === i ? next : c)), true];
}
