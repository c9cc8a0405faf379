/**
 * Normalization against upstream's horizontal_test.go tables, as data: TestConvertDesiredReplicasWithRules,
 * TestNormalizeDesiredReplicas (the downscale stabilization window), TestCalculateScale{Up,Down}Limit*
 * and TestScalingWithRules (behavior policies with the scale events of their periods).
 */
import { strict as assert } from 'node:assert';
import {
  convertDesiredReplicasWithRules,
  convertWithBehaviorRate,
  emptyHistory,
  scaleDownLimit,
  scaleUpLimit,
  stabilizeRecommendation,
  storeScaleEvent,
  type ScaleEvent,
} from '../../../../src/engine/controllers/podautoscaler/normalize';
import type { HPAScalingRules } from '../../../../src/engine/controllers/podautoscaler/types';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const min = 60_000;

/** generateScalingRules(pods, podsPeriod, percent, percentPeriod, window). */
function rules(pods: number, podsPeriod: number, percent: number, percentPeriod: number, window: number): HPAScalingRules {
  const policies = [];
  if (pods !== 0) policies.push({ type: 'Pods', value: pods, periodSeconds: podsPeriod });
  if (percent !== 0) policies.push({ type: 'Percent', value: percent, periodSeconds: percentPeriod });
  return { stabilizationWindowSeconds: window, selectPolicy: 'Max', policies };
}

