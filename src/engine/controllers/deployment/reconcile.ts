/**
 * One sync of a Deployment (syncDeployment in deployment_controller.go), given the ReplicaSets
 * it owns after adoption and their pods: status only while it is being deleted, scaling only
 * while paused or resized, otherwise a rollback or a step of its strategy.
 */
import type { ReplicaSet } from '../util/types/workload';
import { Plan } from './plan';
import { rolloutRecreate, type PodMap } from './recreate';
import { rollback } from './rollback';
import { rolloutRolling } from './rolling';
import { checkPausedConditions, getAllReplicaSetsAndSyncRevision, isScalingEvent, rollbackRevision, sync, syncDeploymentStatus, SyncError } from './sync';
import { RECREATE, ROLLING_UPDATE, type Deployment } from './types';

export interface SyncInput {
  /** The cached Deployment; the planner works on a copy. */
  deployment: Deployment;
  /** The ReplicaSets the Deployment controls (claimed). */
  replicaSets: readonly ReplicaSet[];
  pods: PodMap;
  nowMs: number;
}

export function planSync(input: SyncInput): Plan {
  const plan = new Plan(input.nowMs);
  const d = structuredClone(input.deployment);
  const rsList = input.replicaSets;

  const selector = d.spec.selector;
  if (selector && Object.keys(selector).every((k) => selector[k as keyof typeof selector] == null)) {
    plan.event('Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
    if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
      (d.status ??= {}).observedGeneration = d.metadata.generation;
      plan.updateDeploymentStatus(d);
    }
    return plan;
  }

  if (d.metadata.deletionTimestamp) {
    const [newRS, oldRSs] = getAllReplicaSetsAndSyncRevision(plan, d, rsList, false);
    syncDeploymentStatus(plan, [...oldRSs, newRS], newRS, d);
    return plan;
  }

  checkPausedConditions(plan, d);
  if (d.spec.paused) {
    sync(plan, d, rsList);
    return plan;
  }
  // Until the rollback annotation is cleared, nothing else may touch the ReplicaSets' revisions.
  if (rollbackRevision(d) !== undefined) {
    rollback(plan, d, rsList);
    return plan;
  }
  if (isScalingEvent(plan, d, rsList)) {
    sync(plan, d, rsList);
    return plan;
  }
  switch (d.spec.strategy?.type) {
    case RECREATE:
      rolloutRecreate(plan, d, rsList, input.pods);
      return plan;
    case ROLLING_UPDATE:
      rolloutRolling(plan, d, rsList);
      return plan;
    default:
      throw new SyncError(`unexpected deployment strategy type: ${d.spec.strategy?.type ?? ''}`);
  }
}
