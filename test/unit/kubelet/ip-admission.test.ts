import { strict as assert } from 'node:assert';
import { IpAllocator } from '../../../src/engine/kubelet/ip-allocator';
import { admitPod, podRequests } from '../../../src/engine/kubelet/admission';
import type { Container, Pod } from '../../../src/engine/kubelet/api';

describe('kubelet/ip-allocator', () => {
  it('hands out addresses in order after the gateway, never reusing one in use, wrapping at the end', () => {
    const ips = new IpAllocator('10.244.1.0/29');
    assert.equal(ips.gateway, '10.244.1.1');
    assert.deepEqual(['a', 'b', 'c'].map((o) => ips.allocate(o)), ['10.244.1.2', '10.244.1.3', '10.244.1.4']);
    assert.equal(ips.allocate('a'), '10.244.1.2', 'an owner keeps its address');
    ips.release('a');
    assert.deepEqual(['d', 'e', 'f'].map((o) => ips.allocate(o)), ['10.244.1.5', '10.244.1.6', '10.244.1.2']);
    assert.equal(ips.allocate('g'), undefined, 'the range (without network, gateway and broadcast) is full');
    assert.throws(() => new IpAllocator('fd00::/64'), /not an IPv4 CIDR/);
  });
});

function pod(name: string, containers: Container[], extra: Partial<NonNullable<Pod['spec']>> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers, ...extra } };
}
const c = (name: string, requests: Record<string, string>, restartPolicy?: string): Container => ({ name, resources: { requests }, ...(restartPolicy ? { restartPolicy } : {}) });
const allocatable = { cpu: '4', memory: '16284Mi', pods: '3', 'ephemeral-storage': '90Gi' };

describe('kubelet/admission', () => {
  it('admits what fits and rejects with the kubelet reason and message', () => {
    const running = [pod('a', [c('a', { cpu: '3', memory: '1Gi' })])];
    assert.deepEqual(admitPod(pod('b', [c('b', { cpu: '1' })]), {}, allocatable, running), { admit: true });
    assert.deepEqual(admitPod(pod('b', [c('b', { cpu: '1500m' })]), {}, allocatable, running), {
      admit: false,
      reason: 'OutOfcpu',
      message: "Node didn't have enough resource: cpu, requested: 1500, used: 3000, capacity: 4000",
    });
    assert.deepEqual(admitPod(pod('b', [c('b', { memory: '16Gi' })]), {}, allocatable, running), {
      admit: false,
      reason: 'OutOfmemory',
      message: "Node didn't have enough resource: memory, requested: 17179869184, used: 1073741824, capacity: 17075011584",
    });
    assert.deepEqual(admitPod(pod('b', [c('b', { 'nvidia.com/gpu': '1' })]), {}, allocatable, []), {
      admit: false,
      reason: 'OutOfnvidia.com/gpu',
      message: "Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 0, capacity: 0",
    });
  });

  it('rejects the pod that would exceed the pod count first', () => {
    const three = ['a', 'b', 'c'].map((n) => pod(n, [c(n, {})]));
    assert.deepEqual(admitPod(pod('d', [c('d', { cpu: '100' })]), {}, allocatable, three), {
      admit: false,
      reason: 'OutOfpods',
      message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3",
    });
  });

  it("checks the pod's nodeSelector against the node's labels", () => {
    assert.deepEqual(admitPod(pod('a', [], { nodeSelector: { disk: 'ssd' } }), { disk: 'hdd' }, allocatable, []), {
      admit: false,
      reason: 'NodeAffinity',
      message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
    });
    assert.deepEqual(admitPod(pod('a', [], { nodeSelector: { disk: 'ssd' } }), { disk: 'ssd' }, allocatable, []), { admit: true });
  });

  it('counts init containers at their peak, with the sidecars started before them, plus the overhead', () => {
    const p = pod('a', [c('app', { cpu: '500m', memory: '100Mi' })], {
      initContainers: [c('sidecar', { cpu: '200m' }, 'Always'), c('migrate', { cpu: '1', memory: '50Mi' })],
      overhead: { cpu: '10m' },
    });
    const r = podRequests(p);
    // max(app 500m + sidecar 200m, migrate 1000m + sidecar 200m) + overhead 10m
    assert.equal(r.get('cpu'), 1210);
    assert.equal(r.get('memory'), 104857600);
  });
});
