/**
 * How long to wait for content that is still going away: pods get up to the longest
 * terminationGracePeriodSeconds of those still running, counted from the namespace's deletion;
 * content held only by finalizers gets 15 s for the garbage collector.
 */
import type { KubeObject } from '../../api/types';

export const FINALIZER_ESTIMATE_SECONDS = 15;

export function podsGracePeriodEstimate(pods: readonly KubeObject[]): number {
  let estimate = 0;
  for (const pod of pods) {
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const grace = (pod.spec as { terminationGracePeriodSeconds?: number } | undefined)?.terminationGracePeriodSeconds;
    if (typeof grace === 'number' && grace > estimate) estimate = grace;
  }
  return estimate;
}

/** The estimate still left once the time since the namespace's deletion is counted (0 when it has run out). */
export function remainingEstimate(estimateSeconds: number, deletedAtMs: number, nowMs: number): number {
  return nowMs - deletedAtMs >= estimateSeconds * 1000 ? 0 : estimateSeconds;
}

/** The namespace controller waits half the estimate (plus a second) before looking again. */
export function requeueDelayMs(estimateSeconds: number): number {
  return (Math.floor(estimateSeconds / 2) + 1) * 1000;
}
