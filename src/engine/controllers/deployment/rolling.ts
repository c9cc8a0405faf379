/**
 * RollingUpdate (rolling.go): grow the new ReplicaSet as far as maxSurge allows, then shrink the
 * old ones as far as maxUnavailable allows, unhealthy old pods first. One step per sync; the
 * ReplicaSet and pod events that follow bring the next sync.
 */
import { specReplicas, type ReplicaSet } from '../util/types/workload';
import type { Plan } from './plan';
import { syncRolloutStatus } from './progress';
import { availableReplicaCount, byCreationTimestamp, filterActive, replicaCount } from './replica-sets';
import { deploymentComplete, maxUnavailable, newRSNewReplicas, UnsupportedStrategyError } from './strategy';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision, scaleReplicaSetAndRecordEvent, SyncError } from './sync';
import { deploymentReplicas, type Deployment } from './types';

export function rolloutRolling(plan: Plan, d: Deployment, rsList: readonly ReplicaSet[]): void {
  const [newRS, oldRSs] = getAllReplicaSetsAndSyncRevision(plan, d, rsList, true);
  const allRSs = [...oldRSs, newRS];
  if (newRS && reconcileNewReplicaSet(plan, allRSs, newRS, d)) return syncRolloutStatus(plan, allRSs, newRS, d);
  if (newRS && reconcileOldReplicaSets(plan, allRSs, filterActive(oldRSs), newRS, d)) return syncRolloutStatus(plan, allRSs, newRS, d);
  if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(plan, oldRSs, d);
  syncRolloutStatus(plan, allRSs, newRS, d);
}

/** Scales the new ReplicaSet up within maxSurge (or down to spec.replicas); true if it scaled. */
export function reconcileNewReplicaSet(plan: Plan, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet, d: Deployment): boolean {
  const replicas = deploymentReplicas(d);
  if (specReplicas(newRS) === replicas) return false;
  if (specReplicas(newRS) > replicas) return scaleReplicaSetAndRecordEvent(plan, newRS, replicas, d)[0];
  const count = newRSNewReplicas(d, allRSs.filter((rs): rs is ReplicaSet => rs !== undefined), newRS);
  if (count instanceof UnsupportedStrategyError) throw new SyncError(count.message);
  return scaleReplicaSetAndRecordEvent(plan, newRS, count, d)[0];
}

/**
 * Scales old ReplicaSets down as far as availability allows. Pods of the new ReplicaSet that are
 * not yet available count against maxUnavailable, so a broken new template cannot take the old
 * pods down with it.
 */
export function reconcileOldReplicaSets(plan: Plan, allRSs: readonly (ReplicaSet | undefined)[], oldRSs: ReplicaSet[], newRS: ReplicaSet, d: Deployment): boolean {
  if (replicaCount(oldRSs) === 0) return false;
  const minAvailable = deploymentReplicas(d) - maxUnavailable(d);
  const newRSUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = replicaCount(allRSs) - minAvailable - newRSUnavailable;
  if (maxScaledDown <= 0) return false;

  const [cleaned, cleanupCount] = cleanupUnhealthyReplicas(plan, oldRSs, d, maxScaledDown);
  const scaledDown = scaleDownOldReplicaSetsForRollingUpdate(plan, [...cleaned, newRS], cleaned, d);
  return cleanupCount + scaledDown > 0;
}

/** Removes old replicas that are not available, oldest ReplicaSet first, up to maxCleanupCount. */
export function cleanupUnhealthyReplicas(plan: Plan, oldRSs: ReplicaSet[], d: Deployment, maxCleanupCount: number): [ReplicaSet[], number] {
  const sorted = [...oldRSs].sort(byCreationTimestamp);
  let total = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (total >= maxCleanupCount) break;
    const rs = sorted[i]!;
    const unhealthy = specReplicas(rs) - (rs.status?.availableReplicas ?? 0);
    if (specReplicas(rs) === 0 || unhealthy === 0) continue;
    const count = Math.min(maxCleanupCount - total, unhealthy);
    const newCount = specReplicas(rs) - count;
    if (newCount > specReplicas(rs)) throw new SyncError(`when cleaning up unhealthy replicas, got invalid request to scale down ${rs.metadata.namespace ?? ''}/${rs.metadata.name ?? ''} ${specReplicas(rs)} -> ${newCount}`);
    sorted[i] = scaleReplicaSetAndRecordEvent(plan, rs, newCount, d)[1];
    total += count;
  }
  return [sorted, total];
}

/** Scales old ReplicaSets down, oldest first, while more than minAvailable pods are available. */
export function scaleDownOldReplicaSetsForRollingUpdate(plan: Plan, allRSs: readonly (ReplicaSet | undefined)[], oldRSs: readonly ReplicaSet[], d: Deployment): number {
  const minAvailable = deploymentReplicas(d) - maxUnavailable(d);
  const available = availableReplicaCount(allRSs);
  if (available <= minAvailable) return 0;
  const toScaleDown = available - minAvailable;
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreationTimestamp)) {
    if (total >= toScaleDown) break;
    if (specReplicas(rs) === 0) continue;
    const count = Math.min(specReplicas(rs), toScaleDown - total);
    scaleReplicaSetAndRecordEvent(plan, rs, specReplicas(rs) - count, d);
    total += count;
  }
  return total;
}
