/** Node health, zones, taints and the tainting queue (node_lifecycle_controller_test.go, rate_limited_queue_test.go). */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../../src/engine/clock';
import { checkNodeHealth, type NodeHealth } from '../../../../src/engine/controllers/nodelifecycle/health';
import { labelsToReconcile } from '../../../../src/engine/controllers/nodelifecycle/labels';
import { RateLimitedTimedQueue } from '../../../../src/engine/controllers/nodelifecycle/rate-limited-queue';
import { noScheduleTaintChanges, withoutTaints, withTaints } from '../../../../src/engine/controllers/nodelifecycle/taints';
import type { Lease, Node, NodeCondition } from '../../../../src/engine/controllers/util/types/node';
import { computeZoneState, DEFAULT_EVICTION_SETTINGS, zoneKey, zoneQps } from '../../../../src/engine/controllers/nodelifecycle/zones';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const readyCond = (status: string, heartbeat = T0, transition = T0): NodeCondition => ({ type: 'Ready', status, lastHeartbeatTime: iso(heartbeat), lastTransitionTime: iso(transition), reason: 'KubeletReady', message: 'kubelet is posting ready status' });
const node = (conditions: NodeCondition[] = [readyCond('True')]): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node0', creationTimestamp: iso(T0) }, status: { conditions } });
const lease = (renew: number): Lease => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'node0' }, spec: { renewTime: new Date(renew).toISOString() } });
const check = (n: Node, saved: NodeHealth | undefined, now: number, l?: Lease) =>
  checkNodeHealth({ node: n, saved, lease: l, now, nowTime: iso(now), monitorGracePeriodMs: 50_000, startupGracePeriodMs: 60_000 });

