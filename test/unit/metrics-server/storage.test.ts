/**
 * metrics-server's storage rules, ported from kubernetes-sigs/metrics-server pkg/storage
 * (pod_test.go, node_test.go; resolution 60 s as there): a pod or node is served from its second
 * point, a fresh container from its first, restarts and decreasing points start over.
 */
import { strict as assert } from 'node:assert';
import { NodeStorage, PodStorage, type MetricsBatch } from '../../../src/engine/components/metrics-server/storage';
import type { MetricsPoint } from '../../../src/engine/kubelet';

const S = 1000;
const CORE_SECOND = 1e9;
const MI = 1024 * 1024;
const start = 1_700_000_000_000;

const point = (startTime: number, timestamp: number, cpuCoreSeconds: number, memoryMi: number): MetricsPoint => ({ startTime, timestamp, cumulativeCpuNs: cpuCoreSeconds * CORE_SECOND, memoryBytes: memoryMi * MI });
const pods = (...entries: [string, Record<string, MetricsPoint>][]): MetricsBatch => ({ nodes: new Map(), pods: new Map(entries.map(([k, cs]) => [k, new Map(Object.entries(cs))])) });
const nodes = (entries: Record<string, MetricsPoint>): MetricsBatch => ({ nodes: new Map(Object.entries(entries)), pods: new Map() });

