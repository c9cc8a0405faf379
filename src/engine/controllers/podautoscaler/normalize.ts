/**
 * From the metrics' proposal to the replica count the controller sets (horizontal.go's
 * normalization): the stabilization window over recent recommendations, then the limits, either
 * the historical ones (no behavior: at most max(2x, 4) up, min/max replicas, a 5-minute
 * downscale window) or the behavior's scaling policies over the scale events of their periods.
 * Each step says which condition it leaves: AbleToScale's ScaleUpStabilized, ScaleDownStabilized
 * or ReadyForNewScale, ScalingLimited's TooFewReplicas, TooManyReplicas, ScaleUpLimit,
 * ScaleDownLimit or DesiredWithinRange.
 */
import type { HPAScalingRules } from './types';

export interface Recommendation {
  recommendation: number;
  timestamp: number;
}

export interface ScaleEvent {
  /** The absolute change. */
  replicaChange: number;
  timestamp: number;
  outdated: boolean;
}

/** What the controller remembers of an autoscaler between syncs (in memory, as upstream). */
export interface AutoscalerHistory {
  recommendations: Recommendation[];
  scaleUpEvents: ScaleEvent[];
  scaleDownEvents: ScaleEvent[];
}

export const emptyHistory = (): AutoscalerHistory => ({ recommendations: [], scaleUpEvents: [], scaleDownEvents: [] });

export const cloneHistory = (h: AutoscalerHistory): AutoscalerHistory => ({
  recommendations: h.recommendations.map((r) => ({ ...r })),
  scaleUpEvents: h.scaleUpEvents.map((e) => ({ ...e })),
  scaleDownEvents: h.scaleDownEvents.map((e) => ({ ...e })),
});

export interface Limited {
  replicas: number;
  reason: string;
  message: string;
}

const SCALE_UP_LIMIT_FACTOR = 2;
const SCALE_UP_LIMIT_MINIMUM = 4;

