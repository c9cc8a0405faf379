/**
 * The pod failure backoff (backoff_utils.go): after failures with no success since, new pods
 * wait 10 s, doubling per further failure up to 10 minutes, counted from the last failure.
 */
import { finishedTime } from './pods';
import type { Pod } from '../util/types/job';

export const DEFAULT_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
}

export function nextBackoffRecord(prev: BackoffRecord, newSucceeded: readonly Pod[], newFailed: readonly Pod[], now: number): BackoffRecord {
  const failedTimes = newFailed.map((p) => finishedTime(p, now)).sort((a, b) => a - b);
  if (newSucceeded.length === 0) {
    if (failedTimes.length === 0) return prev;
    return { failuresAfterLastSuccess: prev.failuresAfterLastSuccess + failedTimes.length, lastFailureTime: failedTimes[failedTimes.length - 1] };
  }
  const lastSuccess = Math.max(...newSucceeded.map((p) => finishedTime(p, now)));
  const after = failedTimes.filter((t) => t > lastSuccess);
  return after.length === 0 ? { failuresAfterLastSuccess: 0 } : { failuresAfterLastSuccess: after.length, lastFailureTime: after[after.length - 1] };
}

/** How long new pods must still wait (ms). */
export function remainingBackoffMs(record: BackoffRecord, now: number): number {
  if (record.failuresAfterLastSuccess === 0 || record.lastFailureTime === undefined) return 0;
  let backoff = DEFAULT_POD_FAILURE_BACKOFF_MS;
  for (let i = 1; i < record.failuresAfterLastSuccess; i++) {
    backoff *= 2;
    if (backoff >= MAX_POD_FAILURE_BACKOFF_MS) {
      backoff = MAX_POD_FAILURE_BACKOFF_MS;
      break;
    }
  }
  const elapsed = now - record.lastFailureTime;
  return backoff < elapsed ? 0 : backoff - elapsed;
}
