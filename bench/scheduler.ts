/**
 * Scheduler throughput: 5,000 nodes (4 CPU, 32 GiB, 110 pods, 10 zones), then N pods of
 * scheduler_perf's default shape (100m CPU, 500 MiB) scheduled with the default profile through a
 * fake API server, until all are bound. Reports wall-clock pods/s (kube-scheduler's CI floor at
 * 5,000 nodes is 680-810 pods/s) with records off, and with summary records.
 *
 * Pods of a ReplicaSet (--owned) also get the default topology spreading, which counts matching
 * pods on every node per cycle, as upstream does.
 *
 *   npm run bench -- scheduler [--json] [--pods 10000,50000] [--nodes 5000] [--detail off,summary] [--owned]
 */
import { FakeCluster, makeNode, makePod } from '../test/unit/scheduler/fake-host';
import type { RecordDetail } from '../src/engine/scheduler/record';
import { Reporter, gc, heapUsedBytes, nowMs, type BenchSuite } from './report';

function option(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

/** Pods of one ReplicaSet: the default topology spreading (hostname and zone) scores them. */
function ownedBy(c: FakeCluster): { labels: Record<string, string>; ownerReferences: { apiVersion: string; kind: string; name: string; uid: string; controller: boolean }[] } {
  const labels = { app: 'web', 'pod-template-hash': '5d4f8c7b9' };
  c.replicaSets.set('default/web-5d4f8c7b9', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-5d4f8c7b9', namespace: 'default', uid: 'rs-uid' },
    spec: { selector: { matchLabels: labels } },
  });
  return { labels, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d4f8c7b9', uid: 'rs-uid', controller: true }] };
}

async function run(r: Reporter, nodes: number, pods: number, detail: RecordDetail, owned: boolean): Promise<void> {
  const c = new FakeCluster({ seed: 'bench', detail });
  const owner = owned ? ownedBy(c) : {};
  for (let i = 0; i < nodes; i++) c.addNode(makeNode(`node-${i}`, { cpu: '4', memory: '32Gi', pods: 110, zone: `zone-${i % 10}` }));
  await c.clock.settle();
  gc();
  const heapBefore = heapUsedBytes();
  const cpuBefore = process.cpuUsage();
  const start = nowMs();
  for (let i = 0; i < pods; i++) c.addPod(makePod(`pod-${i}`, { cpu: '100m', memory: '500Mi', image: 'registry.k8s.io/pause:3.10', ...owner }));
  const settled = await c.clock.settle({ maxSteps: 100_000_000 });
  const wall = nowMs() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const bound = c.bindings;
  r.record({
    bench: 'scheduler.throughput',
    nodes,
    pods,
    detail,
    workload: owned ? 'replicaset' : 'bare',
    bound,
    settled: settled.settled,
    wall_ms: Math.round(wall),
    pods_per_s: Math.round((bound / wall) * 1000),
    cpu_ms: Math.round(cpuMs),
    pods_per_cpu_s: Math.round((bound / cpuMs) * 1000),
    heap_delta_mb: Math.round((heapUsedBytes() - heapBefore) / 1e6),
    records: c.records.length,
  });
}

const suite: BenchSuite = async (args) => {
  const r = Reporter.fromArgs(args);
  const nodes = Number(option(args, '--nodes', '5000'));
  const podCounts = option(args, '--pods', '10000,50000').split(',').map(Number);
  const details = option(args, '--detail', 'off,summary').split(',') as RecordDetail[];
  const owned = args.includes('--owned');
  for (const detail of details) {
    for (const pods of podCounts) {
      r.note(`scheduler: ${nodes} nodes, ${pods} ${owned ? 'ReplicaSet ' : ''}pods, records ${detail}...`);
      await run(r, nodes, pods, detail, owned);
    }
  }
};

export default suite;
