/**
 * Recreate (recreate.go): scale every old ReplicaSet to zero, wait until none of their pods is
 * still running, and only then create and scale up the new ReplicaSet.
 */
import type { Pod, ReplicaSet } from '../util/types/workload';
import type { Plan } from './plan';
import { syncRolloutStatus } from './progress';
import { actualReplicaCount, filterActive } from './replica-sets';
import { deploymentComplete } from './strategy';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision, scaleReplicaSetAndRecordEvent } from './sync';
import { deploymentReplicas, type Deployment } from './types';

/** The Deployment's pods grouped by the uid of the ReplicaSet that controls them. */
export type PodMap = ReadonlyMap<string, readonly Pod[]>;

export function rolloutRecreate(plan: Plan, d: Deployment, rsList: readonly ReplicaSet[], podMap: PodMap): void {
  // The new ReplicaSet is not created yet, so that nothing scales up before the old pods are gone.
  let [newRS, oldRSs] = getAllReplicaSetsAndSyncRevision(plan, d, rsList, false);
  let allRSs = [...oldRSs, newRS];

  if (scaleDownOldReplicaSetsForRecreate(plan, filterActive(oldRSs), d)) return syncRolloutStatus(plan, allRSs, newRS, d);
  if (oldPodsRunning(newRS, oldRSs, podMap)) return syncRolloutStatus(plan, allRSs, newRS, d);

  if (!newRS) {
    [newRS, oldRSs] = getAllReplicaSetsAndSyncRevision(plan, d, rsList, true);
    allRSs = [...oldRSs, newRS];
  }
  if (newRS) scaleReplicaSetAndRecordEvent(plan, newRS, deploymentReplicas(d), d);
  if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(plan, oldRSs, d);
  syncRolloutStatus(plan, allRSs, newRS, d);
}

function scaleDownOldReplicaSetsForRecreate(plan: Plan, oldRSs: readonly ReplicaSet[], d: Deployment): boolean {
  let scaled = false;
  for (const rs of oldRSs) {
    if (scaleReplicaSetAndRecordEvent(plan, rs, 0, d)[0]) scaled = true;
  }
  return scaled;
}

/** Old ReplicaSets still report pods, or a pod of one is in neither Succeeded nor Failed. */
export function oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[], podMap: PodMap): boolean {
  if (actualReplicaCount(oldRSs) > 0) return true;
  for (const [uid, pods] of podMap) {
    if (newRS && newRS.metadata.uid === uid) continue;
    // Unknown counts as running: the pod may well be running on an unreachable node.
    if (pods.some((p) => p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded')) return true;
  }
  return false;
}
