/**
 * HorizontalPodAutoscaler on the full cluster: a 1-replica Deployment raised to minReplicas, a
 * scale-up under load (limited to max(2x, 4) per sync, then by maxReplicas), the scale-down held
 * by the 5-minute stabilization window after the load drops, and an HPA without metrics-server,
 * with upstream's events, conditions and status.
 */
import { strict as assert } from 'node:assert';
import { HORIZONTALPODAUTOSCALERS } from '../../src/engine/client/resources';
import type { HorizontalPodAutoscaler } from '../../src/engine/controllers/podautoscaler/types';
import type { ReconcileRecord } from '../../src/engine/trace/reconcile';
import { deployment, scenario, type Scenario } from './support';

const HPA = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: api
  namespace: default
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: api
  minReplicas: 2
  maxReplicas: 6
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
`;

const hpaEvents = (s: Scenario) => s.events((e) => e.regarding.startsWith('HorizontalPodAutoscaler')).map((e) => e.replace(/^(\S+ \S+) HorizontalPodAutoscaler default\/api: /, '$1 '));
const getHpa = (s: Scenario) => s.cluster.client().resource<HorizontalPodAutoscaler>(HORIZONTALPODAUTOSCALERS, 'default').get('api');
const conditions = (h: HorizontalPodAutoscaler) => (h.status?.conditions ?? []).map((c) => `${c.type} ${c.status} ${c.reason}: ${c.message}`);
const decisions = (s: Scenario) => s.cluster.trace.since(0).filter((r): r is ReconcileRecord => r.type === 'controller.reconcile' && r.controller === 'horizontal-pod-autoscaler' && r.autoscaler !== undefined);

async function advance(s: Scenario, seconds: number): Promise<void> {
  for (let t = 0; t < seconds; t += 15) await s.cluster.advance(15_000);
}

describe('scenario: HorizontalPodAutoscaler', () => {
  it('raises a 1-replica Deployment to minReplicas, scales up under load and down after the stabilization window', async () => {
    const s = await scenario();
    try {
      // 400m of demand for 3 minutes, then 20m: each ready pod takes an equal share on top of its idle use.
      await s.apply(deployment('api', 1, { annotations: { 'kubesim.dev/behavior': 'cpu-load=400m>400m@3m>20m@3m' } }));
      await s.apply(HPA);
      await advance(s, 15);
      // The first sync runs 15 s after the HPA was created; its writes take a few ms of etcd's time.
      await s.cluster.advance(1_000);
      assert.deepEqual(hpaEvents(s), ['Normal SuccessfulRescale New size: 2; reason: Current number of replicas below Spec.MinReplicas']);
      let hpa = await getHpa(s);
      assert.equal(hpa.status?.desiredReplicas, 2);
      assert.equal(hpa.status?.currentReplicas, 1);
      assert.ok(hpa.status?.lastScaleTime);
      assert.deepEqual(conditions(hpa), ["AbleToScale True SucceededRescale: the HPA controller was able to update the target scale to 2"]);

      await advance(s, 60);
      const up = hpaEvents(s);
      assert.deepEqual(up.slice(1), [
        'Normal SuccessfulRescale New size: 4; reason: cpu resource utilization (percentage of request) above target',
        // The sync after: the metric asks for the 4 replicas there are (the new pods are not ready
        // yet), so no metric is the reason; the highest recommendation of the 5-minute window
        // raises it to 5: upstream's stabilizeRecommendation, with rescaleReason left empty.
        'Normal SuccessfulRescale New size: 5; reason: ',
        'Normal SuccessfulRescale New size: 6; reason: cpu resource utilization (percentage of request) above target',
      ]);
      hpa = await getHpa(s);
      assert.deepEqual(conditions(hpa), [
        'AbleToScale True ReadyForNewScale: recommended size matches current size',
        'ScalingActive True ValidMetricFound: the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
        'ScalingLimited True TooManyReplicas: the desired replica count is more than the maximum replica count',
      ]);
      const current = hpa.status?.currentMetrics?.[0]?.resource?.current;
      assert.ok((current?.averageUtilization ?? 0) > 55, JSON.stringify(current));
      const stabilized = decisions(s).find((r) => r.autoscaler?.rescaled && r.autoscaler.desiredReplicas === 5)!;
      assert.deepEqual([stabilized.autoscaler!.currentReplicas, stabilized.autoscaler!.proposal], [4, 4], 'the metric asked for no change; the window raised it');
      const first = decisions(s).find((r) => r.autoscaler?.proposal !== undefined && r.autoscaler.rescaled)!;
      assert.equal(first.autoscaler!.limited, 'ScaleUpLimit', 'the first scale-up is capped at max(2x, 4)');

      // The load drops at 3 minutes; the scale-down waits for the highest recommendation of the last 5 minutes to age out.
      const loadDrop = 180;
      await advance(s, 600 - s.elapsed());
      const down = hpaEvents(s).slice(4);
      assert.deepEqual(down, ['Normal SuccessfulRescale New size: 2; reason: All metrics below target']);
      const scaledDown = decisions(s).find((r) => r.autoscaler?.rescaled && r.autoscaler.desiredReplicas === 2 && r.autoscaler.currentReplicas === 6)!;
      const at = (scaledDown.time - decisions(s)[0]!.time) / 1000 + 15;
      assert.ok(at >= loadDrop + 300, `scaled down ${at}s after the start, before the window passed`);
      const held = decisions(s).filter((r) => r.autoscaler?.stabilized === 'ScaleDownStabilized');
      assert.ok(held.length >= 15, `the window held ${held.length} syncs`);
      hpa = await getHpa(s);
      assert.deepEqual(conditions(hpa).slice(0, 1), ['AbleToScale True ReadyForNewScale: recommended size matches current size']);
      assert.deepEqual(conditions(hpa).slice(2), ['ScalingLimited True TooFewReplicas: the desired replica count is less than the minimum replica count']);
      assert.deepEqual(s.scaleSteps().map((x) => x.replace(/^api-\w+/, 'rs')), ['rs: - -> 1', 'rs: 1 -> 2', 'rs: 2 -> 4', 'rs: 4 -> 5', 'rs: 5 -> 6', 'rs: 6 -> 2']);
    } finally {
      await s.close();
    }
  });

  it('without metrics-server: FailedGetResourceMetric and FailedComputeMetricsReplicas, ScalingActive False', async () => {
    const s = await scenario({ metricsServer: false });
    try {
      await s.apply(deployment('api', 2));
      await s.apply(HPA);
      await advance(s, 30);
      const cause = 'failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)';
      assert.deepEqual([...new Set(hpaEvents(s))], [`Warning FailedGetResourceMetric ${cause}`, `Warning FailedComputeMetricsReplicas invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${cause}`]);
      const hpa = await getHpa(s);
      assert.deepEqual(conditions(hpa), [
        "AbleToScale True SucceededGetScale: the HPA controller was able to get the target's current scale",
        `ScalingActive False FailedGetResourceMetric: the HPA was unable to compute the replica count: ${cause}`,
      ]);
      assert.deepEqual(hpa.status?.currentMetrics, [{ type: '' }]);
      assert.equal(hpa.status?.currentReplicas, 2);
    } finally {
      await s.close();
    }
  });
});