export const WITHIN_RANGE = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
const TOO_FEW = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
const TOO_MANY = { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
const UP_LIMIT = { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
const DOWN_LIMIT = { reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' };

export const SCALE_DOWN_STABILIZED = { reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
export const SCALE_UP_STABILIZED = { reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' };
export const READY_FOR_NEW_SCALE = { reason: 'ReadyForNewScale', message: 'recommended size matches current size' };

/** recordInitialRecommendation: the first sync remembers the current count. */
export function recordInitialRecommendation(h: AutoscalerHistory, currentReplicas: number, now: number): void {
  if (h.recommendations.length === 0) h.recommendations = [{ recommendation: currentReplicas, timestamp: now }];
}

/** stabilizeRecommendation (no behavior): the highest recommendation of the window; the oldest sample slot is reused. */
export function stabilizeRecommendation(h: AutoscalerHistory, proposal: number, windowMs: number, now: number): number {
  let max = proposal;
  let oldIndex = -1;
  const cutoff = now - windowMs;
  h.recommendations.forEach((rec, i) => {
    if (rec.timestamp < cutoff) oldIndex = i;
    else if (rec.recommendation > max) max = rec.recommendation;
  });
  const sample = { recommendation: proposal, timestamp: now };
  if (oldIndex >= 0) h.recommendations[oldIndex] = sample;
  else h.recommendations.push(sample);
  return max;
}

/** convertDesiredReplicasWithRules: min/max replicas and the historical scale-up limit. */
export function convertDesiredReplicasWithRules(currentReplicas: number, desired: number, minReplicas: number, maxReplicas: number): Limited {
  const scaleUpLimit = Math.trunc(Math.max(SCALE_UP_LIMIT_FACTOR * currentReplicas, SCALE_UP_LIMIT_MINIMUM));
  const [maximum, limit] = maxReplicas > scaleUpLimit ? [scaleUpLimit, UP_LIMIT] : [maxReplicas, TOO_MANY];
  if (desired < minReplicas) return { replicas: minReplicas, ...TOO_FEW };
  if (desired > maximum) return { replicas: maximum, ...limit };
  return { replicas: desired, ...WITHIN_RANGE };
}

export interface BehaviorArgs {
  scaleUp: HPAScalingRules;
  scaleDown: HPAScalingRules;
  minReplicas: number;
  maxReplicas: number;
  currentReplicas: number;
  desiredReplicas: number;
}

/** stabilizeRecommendationWithBehaviors: within the lowest of the scale-up window and the highest of the scale-down window. */
export function stabilizeWithBehaviors(h: AutoscalerHistory, args: BehaviorArgs, now: number): Limited {
  let up = args.desiredReplicas;
  let down = args.desiredReplicas;
  const upCutoff = now - (args.scaleUp.stabilizationWindowSeconds ?? 0) * 1000;
  const downCutoff = now - (args.scaleDown.stabilizationWindowSeconds ?? 0) * 1000;
  let oldIndex = -1;
  h.recommendations.forEach((rec, i) => {
    if (rec.timestamp > upCutoff) up = Math.min(rec.recommendation, up);
    if (rec.timestamp > downCutoff) down = Math.max(rec.recommendation, down);
    if (rec.timestamp < upCutoff && rec.timestamp < downCutoff) oldIndex = i;
  });
  let recommendation = args.currentReplicas;
  if (recommendation < up) recommendation = up;
  if (recommendation > down) recommendation = down;
  const sample = { recommendation: args.desiredReplicas, timestamp: now };
  if (oldIndex >= 0) h.recommendations[oldIndex] = sample;
  else h.recommendations.push(sample);
  const text = args.desiredReplicas >= args.currentReplicas ? SCALE_UP_STABILIZED : SCALE_DOWN_STABILIZED;
  return { replicas: recommendation, ...text };
}

/** getReplicasChangePerPeriod. */
function changeInPeriod(periodSeconds: number, events: readonly ScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  let sum = 0;
  for (const e of events) if (e.timestamp > cutoff) sum += e.replicaChange;
  return sum;
}

/** calculateScaleUpLimitWithScalingRules. */
export function scaleUpLimit(currentReplicas: number, h: AutoscalerHistory, rules: HPAScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return currentReplicas;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? 2 ** 31 - 1 : -(2 ** 31);
  for (const p of rules.policies ?? []) {
    const start = currentReplicas - changeInPeriod(p.periodSeconds, h.scaleUpEvents, now) + changeInPeriod(p.periodSeconds, h.scaleDownEvents, now);
    let proposed = 0;
    if (p.type === 'Pods') proposed = start + p.value;
    else if (p.type === 'Percent') proposed = Math.ceil(start * (1 + p.value / 100));
    result = useMin ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** calculateScaleDownLimitWithBehaviors. */
export function scaleDownLimit(currentReplicas: number, h: AutoscalerHistory, rules: HPAScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return currentReplicas;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? -(2 ** 31) : 2 ** 31 - 1;
  for (const p of rules.policies ?? []) {
    const start = currentReplicas - changeInPeriod(p.periodSeconds, h.scaleUpEvents, now) + changeInPeriod(p.periodSeconds, h.scaleDownEvents, now);
    let proposed = 0;
    if (p.type === 'Pods') proposed = start - p.value;
    else if (p.type === 'Percent') proposed = Math.trunc(start * (1 - p.value / 100));
    result = useMin ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** convertDesiredReplicasWithBehaviorRate: the policies' rate, then min/max replicas. */
export function convertWithBehaviorRate(h: AutoscalerHistory, args: BehaviorArgs, now: number): Limited {
  const { currentReplicas: current, desiredReplicas: desired } = args;
  if (desired > current) {
    let limit = scaleUpLimit(current, h, args.scaleUp, now);
    if (limit < current) limit = current;
    const [maximum, why] = args.maxReplicas > limit ? [limit, UP_LIMIT] : [args.maxReplicas, TOO_MANY];
    if (desired > maximum) return { replicas: maximum, ...why };
  } else if (desired < current) {
    let limit = scaleDownLimit(current, h, args.scaleDown, now);
    if (limit > current) limit = current;
    const [minimum, why] = args.minReplicas < limit ? [limit, DOWN_LIMIT] : [args.minReplicas, TOO_FEW];
    if (desired < minimum) return { replicas: minimum, ...why };
  }
  return { replicas: desired, ...WITHIN_RANGE };
}

const longestPeriod = (rules: HPAScalingRules | undefined): number => Math.max(0, ...(rules?.policies ?? []).map((p) => p.periodSeconds));

/** storeScaleEvent: only with a behavior; an event older than the direction's longest policy period is reused. */
export function storeScaleEvent(h: AutoscalerHistory, behavior: { scaleUp?: HPAScalingRules; scaleDown?: HPAScalingRules } | undefined, prev: number, next: number, now: number): void {
  if (!behavior) return;
  const up = next > prev;
  const events = up ? h.scaleUpEvents : h.scaleDownEvents;
  const cutoff = now - longestPeriod(up ? behavior.scaleUp : behavior.scaleDown) * 1000;
  let oldIndex = -1;
  events.forEach((e, i) => {
    if (e.timestamp < cutoff) e.outdated = true;
    if (e.outdated) oldIndex = i;
  });
  const event = { replicaChange: Math.abs(next - prev), timestamp: now, outdated: false };
  if (oldIndex >= 0) events[oldIndex] = event;
  else events.push(event);
}
