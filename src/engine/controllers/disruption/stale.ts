/**
 * Stale DisruptionTarget conditions: a pod marked as about to be disrupted (by an eviction, a
 * preemption, the taint manager) that is still not being deleted two minutes later was spared,
 * so the controller turns the condition to False. Conditions the kubelet set, and those of pods
 * that already finished, are left alone.
 */
import { timeMs } from '../../api/time';
import { DISRUPTION_TARGET, type Pod, type PodCondition } from './types';

/** stalePodDisruptionTimeout. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60_000;

const TERMINATION_BY_KUBELET = 'TerminationByKubelet';

/** nonTerminatingPodHasStaleDisruptionCondition: how long until the condition is stale (0: now), or undefined without one. */
export function staleDisruptionWaitMs(pod: Pod, nowMs: number): number | undefined {
  if (pod.metadata.deletionTimestamp) return undefined;
  const cond = pod.status?.conditions?.find((c) => c.type === DISRUPTION_TARGET);
  const phase = pod.status?.phase;
  if (!cond || cond.status !== 'True' || cond.reason === TERMINATION_BY_KUBELET || phase === 'Succeeded' || phase === 'Failed') return undefined;
  return Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - (nowMs - timeMs(cond.lastTransitionTime)));
}

/**
 * UpdatePodCondition with DisruptionTarget False (no reason or message): the pod's conditions
 * afterwards, or undefined when nothing changes.
 */
export function clearedDisruptionTarget(pod: Pod, now: string): PodCondition[] | undefined {
  const conditions = pod.status?.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === DISRUPTION_TARGET);
  const cleared: PodCondition = { type: DISRUPTION_TARGET, status: 'False', lastProbeTime: null, lastTransitionTime: now };
  if (i < 0) return [...conditions, cleared];
  const old = conditions[i]!;
  if (old.status === 'False') cleared.lastTransitionTime = old.lastTransitionTime ?? null;
  const unchanged = old.status === 'False' && !old.reason && !old.message && !old.lastProbeTime && old.lastTransitionTime === cleared.lastTransitionTime;
  if (unchanged) return undefined;
  return conditions.map((c, j) => (j === i ? cleared : c));
}