/** The API server's defaults for an unset direction (GenerateHPAScale{Up,Down}Rules). */
const DEFAULT_UP: HPAScalingRules = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
const DEFAULT_DOWN: HPAScalingRules = { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

/** generateEventsUniformDistribution: events spread over the last `period` seconds, each in the middle of its segment. */
function uniform(changes: number[], period: number): ScaleEvent[] {
  const segment = period / changes.length;
  return changes.map((c, i) => ({ replicaChange: c, timestamp: NOW - Math.trunc(period - segment * (i + 1) + segment / 2) * 1000, outdated: false }));
}

describe('podautoscaler: normalization (upstream horizontal_test.go)', () => {
  describe('TestConvertDesiredReplicasWithRules', () => {
    const cases: [number, number, number, number, number, string, string][] = [
      [5, 7, 3, 8, 7, 'DesiredWithinRange', 'prenormalized desired replicas within range'],
      [3, 1, 2, 8, 2, 'TooFewReplicas', 'prenormalized desired replicas < minReplicas'],
      [1, 0, 0, 10, 0, 'DesiredWithinRange', 'prenormalized desired zeroed replicas within range'],
      [20, 1000, 1, 10, 10, 'TooManyReplicas', 'maxReplicas is the limit because maxReplicas < scaleUpLimit'],
      [3, 1000, 1, 2000, 6, 'ScaleUpLimit', 'scaleUpLimit is the limit because scaleUpLimit < maxReplicas'],
    ];
    for (const [current, desired, minR, maxR, expected, reason, name] of cases) {
      it(name, () => {
        const out = convertDesiredReplicasWithRules(current, desired, minR, maxR);
        assert.equal(out.replicas, expected);
        assert.equal(out.reason, reason);
      });
    }
  });

  describe('TestNormalizeDesiredReplicas (stabilization over 5 minutes)', () => {
    const cases: { name: string; recs: [number, number][]; proposal: number; expected: number; log: number }[] = [
      { name: 'empty log', recs: [], proposal: 5, expected: 5, log: 1 },
      { name: 'stabilize', recs: [[4, -2 * min], [5, -1 * min]], proposal: 3, expected: 5, log: 3 },
      { name: 'no stabilize', recs: [[1, -2 * min], [2, -1 * min]], proposal: 3, expected: 3, log: 3 },
      { name: 'no stabilize - old recommendations', recs: [[10, -10 * min], [9, -9 * min]], proposal: 3, expected: 3, log: 2 },
      { name: 'stabilize - old recommendations', recs: [[10, -10 * min], [4, -1 * min], [5, -2 * min], [9, -9 * min]], proposal: 3, expected: 5, log: 4 },
    ];
    for (const tc of cases) {
      it(tc.name, () => {
        const h = emptyHistory();
        h.recommendations = tc.recs.map(([recommendation, ago]) => ({ recommendation, timestamp: NOW + ago }));
        assert.equal(stabilizeRecommendation(h, tc.proposal, 5 * min, NOW), tc.expected);
        assert.equal(h.recommendations.length, tc.log);
      });
    }
  });

  it('TestCalculateScaleUpLimitWithScalingRules / TestCalculateScaleDownLimitWithBehaviors (Min policy)', () => {
    const r: HPAScalingRules = { stabilizationWindowSeconds: 300, selectPolicy: 'Min', policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }, { type: 'Percent', value: 50, periodSeconds: 60 }] };
    assert.equal(scaleUpLimit(1, emptyHistory(), r, NOW), 2);
    assert.equal(scaleDownLimit(5, emptyHistory(), r, NOW), 3);
  });

  describe('TestScalingWithRules', () => {
    interface Case {
      name: string;
      current: number;
      desired: number;
      min: number;
      max: number;
      up?: HPAScalingRules;
      down?: HPAScalingRules;
      upEvents?: ScaleEvent[];
      downEvents?: ScaleEvent[];
      expected: number;
      reason: string;
    }
    const cases: Case[] = [
      { name: 'prenormalized desired replicas within range', current: 5, desired: 7, min: 3, max: 8, expected: 7, reason: 'DesiredWithinRange' },
      { name: 'prenormalized desired replicas < minReplicas', current: 3, desired: 1, min: 2, max: 8, expected: 2, reason: 'TooFewReplicas' },
      { name: 'prenormalized desired replicas within range when minReplicas is 0', current: 1, desired: 0, min: 0, max: 10, expected: 0, reason: 'DesiredWithinRange' },
      { name: 'maxReplicas is the limit because maxReplicas < scaleUpLimit', current: 20, desired: 1000, min: 1, max: 10, expected: 10, reason: 'TooManyReplicas' },
      { name: 'desired replica count is more than the maximum replica count', current: 100, desired: 1000, min: 100, max: 150, expected: 150, reason: 'TooManyReplicas' },
      { name: 'scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies', current: 3, desired: 1000, min: 1, max: 2000, up: rules(0, 0, 1, 60, 0), expected: 4, reason: 'ScaleUpLimit' },
      { name: 'scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined policies', current: 1000, desired: 3, min: 3, max: 2000, down: rules(20, 60, 0, 0, 0), expected: 980, reason: 'ScaleDownLimit' },
      { name: 'scaleUp with default behavior', current: 10, desired: 50, min: 1, max: 1000, expected: 20, reason: 'ScaleUpLimit' },
      { name: 'scaleUp with pods policy larger than percent policy', current: 10, desired: 500, min: 1, max: 1000, up: rules(100, 60, 100, 60, 0), expected: 110, reason: 'ScaleUpLimit' },
      { name: 'scaleUp with percent policy larger than pods policy', current: 10, desired: 500, min: 1, max: 1000, up: rules(2, 60, 100, 60, 0), expected: 20, reason: 'ScaleUpLimit' },
      { name: 'scaleUp with spec MaxReplicas limitation with large pod policy', current: 10, desired: 50, min: 1, max: 1000, up: rules(100, 60, 0, 0, 0), expected: 50, reason: 'DesiredWithinRange' },
      { name: 'scaleUp with spec MaxReplicas limitation with large percent policy', current: 10, desired: 50, min: 1, max: 1000, up: rules(10000, 60, 0, 0, 0), expected: 50, reason: 'DesiredWithinRange' },
      { name: 'scaleUp with pod policy limitation', current: 10, desired: 50, min: 1, max: 1000, up: rules(30, 60, 0, 0, 0), expected: 40, reason: 'ScaleUpLimit' },
      { name: 'scaleUp with percent policy limitation', current: 10, desired: 50, min: 1, max: 1000, up: rules(0, 0, 200, 60, 0), expected: 30, reason: 'ScaleUpLimit' },
      { name: 'scaleDown with percent policy larger than pod policy', current: 100, desired: 2, min: 1, max: 1000, down: rules(20, 60, 1, 60, 300), expected: 80, reason: 'ScaleDownLimit' },
      { name: 'scaleDown with pod policy larger than percent policy', current: 100, desired: 2, min: 1, max: 1000, down: rules(2, 60, 1, 60, 300), expected: 98, reason: 'ScaleDownLimit' },
      { name: 'scaleDown with spec MinReplicas=nil limitation with large pod policy', current: 10, desired: 0, min: 1, max: 1000, down: rules(100, 60, 0, 0, 300), expected: 1, reason: 'TooFewReplicas' },
      { name: 'scaleDown with spec MinReplicas limitation with large percent policy', current: 10, desired: 2, min: 5, max: 1000, down: rules(0, 0, 100, 60, 300), expected: 5, reason: 'TooFewReplicas' },
      { name: 'scaleDown with pod policy limitation', current: 10, desired: 2, min: 1, max: 1000, down: rules(5, 60, 0, 0, 300), expected: 5, reason: 'ScaleDownLimit' },
      { name: 'scaleDown with percent policy limitation', current: 10, desired: 5, min: 1, max: 1000, down: rules(0, 0, 50, 60, 300), expected: 5, reason: 'DesiredWithinRange' },
      { name: 'scaleUp with spec MaxReplicas limitation with large pod policy and events', upEvents: uniform([1, 5, 9], 120), current: 100, desired: 500, min: 1, max: 200, up: rules(300, 60, 0, 0, 0), expected: 200, reason: 'TooManyReplicas' },
      { name: 'scaleUp with spec MaxReplicas limitation with large percent policy and events', upEvents: uniform([1, 5, 9], 120), current: 100, desired: 500, min: 1, max: 200, up: rules(0, 0, 10000, 60, 0), expected: 200, reason: 'TooManyReplicas' },
      { name: 'scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up events', upEvents: uniform([1, 5, 9], 120), current: 100, desired: 500, min: 1, max: 1000, up: rules(5, 120, 0, 0, 0), expected: 100, reason: 'ScaleUpLimit' },
      { name: 'scaleUp with pod policy and previous scale up events', upEvents: uniform([1, 5, 9], 120), current: 100, desired: 500, min: 1, max: 1000, up: rules(150, 120, 0, 0, 0), expected: 235, reason: 'ScaleUpLimit' },
      { name: 'scaleUp with percent policy and previous scale up events', upEvents: uniform([1, 5, 9], 120), current: 100, desired: 500, min: 1, max: 1000, up: rules(0, 0, 200, 120, 0), expected: 255, reason: 'ScaleUpLimit' },
      { name: 'scaleUp with percent policy and previous scale up and down events', upEvents: uniform([4], 120), downEvents: uniform([2], 120), current: 6, desired: 24, min: 1, max: 1000, up: rules(0, 0, 300, 300, 0), expected: 16, reason: 'ScaleUpLimit' },
      { name: 'scaleDown with default policy and previous events', downEvents: uniform([1, 5, 9], 120), current: 10, desired: 5, min: 1, max: 1000, expected: 5, reason: 'DesiredWithinRange' },
    ];
    for (const tc of cases) {
      it(tc.name, () => {
        const h = emptyHistory();
        h.scaleUpEvents = tc.upEvents ?? [];
        h.scaleDownEvents = tc.downEvents ?? [];
        const out = convertWithBehaviorRate(h, { scaleUp: tc.up ?? DEFAULT_UP, scaleDown: tc.down ?? DEFAULT_DOWN, minReplicas: tc.min, maxReplicas: tc.max, currentReplicas: tc.current, desiredReplicas: tc.desired }, NOW);
        assert.equal(out.replicas, tc.expected);
        assert.equal(out.reason, tc.reason);
      });
    }
  });

  it('storeScaleEvent reuses an event older than the longest policy period and keeps nothing without a behavior', () => {
    const h = emptyHistory();
    storeScaleEvent(h, undefined, 1, 3, NOW);
    assert.equal(h.scaleUpEvents.length, 0);
    const behavior = { scaleUp: rules(4, 15, 100, 15, 0), scaleDown: DEFAULT_DOWN };
    storeScaleEvent(h, behavior, 1, 3, NOW);
    storeScaleEvent(h, behavior, 3, 5, NOW + 5_000);
    assert.deepEqual(h.scaleUpEvents.map((e) => e.replicaChange), [2, 2]);
    storeScaleEvent(h, behavior, 5, 9, NOW + 60_000);
    assert.deepEqual(h.scaleUpEvents.map((e) => [e.replicaChange, e.outdated]), [[2, true], [4, false]]);
    storeScaleEvent(h, behavior, 9, 6, NOW + 61_000);
    assert.deepEqual(h.scaleDownEvents.map((e) => e.replicaChange), [3]);
  });
});
