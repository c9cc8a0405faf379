/**
 * What one sync of a Job decides (job_controller.go syncJob and manageJob), as pure functions of
 * the Job, its pods, the failure backoff and the virtual clock's now. The control loop
 * (controller.ts) performs the decisions: the pod deletions and creations (slow start), then the
 * status tracking through uncountedTerminatedPods.
 */
import { remainingBackoffMs, type BackoffRecord } from './backoff';
import { MESSAGE_BACKOFF_LIMIT_EXCEEDED, MESSAGE_DEADLINE_EXCEEDED, REASON_BACKOFF_LIMIT_EXCEEDED, REASON_DEADLINE_EXCEEDED, findCondition, newCondition } from './conditions';
import { duplicatedIndexPods, firstPendingIndexes, isIndexedJob, total, withIndexes, type Interval } from './indexed';
import { MESSAGE_FAILED_INDEXES, MESSAGE_MAX_FAILED_INDEXES_EXCEEDED, REASON_FAILED_INDEXES, REASON_MAX_FAILED_INDEXES_EXCEEDED } from './per-index';
import { isReady, pastBackoffLimitOnFailure } from './pods';
import { failJobMessage, matchSuccessPolicy, REASON_POD_FAILURE_POLICY, REASON_SUCCESS_POLICY } from './policies';
import type { Job, JobCondition, Pod } from '../util/types/job';

/** syncJobBatchPeriod: pod changes are looked at together, a second later. */
export const SYNC_JOB_BATCH_PERIOD_MS = 1000;
/** MaxPodCreateDeletePerSync. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;

export interface FinishView {
  job: Job;
  pods: readonly Pod[];
  /** status.failed plus the failed pods not counted yet. */
  failed: number;
  /** Indexed Jobs: the succeeded indexes, counted and not. */
  succeededIndexes: readonly Interval[];
  /** Indexed Jobs with backoffLimitPerIndex: the failed indexes. */
  failedIndexes: readonly Interval[] | undefined;
  completions: number;
  now: number;
  nowTime: string;
}

export interface FinishDecision {
  /** The condition the Job reaches this sync (an interim FailureTarget or SuccessCriteriaMet, or Failed after an earlier FailureTarget). */
  finished?: JobCondition;
  /** activeDeadlineSeconds still running: look again when it runs out. */
  requeueAfterMs?: number;
}

/**
 * Whether the Job finishes before any pod is managed: a SuccessCriteriaMet or FailureTarget it
 * already has, a failed pod a FailJob rule matches, the backoff limit, activeDeadlineSeconds,
 * backoffLimitPerIndex's failed indexes, or (Indexed) a success policy rule.
 */
export function planFinish(view: FinishView): FinishDecision {
  const { job, pods, failed, succeededIndexes, failedIndexes, completions, now, nowTime } = view;
  const status = job.status ?? {};
  const suspended = job.spec.suspend === true;
  const out: FinishDecision = {};
  let finished: JobCondition | undefined = findCondition(job, 'SuccessCriteriaMet');
  if (!finished) {
    const target = findCondition(job, 'FailureTarget');
    if (target?.status === 'True') finished = newCondition('Failed', target.reason ?? '', target.message ?? '', nowTime);
    else {
      // A failed pod matching a FailJob rule: the interim FailureTarget records why first.
      const message = failJobMessage(job, pods);
      if (message) finished = newCondition('FailureTarget', REASON_POD_FAILURE_POLICY, message, nowTime);
    }
  }
  if (!finished) {
    const deadline = job.spec.activeDeadlineSeconds;
    const elapsed = status.startTime ? now - Date.parse(status.startTime) : 0;
    if (failed > (job.spec.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, pods)) {
      finished = newCondition('FailureTarget', REASON_BACKOFF_LIMIT_EXCEEDED, MESSAGE_BACKOFF_LIMIT_EXCEEDED, nowTime);
    } else if (deadline !== undefined && status.startTime && !suspended && elapsed >= deadline * 1000) {
      finished = newCondition('FailureTarget', REASON_DEADLINE_EXCEEDED, MESSAGE_DEADLINE_EXCEEDED, nowTime);
    } else if (deadline !== undefined && status.startTime && !suspended) {
      out.requeueAfterMs = deadline * 1000 - elapsed;
    }
  }
  if (!finished && failedIndexes) {
    const maxFailed = job.spec.maxFailedIndexes;
    if (typeof maxFailed === 'number' && total(failedIndexes) > maxFailed) {
      finished = newCondition('FailureTarget', REASON_MAX_FAILED_INDEXES_EXCEEDED, MESSAGE_MAX_FAILED_INDEXES_EXCEEDED, nowTime);
    } else if (total(failedIndexes) > 0 && total(failedIndexes) + total(succeededIndexes) >= completions) {
      finished = newCondition('FailureTarget', REASON_FAILED_INDEXES, MESSAGE_FAILED_INDEXES, nowTime);
    }
  }
  if (!finished && isIndexedJob(job)) {
    const matched = matchSuccessPolicy(job.spec.successPolicy, completions, succeededIndexes);
    if (matched) finished = newCondition('SuccessCriteriaMet', REASON_SUCCESS_POLICY, matched, nowTime);
  }
  if (finished) out.finished = finished;
  return out;
}

