/** The reconcile planner's conditions, events and status in upstream's words (reconcileAutoscaler's branches). */
import { strict as assert } from 'node:assert';
import { parseSelector, type Selector } from '../../../../src/engine/api/labels';
import { emptyHistory } from '../../../../src/engine/controllers/podautoscaler/normalize';
import { afterRescale, DEFAULT_SETTINGS, planAutoscale, tolerancesFor, type MetricsAnswer, type PlanInput } from '../../../../src/engine/controllers/podautoscaler/plan';
import type { HorizontalPodAutoscaler, Pod, Scale } from '../../../../src/engine/controllers/podautoscaler/types';
import { fail, ok } from '../../../../src/engine/api/result';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const RFC = '2025-06-01T12:00:00Z';
const LONG_AGO = '2025-06-01T11:00:00Z';

function hpa(extra: Partial<HorizontalPodAutoscaler['spec']> = {}): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'api', namespace: 'shop' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }, minReplicas: 2, maxReplicas: 4, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }], ...extra },
  };
}

const scale = (replicas: number, selector = 'app=api'): Scale => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'api', namespace: 'shop' }, spec: { replicas }, status: { replicas, selector } });

function pods(n: number): Pod[] {
  return Array.from({ length: n }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `api-${i}`, namespace: 'shop', labels: { app: 'api' } },
    spec: { containers: [{ name: 'web', resources: { requests: { cpu: '100m' } } }] },
    status: { phase: 'Running', startTime: LONG_AGO, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: LONG_AGO }] },
  }));
}

const usage = (levels: number[]): MetricsAnswer => ok(
  levels.map((l, i) => ({ metadata: { name: `api-${i}`, namespace: 'shop' }, timestamp: RFC, window: '15s', containers: [{ name: 'web', usage: { cpu: `${l}m`, memory: '10Mi' } }] })),
);

function input(over: Partial<PlanInput>): PlanInput {
  return { hpa: hpa(), now: NOW, rfc3339: RFC, scale: ok(scale(2)), pods: pods(2), metrics: new Map([[0, usage([50, 50])]]), otherSelectors: new Map(), history: emptyHistory(), settings: DEFAULT_SETTINGS, ...over };
}

const conds = (p: ReturnType<typeof planAutoscale>) => (p.status?.conditions ?? []).map((c) => `${c.type} ${c.status} ${c.reason}: ${c.message}`);
const events = (p: ReturnType<typeof planAutoscale>) => p.events.map((e) => `${e.type} ${e.reason} ${e.message}`);

describe('podautoscaler: reconcile plan', () => {
  it('FailedGetScale: the scale subresource answered an error', () => {
    const p = planAutoscale(input({ scale: fail('deployments.apps "api" not found') }));
    assert.deepEqual(events(p), ['Warning FailedGetScale deployments.apps "api" not found']);
    assert.deepEqual(conds(p), [`AbleToScale False FailedGetScale: the HPA controller was unable to get the target's current scale: deployments.apps "api" not found`]);
    assert.equal(p.rescale, undefined);
  });

  it('ScalingDisabled at zero replicas', () => {
    const p = planAutoscale(input({ scale: ok(scale(0)) }));
    assert.deepEqual(conds(p), ["AbleToScale True SucceededGetScale: the HPA controller was able to get the target's current scale", 'ScalingActive False ScalingDisabled: scaling is disabled since the replica count of the target is zero']);
    assert.deepEqual(events(p), []);
    assert.equal(p.status?.desiredReplicas, 0);
  });

  it('within the tolerance: 55% of a 50% target keeps 2 replicas, conditions as a settled HPA has them', () => {
    const p = planAutoscale(input({ metrics: new Map([[0, usage([55, 55])]]) }));
    assert.equal(p.rescale, undefined);
    assert.deepEqual(conds(p), [
      'AbleToScale True ReadyForNewScale: recommended size matches current size',
      'ScalingActive True ValidMetricFound: the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
      'ScalingLimited False DesiredWithinRange: the desired count is within the acceptable range',
    ]);
    assert.deepEqual(p.status?.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '55m', averageUtilization: 55 } } }]);
    assert.deepEqual({ current: p.status?.currentReplicas, desired: p.status?.desiredReplicas }, { current: 2, desired: 2 });
  });

  it('a per-direction tolerance (HPAConfigurableTolerance) lets 55% scale up', () => {
    const h = hpa({ behavior: { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }], tolerance: '0.05' }, scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] } } });
    assert.deepEqual(tolerancesFor(h, 0.1), { scaleUp: 0.05, scaleDown: 0.1 });
    const p = planAutoscale(input({ hpa: h, metrics: new Map([[0, usage([55, 55])]]) }));
    assert.equal(p.rescale?.to, 3);
    const done = afterRescale(p, { hpa: h, now: NOW, rfc3339: RFC });
    assert.deepEqual(events(done), ['Normal SuccessfulRescale New size: 3; reason: cpu resource utilization (percentage of request) above target']);
    assert.equal(done.status?.lastScaleTime, RFC);
    assert.equal(done.history.scaleUpEvents.length, 1);
  });

  it('FailedRescale: the scale update failed', () => {
    const p = planAutoscale(input({ scale: ok(scale(1)) }));
    assert.equal(p.rescale?.reason, 'Current number of replicas below Spec.MinReplicas');
    const failed = afterRescale(p, { hpa: hpa(), now: NOW, rfc3339: RFC }, 'Operation cannot be fulfilled');
    assert.deepEqual(events(failed), ['Warning FailedRescale New size: 2; reason: Current number of replicas below Spec.MinReplicas; error: Operation cannot be fulfilled']);
    assert.deepEqual(conds(failed), ['AbleToScale False FailedUpdateScale: the HPA controller was unable to update the target scale: Operation cannot be fulfilled']);
    assert.equal(failed.status?.lastScaleTime, undefined);
  });

  it('AmbiguousSelector: another HPA selects the same pods', () => {
    const parsed = parseSelector('app=api');
    assert.ok(parsed.ok);
    const other = new Map<string, Selector>([['shop/api-2', parsed.value]]);
    const p = planAutoscale(input({ otherSelectors: other }));
    const msg = 'pods by selector app=api are controlled by multiple HPAs: [shop/api shop/api-2]';
    assert.deepEqual(events(p), [`Warning AmbiguousSelector ${msg}`, `Warning FailedComputeMetricsReplicas ${msg}`]);
    assert.deepEqual(conds(p).slice(1), [`ScalingActive False AmbiguousSelector: ${msg}`]);
  });

  it('SelectorRequired: a scale without a selector', () => {
    const p = planAutoscale(input({ scale: ok(scale(2, '')) }));
    assert.deepEqual(events(p), ['Warning SelectorRequired selector is required', 'Warning FailedComputeMetricsReplicas selector is required']);
    assert.deepEqual(conds(p).slice(1), ["ScalingActive False InvalidSelector: the HPA target's scale is missing a selector"]);
  });

  it('an unchanged status is not written again', () => {
    const first = planAutoscale(input({ metrics: new Map([[0, usage([50, 50])]]) }));
    const again = planAutoscale(input({ hpa: { ...hpa(), status: first.status }, history: first.history, metrics: new Map([[0, usage([50, 50])]]) }));
    assert.equal(again.status, undefined);
  });
});
