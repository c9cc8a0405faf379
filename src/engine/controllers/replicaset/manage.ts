/**
 * manageReplicas' decision: how many pods to create, or which to delete, so that the active
 * pods match spec.replicas, at most burstReplicas per sync.
 */
import { getPodsToDelete } from './pod-ranking';
import { specReplicas, type Pod, type ReplicaSet } from '../util/types/workload';

/** BurstReplicas: the most pods one sync creates or deletes. */
export const BURST_REPLICAS = 500;

export type ReplicaChange = { kind: 'none' } | { kind: 'create'; count: number } | { kind: 'delete'; pods: Pod[] };

export function planReplicas(rs: ReplicaSet, activePods: readonly Pod[], relatedPods: readonly Pod[], nowMs: number, burst = BURST_REPLICAS): ReplicaChange {
  const diff = activePods.length - specReplicas(rs);
  if (diff < 0) return { kind: 'create', count: Math.min(-diff, burst) };
  if (diff > 0) return { kind: 'delete', pods: getPodsToDelete(activePods, relatedPods, Math.min(diff, burst), nowMs) };
  return { kind: 'none' };
}