describe('metrics-server storage (ported from pkg/storage)', () => {
  it('provides pod metrics from stored batches, from the second one on', () => {
    const s = new PodStorage(60 * S);
    s.store(pods(['ns1/pod1', { container1: point(start, start + 120 * S, 1, 4) }]));
    assert.equal(s.ready, false);
    assert.equal(s.usage('ns1/pod1'), undefined);
    s.store(pods(['ns1/pod1', { container1: point(start, start + 125 * S, 6, 5) }]));
    assert.equal(s.ready, true);
    assert.deepEqual(s.usage('ns1/pod1'), [{ name: 'container1', cpu: 1 * CORE_SECOND, memory: 5 * MI, timestamp: start + 125 * S, windowMs: 5 * S }]);
    assert.equal(s.usage('ns1/pod2'), undefined, 'not stored');
    s.store(pods());
    assert.equal(s.usage('ns1/pod1'), undefined, 'a batch without the pod drops it');
  });

  it('times a pod by its earliest container', () => {
    const s = new PodStorage(60 * S);
    s.store(pods(['ns1/pod1', { container1: point(start, start + 110 * S, 1, 4), container2: point(start, start + 115 * S, 2, 5) }]));
    s.store(pods(['ns1/pod1', { container1: point(start, start + 120 * S, 6, 6), container2: point(start, start + 125 * S, 7, 7) }]));
    const u = s.usage('ns1/pod1')!;
    assert.deepEqual(u.map((c) => [c.name, c.timestamp - start, c.windowMs]), [
      ['container1', 120 * S, 10 * S],
      ['container2', 125 * S, 10 * S],
    ]);
  });

  it('serves nothing for a repeated point', () => {
    const s = new PodStorage(60 * S);
    const batch = pods(['ns1/pod1', { container1: point(start, start + 110 * S, 1, 4) }]);
    s.store(batch);
    s.store(batch);
    assert.equal(s.ready, false);
    assert.equal(s.usage('ns1/pod1'), undefined);
  });

  it('detects a container restart and measures from the new start', () => {
    const s = new PodStorage(60 * S);
    s.store(pods(['ns1/pod1', { container1: point(start, start + 10 * S, 1, 4) }]));
    s.store(pods(['ns1/pod1', { container1: point(start + 15 * S, start + 25 * S, 5, 5) }]));
    assert.deepEqual(s.usage('ns1/pod1'), [{ name: 'container1', cpu: 500_000_000, memory: 5 * MI, timestamp: start + 25 * S, windowMs: 10 * S }]);
  });

  it('serves the pod without the container whose CPU counter went back', () => {
    const s = new PodStorage(60 * S);
    s.store(pods(['ns1/pod1', { container1: point(start, start + 110 * S, 20, 4) }]));
    s.store(pods(['ns1/pod1', { container1: point(start, start + 120 * S, 10, 4) }]));
    assert.deepEqual(s.usage('ns1/pod1'), []);
  });

  it('drops a point older than the previous one, keeps one between previous and last', () => {
    const older = new PodStorage(60 * S);
    older.store(pods(['ns1/pod1', { container1: point(start, start + 1115 * S, 20, 4) }]));
    older.store(pods(['ns1/pod1', { container1: point(start, start + 1125 * S, 40, 4) }]));
    older.store(pods(['ns1/pod1', { container1: point(start, start + 115 * S, 10, 4) }]));
    assert.equal(older.usage('ns1/pod1'), undefined);
    const between = new PodStorage(60 * S);
    between.store(pods(['ns1/pod1', { container1: point(start, start + 115 * S, 10, 4) }]));
    between.store(pods(['ns1/pod1', { container1: point(start, start + 125 * S, 50, 5) }]));
    between.store(pods(['ns1/pod1', { container1: point(start, start + 120 * S, 35, 5) }]));
    assert.deepEqual(between.usage('ns1/pod1'), [{ name: 'container1', cpu: 5 * CORE_SECOND, memory: 5 * MI, timestamp: start + 120 * S, windowMs: 5 * S }]);
  });

  it('serves a fresh container (10 s to one resolution old) from its first point, a long-running one not', () => {
    const longRunning = new PodStorage(60 * S);
    longRunning.store(pods(['ns1/pod1', { container1: point(start, start + 120 * S, 1, 4) }]));
    assert.equal(longRunning.ready, false);
    const fresh = new PodStorage(60 * S);
    fresh.store(pods(['ns1/pod1', { container1: point(start, start + 10 * S, 10, 4) }]));
    assert.equal(fresh.ready, true);
    assert.deepEqual(fresh.usage('ns1/pod1'), [{ name: 'container1', cpu: 1 * CORE_SECOND, memory: 4 * MI, timestamp: start + 10 * S, windowMs: 10 * S }]);
    for (const since of [-10, 9]) {
      const s = new PodStorage(60 * S);
      s.store(pods(['ns1/pod1', { container1: point(start, start + since * S, 10, 4) }]));
      assert.equal(s.ready, false, `started ${since} s before`);
      assert.equal(s.usage('ns1/pod1'), undefined);
    }
  });

  it('serves nothing for a pod while one of its containers has a single point', () => {
    const s = new PodStorage(60 * S);
    s.store(pods(['ns1/pod1', { container1: point(start, start + 110 * S, 1, 4) }]));
    s.store(pods(['ns1/pod1', { container1: point(start, start + 120 * S, 6, 6), container2: point(start, start + 120 * S, 8, 5) }]));
    assert.equal(s.usage('ns1/pod1'), undefined);
  });

  it('provides node metrics from the second batch, detects restarts, decreases and stale points', () => {
    const s = new NodeStorage();
    s.store(nodes({ node1: point(start, start + 120 * S, 1, 4) }));
    assert.equal(s.ready, false);
    assert.equal(s.usage('node1'), undefined);
    s.store(nodes({ node1: point(start, start + 125 * S, 6, 5) }));
    assert.equal(s.ready, true);
    assert.deepEqual(s.usage('node1'), { cpu: 1 * CORE_SECOND, memory: 5 * MI, timestamp: start + 125 * S, windowMs: 5 * S });
    s.store(nodes({ node1: point(start + 130 * S, start + 140 * S, 1, 5) }));
    assert.equal(s.usage('node1'), undefined, 'a node whose start time went forward starts over');
    const decreased = new NodeStorage();
    decreased.store(nodes({ node1: point(start, start + 110 * S, 20, 4) }));
    decreased.store(nodes({ node1: point(start, start + 120 * S, 10, 4) }));
    assert.equal(decreased.usage('node1'), undefined);
    const older = new NodeStorage();
    older.store(nodes({ node1: point(start, start + 1115 * S, 20, 4) }));
    older.store(nodes({ node1: point(start, start + 1125 * S, 40, 4) }));
    older.store(nodes({ node1: point(start, start + 115 * S, 10, 4) }));
    assert.equal(older.usage('node1'), undefined);
  });
});
