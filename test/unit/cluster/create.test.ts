/**
 * createCluster wired as kubeadm would: a tainted control-plane node and workers in zones, the
 * components as their own API clients, ready (nodes Ready, default ServiceAccount) when it
 * returns; node options; adding, stopping and starting nodes; reset.
 */
import { strict as assert } from 'node:assert';
import { createCluster } from '../../../src/engine/cluster';
import { CONFIGMAPS, NODES, SERVICEACCOUNTS } from '../../../src/engine/client/resources';
import type { JsonObject, KubeObject } from '../../../src/engine/api/types';

type NodeLike = KubeObject & { spec?: { taints?: { key: string; effect: string }[]; podCIDR?: string }; status: { capacity: Record<string, string>; conditions: { type: string; status: string }[]; addresses: { type: string; address: string }[] } };

async function nodes(cluster: Awaited<ReturnType<typeof createCluster>>): Promise<NodeLike[]> {
  return (await cluster.client().resource<NodeLike>(NODES).list()).items;
}

describe('createCluster', () => {
  it('registers a tainted control-plane node and 3 workers in zones a/b/c, all Ready, with the default ServiceAccount', async () => {
    const cluster = await createCluster();
    try {
      assert.deepEqual(cluster.nodes(), ['kubesim-control-plane', 'kubesim-worker', 'kubesim-worker2', 'kubesim-worker3']);
      assert.deepEqual(
        cluster.components().map((c) => c.name),
        ['event-trace', 'kube-controller-manager', 'kube-scheduler', 'kubelet/kubesim-control-plane', 'kubelet/kubesim-worker', 'kubelet/kubesim-worker2', 'kubelet/kubesim-worker3', 'metrics-server'],
      );
      const list = await nodes(cluster);
      const view = list.map((n) => ({
        name: n.metadata.name,
        zone: n.metadata.labels?.['topology.kubernetes.io/zone'],
        role: n.metadata.labels?.['node-role.kubernetes.io/control-plane'],
        taints: (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`),
        cpu: n.status.capacity.cpu,
        memory: n.status.capacity.memory,
        pods: n.status.capacity.pods,
        ready: n.status.conditions.find((c) => c.type === 'Ready')?.status,
        ip: n.status.addresses.find((a) => a.type === 'InternalIP')?.address,
      }));
      assert.deepEqual(view, [
        { name: 'kubesim-control-plane', zone: 'zone-a', role: '', taints: ['node-role.kubernetes.io/control-plane:NoSchedule'], cpu: '4', memory: '16Gi', pods: '110', ready: 'True', ip: '172.18.0.2' },
        { name: 'kubesim-worker', zone: 'zone-a', role: undefined, taints: [], cpu: '4', memory: '16Gi', pods: '110', ready: 'True', ip: '172.18.0.3' },
        { name: 'kubesim-worker2', zone: 'zone-b', role: undefined, taints: [], cpu: '4', memory: '16Gi', pods: '110', ready: 'True', ip: '172.18.0.4' },
        { name: 'kubesim-worker3', zone: 'zone-c', role: undefined, taints: [], cpu: '4', memory: '16Gi', pods: '110', ready: 'True', ip: '172.18.0.5' },
      ]);
      await cluster.client().resource(SERVICEACCOUNTS, 'default').get('default');
      const ca = await cluster.client().resource(CONFIGMAPS, 'default').get('kube-root-ca.crt');
      assert.match(String((ca.data as JsonObject)['ca.crt']), /^-----BEGIN CERTIFICATE-----/);
    } finally {
      await cluster.close();
    }
  });

  it('takes machine options: count, capacity, labels, taints, zones, no control plane', async () => {
    const cluster = await createCluster({
      nodes: { count: 4, cpu: 8, memory: '32Gi', pods: 50, labels: { tier: 'batch' }, taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }], zones: ['eu-1a', 'eu-1b'], controlPlane: false },
    });
    try {
      const list = await nodes(cluster);
      assert.deepEqual(
        list.map((n) => [n.metadata.name, n.metadata.labels?.['topology.kubernetes.io/zone'], n.metadata.labels?.tier, n.status.capacity.cpu, n.status.capacity.memory, n.status.capacity.pods, (n.spec?.taints ?? []).map((t) => t.key)]),
        [
          ['kubesim-worker', 'eu-1a', 'batch', '8', '32Gi', '50', ['dedicated']],
          ['kubesim-worker2', 'eu-1b', 'batch', '8', '32Gi', '50', ['dedicated']],
          ['kubesim-worker3', 'eu-1a', 'batch', '8', '32Gi', '50', ['dedicated']],
          ['kubesim-worker4', 'eu-1b', 'batch', '8', '32Gi', '50', ['dedicated']],
        ],
      );
    } finally {
      await cluster.close();
    }
  });

  it('adds, stops and restarts nodes; a bare cluster has only the API server', async () => {
    const cluster = await createCluster({ nodes: { count: 1 } });
    try {
      const name = await cluster.addNode({ cpu: 2, zone: 'zone-z' });
      assert.equal(name, 'kubesim-worker2');
      await cluster.advance(10_000);
      const added = (await nodes(cluster)).find((n) => n.metadata.name === name)!;
      assert.equal(added.metadata.labels?.['topology.kubernetes.io/zone'], 'zone-z');
      assert.equal(added.spec?.podCIDR, '10.244.3.0/24');
      cluster.stopNode(name);
      assert.equal(cluster.kubelet(name)?.isRunning, false);
      await cluster.startNode(name);
      assert.equal(cluster.kubelet(name)?.isRunning, true);
      assert.throws(() => cluster.stopNode('nope'), /nodes "nope" not found/);
    } finally {
      await cluster.close();
    }
    const bare = await createCluster({ bare: true });
    assert.deepEqual([bare.nodes(), bare.components()], [[], []]);
    await bare.close();
  });

  it('reset gives a fresh cluster with the same options', async () => {
    const cluster = await createCluster({ seed: 'reset', nodes: { count: 1, controlPlane: false } });
    await cluster.client().resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    const fresh = await cluster.reset();
    try {
      assert.notEqual(fresh, cluster);
      assert.deepEqual(fresh.nodes(), ['kubesim-worker']);
      await assert.rejects(fresh.client().resource(CONFIGMAPS, 'default').get('x'), /configmaps "x" not found/);
    } finally {
      await fresh.close();
    }
  });
});
