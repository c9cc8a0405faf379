/**
 * apimeta.SetStatusCondition over metav1.Conditions, and the DisruptionAllowed condition the
 * budget's status carries (component-helpers' UpdateDisruptionAllowedCondition and
 * ConditionsAreUpToDate): True with SufficientPods while disruptions are allowed, else False
 * with InsufficientPods; False with SyncFailed and the error when the status could not be computed.
 */
import { DISRUPTION_ALLOWED, type Condition, type PodDisruptionBudget, type PodDisruptionBudgetStatus } from './types';

export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';

export interface ConditionChange {
  type: string;
  status: string;
  reason: string;
  message: string;
  observedGeneration?: number;
}

/** The conditions with `change` set: lastTransitionTime moves only when the status does. */
export function setStatusCondition(conditions: readonly Condition[] | undefined, change: ConditionChange, now: string): Condition[] {
  const out = [...(conditions ?? [])];
  const i = out.findIndex((c) => c.type === change.type);
  const existing = i < 0 ? undefined : out[i]!;
  const lastTransitionTime = existing && existing.status === change.status ? existing.lastTransitionTime : now;
  const { type, status, reason, message, observedGeneration } = change;
  const condition: Condition = observedGeneration
    ? { type, status, observedGeneration, lastTransitionTime, reason, message }
    : { type, status, lastTransitionTime, reason, message };
  if (existing) out[i] = condition;
  else out.push(condition);
  return out;
}

/** UpdateDisruptionAllowedCondition: the condition that goes with the status's disruptionsAllowed. */
export function disruptionAllowedCondition(status: PodDisruptionBudgetStatus, now: string): Condition[] {
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  return setStatusCondition(
    status.conditions,
    {
      type: DISRUPTION_ALLOWED,
      status: allowed ? 'True' : 'False',
      reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS,
      message: '',
      observedGeneration: status.observedGeneration,
    },
    now,
  );
}

/** ConditionsAreUpToDate. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const status: Partial<PodDisruptionBudgetStatus> = pdb.status ?? {};
  const cond = status.conditions?.find((c) => c.type === DISRUPTION_ALLOWED);
  if (!cond) return false;
  if ((status.observedGeneration ?? 0) !== (pdb.metadata.generation ?? 0)) return false;
  if ((status.disruptionsAllowed ?? 0) > 0) return cond.status === 'True' && cond.reason === SUFFICIENT_PODS;
  return cond.status === 'False' && cond.reason === INSUFFICIENT_PODS;
}
