import { strict as assert } from 'node:assert';
import { kubeletHarness } from './harness';
import type { Container, Pod } from '../../../src/engine/kubelet/api';
import type { MetricsPoint, ResourceMetricsBatch } from '../../../src/engine/kubelet/resource-metrics';
import { idleUsage, systemUsage } from '../../../src/engine/kubelet/usage';

function web(name: string, annotation?: string, extra: Partial<Container> = {}, nodeName = 'node-1'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' }, ...(annotation ? { annotations: { 'kubesim.dev/behavior': annotation } } : {}) },
    spec: { nodeName, containers: [{ ...extra, name: 'nginx', image: 'nginx:1.27' }] },
  };
}

/** millicores between two samples of a point, as metrics-server computes them. */
const rate = (prev: MetricsPoint, last: MetricsPoint): number => (last.cumulativeCpuNs - prev.cumulativeCpuNs) / ((last.timestamp - prev.timestamp) / 1000) / 1e6;
const point = (b: ResourceMetricsBatch, pod: string, container = 'nginx'): MetricsPoint => b.pods.find((p) => p.name === pod)!.containers.get(container)!;

describe('kubelet: resource metrics (/metrics/resource)', () => {
  it('reports each running container and the node: cumulative CPU, working set, start and sample times', async () => {
    const h = await kubeletHarness();
    await h.createPod(web('busy', 'cpu=250m memory=64Mi'));
    await h.createPod(web('idle'));
    await h.cluster.settle();
    await h.cluster.advance(10_000);
    const a = h.kubelet.resourceMetrics()!;
    await h.cluster.advance(15_000);
    const b = h.kubelet.resourceMetrics()!;
    assert.deepEqual(b.pods.map((p) => p.name).sort(), ['busy', 'idle']);
    assert.equal(rate(point(a, 'busy'), point(b, 'busy')), 250);
    assert.equal(point(b, 'busy').memoryBytes, 64 * 1024 * 1024);
    const idle = idleUsage('nginx:1.27');
    assert.equal(Math.round(rate(point(a, 'idle'), point(b, 'idle')) * 1e6), idle.cpu);
    assert.equal(point(b, 'idle').memoryBytes, idle.memory);
    const pod = await h.getPod('busy');
    assert.equal(Math.floor(point(b, 'busy').startTime / 1000) * 1000, Date.parse(pod.status!.containerStatuses![0]!.state!.running!.startedAt ?? ''));
    assert.equal(point(b, 'busy').timestamp, h.cluster.clock.now());
    // The node: its daemons plus its containers.
    const system = systemUsage(false, 'node-1');
    assert.equal(Math.round(rate(a.node, b.node) * 1e6), system.cpu + 250_000_000 + idle.cpu);
    assert.equal(b.node.memoryBytes, system.memory + 64 * 1024 * 1024 + idle.memory);
    await h.close();
  });

  it('follows a curve from the container start, and never reports more CPU than the limit', async () => {
    const h = await kubeletHarness();
    await h.createPod(web('ramp', 'cpu=100m>900m@2m'));
    await h.createPod(web('capped', 'cpu=2', { resources: { limits: { cpu: '500m' } } }));
    await h.cluster.settle();
    const started = point(h.kubelet.resourceMetrics()!, 'ramp').startTime;
    await h.cluster.advance(started + 60_000 - h.cluster.clock.now());
    const a = h.kubelet.resourceMetrics()!;
    await h.cluster.advance(30_000);
    const b = h.kubelet.resourceMetrics()!;
    // The mean over 60 s..90 s of a ramp from 100m to 900m over 120 s.
    assert.equal(Math.round(rate(point(a, 'ramp'), point(b, 'ramp'))), 600);
    assert.equal(rate(point(a, 'capped'), point(b, 'capped')), 500);
    await h.close();
  });

  it('shares a workload load between the ready pods that carry it, on every node', async () => {
    const h = await kubeletHarness([{}, {}]);
    const probe = { readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 } };
    await h.createPod(web('a', 'cpu=10m cpu-load=1', probe));
    await h.createPod(web('b', 'cpu=10m cpu-load=1', probe, 'node-2'));
    await h.createPod(web('c', 'cpu=10m cpu-load=1 fail-readiness', probe));
    await h.createPod(web('other', 'cpu=10m cpu-load=3', probe));
    await h.cluster.settle();
    await h.cluster.advance(20_000);
    const [a1, b1] = [h.kubelets[0]!.resourceMetrics()!, h.kubelets[1]!.resourceMetrics()!];
    await h.cluster.advance(15_000);
    const [a2, b2] = [h.kubelets[0]!.resourceMetrics()!, h.kubelets[1]!.resourceMetrics()!];
    assert.equal(rate(point(a1, 'a'), point(a2, 'a')), 510, 'half of 1 core, plus its own 10m');
    assert.equal(rate(point(b1, 'b'), point(b2, 'b')), 510, 'the sibling on the other node takes the other half');
    assert.equal(rate(point(a1, 'c'), point(a2, 'c')), 10, 'an unready pod takes no share');
    assert.equal(rate(point(a1, 'other'), point(a2, 'other')), 3010, 'another annotation is another workload');
    await h.close();
  });

  it('answers nothing while the kubelet is down', async () => {
    const h = await kubeletHarness();
    h.kubelet.stop();
    assert.equal(h.kubelet.resourceMetrics(), undefined);
    await h.close();
  });
});
