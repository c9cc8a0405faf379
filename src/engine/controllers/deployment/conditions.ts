/** Deployment conditions: upstream's Set/Get/Remove semantics (a same-status set keeps lastTransitionTime). */
import type { ConditionStatus, ReplicaSetCondition } from '../util/types/workload';
import type { DeploymentCondition, DeploymentStatus } from './types';

export function newCondition(type: string, status: ConditionStatus, reason: string, message: string, now: string): DeploymentCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

export function getCondition(status: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/** Adds or replaces the condition of its type, unless one with the same status and reason is there. */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...withoutCondition(status.conditions, condition.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  const rest = withoutCondition(status.conditions, type);
  if (rest.length > 0) status.conditions = rest;
  else delete status.conditions;
}

function withoutCondition(conditions: DeploymentCondition[] | undefined, type: string): DeploymentCondition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** A ReplicaSet's failure surfaces on its Deployment with the same reason, message and time. */
export function replicaSetToDeploymentCondition(c: ReplicaSetCondition): DeploymentCondition {
  return {
    type: c.type,
    status: c.status,
    lastUpdateTime: c.lastTransitionTime,
    lastTransitionTime: c.lastTransitionTime,
    reason: c.reason,
    message: c.message,
  };
}
