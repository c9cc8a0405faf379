/** Pod state as the workload controllers judge it (k8s.io/kubernetes/pkg/api/v1/pod, controller_utils.go). */
import { timeMs } from '../../api/time';
import type { Pod, PodCondition } from './types/workload';

export function podReadyCondition(pod: Pod): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

export const isPodReady = (pod: Pod): boolean => podReadyCondition(pod)?.status === 'True';

/** Ready for at least minReadySeconds (strictly past the ready transition plus minReadySeconds). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = podReadyCondition(pod)?.lastTransitionTime;
  return !!since && timeMs(since) + minReadySeconds * 1000 < nowMs;
}

/** Not finished (Succeeded or Failed) and not being deleted. */
export const isPodActive = (pod: Pod): boolean =>
  pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata.deletionTimestamp;

/** Being deleted but not yet finished: what status.terminatingReplicas counts. */
export const isPodTerminating = (pod: Pod): boolean =>
  !!pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
