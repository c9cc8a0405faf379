/** The replica calculator against upstream's TestReplicaCalc* cases (replica-calculator-cases.ts). */
import { strict as assert } from 'node:assert';
import { podResourceMetrics, type PodMetricsView } from '../../../../src/engine/controllers/podautoscaler/metrics';
import { countedMetrics, GO_ZERO_TIME, groupPods, resourceReplicas, type ReadinessSettings, type ResourceReplicas } from '../../../../src/engine/controllers/podautoscaler/replicas';
import type { Pod } from '../../../../src/engine/controllers/podautoscaler/types';
import { REPLICA_CALC_CASES, type ReplicaCalcCase } from './replica-calculator-cases';
import { fail, type Result } from '../../../../src/engine/api/result';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const GO_ZERO = '0001-01-01T00:00:00Z';
const SETTINGS: ReadinessSettings = { cpuInitializationPeriodMs: 2 * 60_000, delayOfInitialReadinessStatusMs: 10_000, now: NOW };
const TOLERANCES = { scaleUp: 0.1, scaleDown: 0.1 };
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

function podsOf(tc: ReplicaCalcCase): Pod[] {
  const count = Math.max(tc.currentReplicas, tc.phase?.length ?? 0);
  return Array.from({ length: count }, (_, i) => {
    const start = tc.start?.[i] === 'hot' ? iso(NOW) : tc.start?.[i] === 'cool' ? iso(NOW - 3 * 60_000) : GO_ZERO;
    const request = tc.requests[i];
    const container = (name: string) => ({ name, ...(request !== undefined ? { resources: { requests: { cpu: request } } } : {}) });
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `test-pod-${i}`, namespace: 'test-namespace', labels: { name: 'test-pod' }, ...(tc.deleting?.[i] ? { deletionTimestamp: iso(NOW) } : {}) },
      spec: { containers: [container('container0'), container('container1')] },
      status: { phase: tc.phase?.[i] ?? 'Running', startTime: start, conditions: [{ type: 'Ready', status: tc.readiness?.[i] ?? 'True' }] },
    };
  });
}

function metricsOf(tc: ReplicaCalcCase): PodMetricsView[] {
  return tc.levels.map((level, i) => ({
    metadata: { name: tc.podNames?.[i] ?? `test-pod-${i}`, namespace: 'test-namespace' },
    timestamp: GO_ZERO,
    window: '1m0s',
    containers: [0, 1].map((c) => ({ name: `container${c}`, usage: { cpu: `${level}m` } })),
  }));
}

function run(tc: ReplicaCalcCase): Result<ResourceReplicas> {
  const fetched = podResourceMetrics(metricsOf(tc), 'cpu', '');
  if (!fetched.ok) return fail(`unable to get metrics for resource cpu: ${fetched.error}`);
  const { metrics, timestamp } = fetched.value;
  return resourceReplicas({ currentReplicas: tc.currentReplicas, resource: 'cpu', container: '', tolerances: TOLERANCES, pods: podsOf(tc), metrics, timestamp, settings: SETTINGS }, tc.targetUtilization);
}

/** The replicas a case computes; fails the test with the error when there are none. */
function replicasOf(tc: ReplicaCalcCase): ResourceReplicas {
  const out = run(tc);
  assert.ok(out.ok, out.ok ? '' : out.error);
  return out.value;
}