describe('controllers/nodelifecycle planners', () => {
  describe('tryUpdateNodeHealth', () => {
    it('a node heard from within the grace period stays as it is; a renewed Lease counts as hearing from it', () => {
      const first = check(node(), undefined, T0);
      assert.equal(first.unknownConditions, undefined);
      assert.equal(first.health.probeTimestamp, T0);
      const withLease = check(node(), first.health, T0 + 45_000, lease(T0 + 40_000));
      assert.equal(withLease.health.probeTimestamp, T0 + 45_000);
      assert.equal(check(node(), withLease.health, T0 + 95_000, lease(T0 + 40_000)).unknownConditions, undefined);
    });

    it('after 50 s without news: Ready and the pressure conditions become Unknown', () => {
      const first = check(node(), undefined, T0);
      const n = node();
      const late = check(n, first.health, T0 + 50_001);
      assert.ok(late.unknownConditions);
      assert.equal(late.observed.status, 'True');
      assert.deepEqual(late.unknownConditions?.[0], { type: 'Ready', status: 'Unknown', lastHeartbeatTime: iso(T0), lastTransitionTime: iso(T0 + 50_001), reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
      assert.deepEqual(late.unknownConditions?.slice(1).map((c) => [c.type, c.reason, c.lastHeartbeatTime]), [
        ['MemoryPressure', 'NodeStatusNeverUpdated', iso(T0)],
        ['DiskPressure', 'NodeStatusNeverUpdated', iso(T0)],
        ['PIDPressure', 'NodeStatusNeverUpdated', iso(T0)],
      ]);
      assert.equal(check(node(), first.health, T0 + 50_000).unknownConditions, undefined, 'strictly after the grace period');
    });

    it('a node that never posted status gets the 60 s startup grace period, from its creation', () => {
      const fresh = node([]);
      assert.equal(check(fresh, undefined, T0 + 60_000).unknownConditions, undefined);
      const n = node([]);
      const result = check(n, undefined, T0 + 60_001);
      assert.ok(result.unknownConditions);
      assert.equal(result.observed.status, 'Unknown');
      assert.deepEqual(result.unknownConditions?.map((c) => [c.type, c.status, c.reason]), [
        ['Ready', 'Unknown', 'NodeStatusNeverUpdated'],
        ['MemoryPressure', 'Unknown', 'NodeStatusNeverUpdated'],
        ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated'],
        ['PIDPressure', 'Unknown', 'NodeStatusNeverUpdated'],
      ]);
    });

    it('a new heartbeat moves the probe time; a changed transition time moves the transition timestamp', () => {
      const first = check(node(), undefined, T0);
      const beat = check(node([readyCond('True', T0 + 10_000)]), first.health, T0 + 20_000);
      assert.deepEqual([beat.health.probeTimestamp, beat.health.readyTransitionTimestamp], [T0 + 20_000, T0]);
      const flip = check(node([readyCond('False', T0 + 30_000, T0 + 30_000)]), beat.health, T0 + 35_000);
      assert.deepEqual([flip.health.probeTimestamp, flip.health.readyTransitionTimestamp], [T0 + 35_000, T0 + 35_000]);
    });
  });

  it('ComputeZoneState and the zone rates', () => {
    const c = (s: string) => readyCond(s);
    const t = DEFAULT_EVICTION_SETTINGS.unhealthyZoneThreshold;
    assert.deepEqual(computeZoneState([c('True'), c('True')], t), [0, 'Normal']);
    assert.deepEqual(computeZoneState([c('Unknown'), undefined], t), [2, 'FullDisruption']);
    assert.deepEqual(computeZoneState([c('True'), c('False'), c('Unknown')], t), [2, 'Normal']);
    assert.deepEqual(computeZoneState([c('True'), c('False'), c('Unknown'), c('False')], t), [3, 'PartialDisruption']);
    assert.equal(zoneQps('Normal', 3, DEFAULT_EVICTION_SETTINGS), 0.1);
    assert.equal(zoneQps('PartialDisruption', 10, DEFAULT_EVICTION_SETTINGS), 0);
    assert.equal(zoneQps('PartialDisruption', 51, DEFAULT_EVICTION_SETTINGS), 0.01);
    assert.equal(zoneQps('FullDisruption', 3, DEFAULT_EVICTION_SETTINGS), 0.1);
    assert.equal(zoneKey({ apiVersion: 'v1', kind: 'Node', metadata: { labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' } } }), 'r:\x00:z');
    assert.equal(zoneKey({ apiVersion: 'v1', kind: 'Node', metadata: {} }), '');
  });

  it('NoSchedule taints follow conditions and cordoning; taint lists replace by key and effect', () => {
    const n = node([readyCond('Unknown'), { type: 'MemoryPressure', status: 'True' }]);
    n.spec = { unschedulable: true, taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }, { key: 'custom', effect: 'NoSchedule' }] };
    assert.deepEqual(noScheduleTaintChanges(n), {
      add: [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
      ],
      remove: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }],
    });
    const base = [{ key: 'a', effect: 'NoExecute', timeAdded: 'x' }];
    assert.deepEqual(withTaints(base, [{ key: 'a', effect: 'NoExecute', timeAdded: 'y' }]), [{ key: 'a', effect: 'NoExecute', timeAdded: 'y' }]);
    assert.equal(withTaints(base, [{ key: 'a', effect: 'NoExecute', timeAdded: 'x' }]), undefined);
    assert.deepEqual(withoutTaints(base, [{ key: 'a', effect: 'NoExecute' }]), []);
    assert.equal(withoutTaints(base, [{ key: 'b', effect: 'NoExecute' }]), undefined);
  });

  it('beta OS and arch labels follow the stable ones', () => {
    const n = node();
    n.metadata.labels = { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/arch': 'arm64' };
    assert.deepEqual(labelsToReconcile(n), { 'beta.kubernetes.io/os': 'linux', 'beta.kubernetes.io/arch': 'amd64' });
  });

  it('RateLimitedTimedQueue: one token per attempt at 0.1/s (burst 1); known values are not queued twice', async () => {
    const clock = new Clock(T0);
    const q = new RateLimitedTimedQueue(clock, 0.1);
    assert.ok(q.add('a', '1'));
    assert.ok(q.add('b', '2'));
    assert.ok(!q.add('a', '1'));
    const done: string[] = [];
    await q.try(async (v) => (done.push(v), { done: true }));
    assert.deepEqual(done, ['a']);
    await clock.advance(9_000);
    await q.try(async (v) => (done.push(v), { done: true }));
    assert.deepEqual(done, ['a']);
    await clock.advance(1_000);
    await q.try(async (v) => (done.push(v), { done: true }));
    assert.deepEqual(done, ['a', 'b']);
    assert.ok(!q.add('a', '1'), 'still known after it was processed');
    assert.ok(q.remove('a'));
    assert.ok(q.add('a', '1'));
    q.swapLimiter(0);
    await clock.advance(60_000);
    await q.try(async (v) => (done.push(v), { done: true }));
    assert.deepEqual(done, ['a', 'b'], 'a zero rate stops tainting');
  });
});
