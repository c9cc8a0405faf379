/**
 * The arithmetic of a rollout (deployment_util.go): how maxSurge and maxUnavailable resolve
 * against spec.replicas, how far the new ReplicaSet may grow, and when a rollout is complete,
 * progressing or past its deadline.
 */
import { getScaledValueFromIntOrPercent, type IntOrString } from '../../api/intstr';
import { ok, type Result } from '../../api/result';
import { getCondition } from './conditions';
import { deploymentReplicas, MAX_INT32, Reason, RECREATE, ROLLING_UPDATE, PROGRESSING, type Deployment, type DeploymentStatus } from './types';
import type { ReplicaSet } from '../util/types/workload';
import { specReplicas } from '../util/types/workload';
import { replicaCount } from './replica-sets';
import { timeMs } from '../../api/time';

export const isRollingUpdate = (d: Deployment): boolean => d.spec.strategy?.type === ROLLING_UPDATE;

/**
 * ResolveFenceposts: surge rounds up, unavailability rounds down; when both come to zero the
 * rollout may still lose one pod (surge might be blocked by quota).
 */
export function resolveFenceposts(maxSurge: IntOrString | undefined, maxUnavailable: IntOrString | undefined, desired: number): Result<[number, number]> {
  const surge = getScaledValueFromIntOrPercent(maxSurge ?? 0, desired, true);
  if (!surge.ok) return surge;
  const unavailable = getScaledValueFromIntOrPercent(maxUnavailable ?? 0, desired, false);
  if (!unavailable.ok) return unavailable;
  return ok(surge.value === 0 && unavailable.value === 0 ? [0, 1] : [surge.value, unavailable.value]);
}

function fenceposts(d: Deployment): [number, number] {
  const ru = d.spec.strategy?.rollingUpdate;
  const resolved = resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, deploymentReplicas(d));
  // Validation rejects malformed values, so upstream ignores this error and reads zeros.
  return resolved.ok ? resolved.value : [0, 0];
}

export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? fenceposts(d)[0] : 0;
}

export function maxUnavailable(d: Deployment): number {
  const replicas = deploymentReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  return Math.min(fenceposts(d)[1], replicas);
}

export function minAvailable(d: Deployment): number {
  return isRollingUpdate(d) ? deploymentReplicas(d) - maxUnavailable(d) : 0;
}

export class UnsupportedStrategyError extends Error {}

/** NewRSNewReplicas: the size the new ReplicaSet may have now. */
export function newRSNewReplicas(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number | UnsupportedStrategyError {
  const replicas = deploymentReplicas(d);
  switch (d.spec.strategy?.type) {
    case ROLLING_UPDATE: {
      const maxTotalPods = replicas + maxSurge(d);
      const current = replicaCount(allRSs);
      if (current >= maxTotalPods) return specReplicas(newRS);
      const scaleUp = Math.min(maxTotalPods - current, replicas - specReplicas(newRS));
      return specReplicas(newRS) + scaleUp;
    }
    case RECREATE:
      return replicas;
    default:
      return new UnsupportedStrategyError(`deployment type ${d.spec.strategy?.type ?? ''} isn't supported`);
  }
}

export function hasProgressDeadline(d: Deployment): boolean {
  const pds = d.spec.progressDeadlineSeconds;
  return pds !== undefined && pds !== MAX_INT32;
}

export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const limit = d.spec.revisionHistoryLimit;
  return limit !== undefined && limit !== MAX_INT32;
}

/** Every replica is updated and available, and the controller has seen the latest spec. */
export function deploymentComplete(d: Deployment, status: DeploymentStatus): boolean {
  const replicas = deploymentReplicas(d);
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** Progress: more updated, ready or available pods than last time, or fewer old ones. */
export function deploymentProgressing(d: Deployment, status: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  return (
    (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** Whether the last progress was more than progressDeadlineSeconds before now. */
export function deploymentTimedOut(d: Deployment, status: DeploymentStatus, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const condition = getCondition(status, PROGRESSING);
  if (!condition) return false;
  // A finished rollout is not judged again until a new one starts.
  if (condition.reason === Reason.NewReplicaSetAvailable) return false;
  if (condition.reason === Reason.TimedOut) return true;
  const deadline = timeMs(condition.lastUpdateTime) + (d.spec.progressDeadlineSeconds ?? 0) * 1000;
  return deadline < nowMs;
}