describe('podautoscaler: replica calculator (upstream TestReplicaCalc*)', () => {
  for (const tc of REPLICA_CALC_CASES) {
    it(tc.name, () => {
      if (tc.expectedError) {
        const failed = run(tc);
        assert.ok(!failed.ok, `expected an error, got ${JSON.stringify(failed)}`);
        assert.ok(failed.error.includes(tc.expectedError), failed.error);
        return;
      }
      const out = replicasOf(tc);
      assert.equal(out.replicas, tc.expectedReplicas);
      assert.equal(out.utilization, tc.expectedUtilization);
      assert.equal(out.rawAverage, tc.expectedValue);
      assert.equal(out.timestamp, GO_ZERO_TIME);
    });
  }

  it('ComputedToleranceAlgImplementation: just past the tolerance scales, just within it does not', () => {
    const startPods = 10;
    const used = startPods * 150;
    const requested = 2 * used;
    const perPod = requested / startPods;
    const offsets = [100, -100, 10, -10, 2, -2, 1, -1, 0, 0];
    const base: ReplicaCalcCase = { name: 'computed', currentReplicas: startPods, requests: offsets.map((o) => `${perPod + o}m`), levels: offsets.map(() => used / 10), targetUtilization: 0 };
    let target = Math.abs(1 / (2 * (1 - 0.1))) + 0.01;
    const finalPods = Math.ceil((used / (requested * target)) * startPods);
    const scaled = replicasOf({ ...base, targetUtilization: Math.trunc(target * 100) });
    assert.equal(scaled.replicas, finalPods);
    assert.equal(scaled.utilization, Math.trunc((used * 100) / requested));
    target = Math.abs(1 / (2 * (1 - 0.1))) + 0.004;
    const kept = replicasOf({ ...base, targetUtilization: Math.trunc(target * 100) });
    assert.equal(kept.replicas, startPods);
  });

  it('treats missing pods on a scale-down as using the target when it is above 100%', () => {
    // Three pods requesting 2 cores each, two of them using 200m, at a 150% target: 10%. The
    // missing pod counts as 150% of its request (upstream's max(100, target)): (400m + 3000m) of
    // 6000m is 56%, ratio 0.377, so 2 replicas (1 had it counted at 100%).
    const tc: ReplicaCalcCase = { name: 'fallback', currentReplicas: 3, requests: ['1', '1', '1'], levels: [100, 100], targetUtilization: 150 };
    const out = replicasOf(tc);
    assert.equal(out.utilization, 10);
    assert.equal(out.replicas, 2);
  });

  it('groupPods: a pod without a Ready condition is unready for CPU; memory ignores readiness', () => {
    const pods: Pod[] = [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'lucretius' }, status: { phase: 'Succeeded', startTime: iso(NOW) } }];
    const metrics = new Map([['lucretius', { value: 1, timestamp: NOW, windowMs: 60_000 }]]);
    assert.deepEqual([...groupPods(pods, metrics, 'cpu', SETTINGS).unready], ['lucretius']);
    assert.equal(groupPods(pods, metrics, 'memory', SETTINGS).readyPodCount, 1);
  });

  it('groupPods: a ready pod in its initialization period counts once a full window passed since it turned Ready', () => {
    const pod = (transitionAgoMs: number): Pod => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bentham' },
      status: { phase: 'Running', startTime: iso(NOW - 60_000), conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(NOW - transitionAgoMs) }] },
    });
    const fresh = new Map([['bentham', { value: 1, timestamp: NOW, windowMs: 30_000 }]]);
    assert.equal(groupPods([pod(30_000)], fresh, 'cpu', SETTINGS).readyPodCount, 1);
    const stale = new Map([['bentham', { value: 1, timestamp: NOW, windowMs: 60_000 }]]);
    assert.equal(groupPods([pod(30_000)], stale, 'cpu', SETTINGS).unready.size, 1);
  });

  it('countedMetrics: the ready pods with metrics count; no pods or no metric left is an error; the input metrics stay whole', () => {
    const pod = (name: string, ready: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, status: { phase: 'Running', startTime: iso(NOW - 10 * 60_000), conditions: [{ type: 'Ready', status: ready }] } });
    const sample = { value: 1, timestamp: NOW, windowMs: 60_000 };
    const metrics = new Map([['hume', sample], ['locke', sample]]);
    const counted = countedMetrics({ pods: [pod('hume', 'True'), pod('locke', 'False'), pod('mill', 'True')], metrics, resource: 'cpu', settings: SETTINGS });
    assert.ok(counted.ok);
    assert.deepEqual([...counted.value.metrics.keys()], ['hume']);
    assert.deepEqual([[...counted.value.groups.unready], [...counted.value.groups.missing], counted.value.groups.readyPodCount], [['locke'], ['mill'], 1]);
    assert.equal(metrics.size, 2);
    assert.deepEqual(countedMetrics({ pods: [], metrics, resource: 'cpu', settings: SETTINGS }), { ok: false, error: 'no pods returned by selector while calculating replica count' });
    assert.deepEqual(countedMetrics({ pods: [pod('locke', 'False')], metrics: new Map([['locke', sample]]), resource: 'cpu', settings: SETTINGS }), { ok: false, error: 'did not receive metrics for targeted pods (pods might be unready)' });
  });
});
