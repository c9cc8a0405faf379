/**
 * Rollout progress (progress.go): the Progressing condition (NewReplicaSetAvailable,
 * ReplicaSetUpdated, ProgressDeadlineExceeded), ReplicaFailure carried over from the
 * ReplicaSets, and a timed look back when nothing else will wake the Deployment before its
 * deadline passes.
 */
import { goQuote } from '../../api/gofmt';
import type { ReplicaSet } from '../util/types/workload';
import { getCondition, newCondition, removeCondition, replicaSetToDeploymentCondition, setCondition } from './conditions';
import type { Plan } from './plan';
import { calculateStatus, statusEqual } from './sync';
import { deploymentComplete, deploymentProgressing, deploymentTimedOut, hasProgressDeadline } from './strategy';
import { timeMs } from '../../api/time';
import { PROGRESSING, REPLICA_FAILURE, Reason, type Deployment, type DeploymentCondition, type DeploymentStatus } from './types';

export function syncRolloutStatus(plan: Plan, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, d: Deployment): void {
  const status = calculateStatus(allRSs, newRS, d, plan.now());
  if (!hasProgressDeadline(d)) removeCondition(status, PROGRESSING);

  const current = getCondition(d.status, PROGRESSING);
  // A finished rollout seen again on a resync: nothing to estimate.
  const isComplete = (status.replicas ?? 0) === (status.updatedReplicas ?? 0) && current?.reason === Reason.NewReplicaSetAvailable;
  if (hasProgressDeadline(d) && !isComplete) {
    const subject = newRS ? `ReplicaSet ${goQuote(newRS.metadata.name ?? '')}` : `Deployment ${goQuote(d.metadata.name ?? '')}`;
    if (deploymentComplete(d, status)) {
      setCondition(status, newCondition(PROGRESSING, 'True', Reason.NewReplicaSetAvailable, `${subject} has successfully progressed.`, plan.now()));
    } else if (deploymentProgressing(d, status)) {
      // Progress refreshes lastUpdateTime even though the reason stays the same.
      const condition = newCondition(PROGRESSING, 'True', Reason.ReplicaSetUpdated, `${subject} is progressing.`, plan.now());
      if (current) {
        if (current.status === 'True') condition.lastTransitionTime = current.lastTransitionTime;
        removeCondition(status, PROGRESSING);
      }
      setCondition(status, condition);
    } else if (deploymentTimedOut(d, status, plan.nowMs)) {
      setCondition(status, newCondition(PROGRESSING, 'False', Reason.TimedOut, `${subject} has timed out progressing.`, plan.now()));
    }
  }

  const failure = replicaFailures(allRSs, newRS)[0];
  if (failure) setCondition(status, failure);
  else removeCondition(status, REPLICA_FAILURE);

  if (statusEqual(d.status, status)) {
    requeueStuckDeployment(plan, d, status);
    return;
  }
  d.status = status;
  plan.updateDeploymentStatus(d);
}

/** ReplicaFailure conditions of the new ReplicaSet, or else of any. */
function replicaFailures(allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): DeploymentCondition[] {
  const failures = (rss: readonly (ReplicaSet | undefined)[]) =>
    rss.flatMap((rs) => (rs?.status?.conditions ?? []).filter((c) => c.type === REPLICA_FAILURE).map(replicaSetToDeploymentCondition));
  const own = failures([newRS]);
  return own.length > 0 ? own : failures(allRSs);
}

/**
 * A rollout that shows no progress is looked at again when its deadline passes (plus a second
 * against timer skew), or at once with backoff when that is less than a second away. Returns the
 * delay in ms (-1: no check needed).
 */
export function requeueStuckDeployment(plan: Plan, d: Deployment, status: DeploymentStatus): number {
  const current = getCondition(d.status, PROGRESSING);
  if (!hasProgressDeadline(d) || !current) return -1;
  if (deploymentComplete(d, status) || current.reason === Reason.TimedOut) return -1;
  const after = timeMs(current.lastUpdateTime) + (d.spec.progressDeadlineSeconds ?? 0) * 1000 - plan.nowMs;
  if (after < 1000) {
    plan.requeue = 'rateLimited';
    return 0;
  }
  plan.requeue = { after: after + 1000 };
  return after;
}
