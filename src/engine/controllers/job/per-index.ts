/**
 * backoffLimitPerIndex of Indexed Jobs (pkg/controller/job indexed_job_utils.go): each pod of an
 * index carries how many of the index's pods failed before it (annotation
 * batch.kubernetes.io/job-index-failure-count, and -ignored-failure-count for failures an Ignore
 * rule matched); an index fails when a failed pod's count reaches the limit, or at once when a
 * FailIndex rule matches its pod. Failed indexes are kept in status.failedIndexes ("1,3-5") and
 * get no more pods; the Job fails when more than maxFailedIndexes failed (MaxFailedIndexesExceeded)
 * or when every index succeeded or failed with some failed (FailedIndexes).
 */
import { own } from '../../api/own';
import { completionIndex, parseIntervals, withIndexes, type Interval } from './indexed';
import { finishedTime, hasTrackingFinalizer, isPodFailed } from './pods';
import { matchPodFailurePolicy } from './policies';
import type { Job, Pod } from '../util/types/job';

export const INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';

export const REASON_MAX_FAILED_INDEXES_EXCEEDED = 'MaxFailedIndexesExceeded';
export const MESSAGE_MAX_FAILED_INDEXES_EXCEEDED = 'Job has exceeded the specified maximal number of failed indexes';
export const REASON_FAILED_INDEXES = 'FailedIndexes';
export const MESSAGE_FAILED_INDEXES = 'Job has failed indexes';

export const hasBackoffLimitPerIndex = (job: Job): boolean => typeof job.spec.backoffLimitPerIndex === 'number';

/** parseInt32: a count annotation, 0 when missing, unparsable or out of range. */
function count(pod: Pod, key: string): number {
  const v = own(pod.metadata.annotations, key);
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n < 0 || n > 2147483647 ? 0 : n;
}

export const indexFailureCount = (pod: Pod): number => count(pod, INDEX_FAILURE_COUNT_ANNOTATION);
const absoluteFailureCount = (pod: Pod): number => count(pod, INDEX_FAILURE_COUNT_ANNOTATION) + count(pod, INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);

/** isIndexFailed: the pod's failure ends its index (a FailIndex rule, or the limit reached). */
export function isIndexFailed(job: Job, pod: Pod): boolean {
  if (!isPodFailed(pod, job)) return false;
  let counted = true;
  if (job.spec.podFailurePolicy) {
    const m = matchPodFailurePolicy(job.spec.podFailurePolicy, pod);
    if (m.action === 'FailIndex') return true;
    counted = m.count;
  }
  return counted && indexFailureCount(pod) >= (job.spec.backoffLimitPerIndex ?? 0);
}

/** calculateFailedIndexes: status.failedIndexes with the indexes failed since the last sync. */
export function failedIndexesOf(job: Job, pods: readonly Pod[], completions: number): Interval[] {
  const prev = parseIntervals(job.status?.failedIndexes, completions);
  const fresh = new Set<number>();
  for (const p of pods) {
    const ix = completionIndex(p);
    if (ix >= 0 && ix < completions && hasTrackingFinalizer(p) && isIndexFailed(job, p)) fresh.add(ix);
  }
  return withIndexes(prev, [...fresh].sort((a, b) => a - b));
}

/**
 * The failed pod a new pod of index `ix` replaces (the latest by its counts and finish time),
 * as getPodsWithDelayedDeletionPerIndex picks it. kubesim keeps failed pods, so no deletion has
 * to wait for the replacement.
 */
export function podBeingReplaced(job: Job, pods: readonly Pod[], ix: number, now: number): Pod | undefined {
  let last: Pod | undefined;
  for (const p of pods) {
    if (completionIndex(p) !== ix || !isPodFailed(p, job)) continue;
    if (!last || (absoluteFailureCount(last) <= absoluteFailureCount(p) && finishedTime(p, now) >= finishedTime(last, now))) last = p;
  }
  return last;
}

/** addIndexFailureCountAnnotation: the counts a replacement pod starts with. */
export function withIndexFailureCounts(pod: Pod, job: Job, replaced: Pod | undefined): Pod {
  let failures = 0;
  let ignored = 0;
  if (replaced) {
    failures = indexFailureCount(replaced);
    ignored = count(replaced, INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);
    if (!job.spec.podFailurePolicy || matchPodFailurePolicy(job.spec.podFailurePolicy, replaced).count) failures++;
    else ignored++;
  }
  const annotations: Record<string, string> = { ...(pod.metadata.annotations ?? {}), [INDEX_FAILURE_COUNT_ANNOTATION]: String(failures) };
  if (ignored > 0) annotations[INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = String(ignored);
  pod.metadata.annotations = annotations;
  return pod;
}