export interface ManageView {
  job: Job;
  activePods: readonly Pod[];
  /** Succeeded pods (NonIndexed) or succeeded indexes (Indexed), counted and not. */
  succeeded: number;
  backoff: BackoffRecord;
  now: number;
  succeededIndexes: readonly Interval[];
  failedIndexes: readonly Interval[] | undefined;
}

export type ManageDecision =
  | { kind: 'none' }
  /** Suspended, or more pods than wanted: these go, their tracking finalizer first. */
  | { kind: 'delete'; pods: Pod[] }
  /** Pods are missing but the failure backoff has not passed. */
  | { kind: 'wait'; requeueAfterMs: number }
  /** `count` new pods; for an Indexed Job, one for each of `indexes`. */
  | { kind: 'create'; count: number; indexes: number[] };

/**
 * manageJob: a suspended Job's pods go; otherwise min(parallelism, remaining completions) pods
 * are wanted (a Job without completions keeps its pods once one succeeded). Extra pods go (an
 * Indexed Job's repeated or invalid indexes first, then not ready and newest first); missing ones
 * are created once the backoff allows, at most 500 a sync, Indexed ones for the first pending
 * indexes.
 */
export function planManage(view: ManageView): ManageDecision {
  const { job, activePods, succeeded, backoff, now, succeededIndexes, failedIndexes } = view;
  const active = activePods.length;
  if (job.spec.suspend) return active === 0 ? { kind: 'none' } : { kind: 'delete', pods: [...activePods] };
  const parallelism = job.spec.parallelism ?? 1;
  const completions = job.spec.completions;
  let want: number;
  if (completions === undefined || completions === null) want = succeeded > 0 ? active : parallelism;
  else want = Math.max(0, Math.min(completions - succeeded - (failedIndexes ? total(failedIndexes) : 0), parallelism));
  const indexed = isIndexedJob(job);
  // activePodsForRemoval: for an Indexed Job first the pods of repeated or invalid indexes,
  // then (as for any Job) not yet ready and most recently created first.
  const forced = indexed ? duplicatedIndexPods(activePods, completions ?? 0, isReady) : [];
  if (active > want || forced.length > 0) {
    const rest = [...activePods]
      .filter((p) => !forced.includes(p))
      .sort((a, b) => Number(isReady(a)) - Number(isReady(b)) || (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''));
    const victims = [...forced, ...rest].slice(0, Math.min(Math.max(active - want, forced.length), MAX_POD_CREATE_DELETE_PER_SYNC));
    return victims.length === 0 ? { kind: 'none' } : { kind: 'delete', pods: victims };
  }
  let diff = want - active;
  if (diff <= 0) return { kind: 'none' };
  const wait = remainingBackoffMs(backoff, now);
  if (wait > 0) return { kind: 'wait', requeueAfterMs: Math.max(wait, SYNC_JOB_BATCH_PERIOD_MS) };
  diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
  const indexes = indexed ? firstPendingIndexes(activePods, failedIndexes ? withIntervals(succeededIndexes, failedIndexes) : succeededIndexes, diff, completions ?? 0) : [];
  if (indexed) diff = indexes.length;
  if (diff <= 0) return { kind: 'none' };
  return { kind: 'create', count: diff, indexes };
}

/** Both sets of intervals, merged. */
function withIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  let out = [...a];
  for (const iv of b) {
    const ixs: number[] = [];
    for (let i = iv.first; i <= iv.last; i++) ixs.push(i);
    out = withIndexes(out, ixs);
  }
  return out;
}
