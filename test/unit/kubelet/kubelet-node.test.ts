import { strict as assert } from 'node:assert';
import { kubeletHarness } from './harness';
import { LEASES } from '../../../src/engine/client/resources';
import type { Lease } from '../../../src/engine/api/generated/coordination-v1';
import type { JsonObject } from '../../../src/engine/api/types';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';

describe('kubelet: node registration, status and lease', () => {
  it('registers its Node as system:node:<name>, with the events a kubelet records at start', async () => {
    const h = await kubeletHarness([{ instanceType: 'm5.xlarge', taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }]);
    await h.cluster.settle();
    const node = await h.getNode();
    assert.equal(node.metadata.labels?.['kubernetes.io/hostname'], 'node-1');
    assert.equal(node.metadata.labels?.['node.kubernetes.io/instance-type'], 'm5.xlarge');
    assert.deepEqual((node.spec as JsonObject).podCIDRs, ['10.244.1.0/24']);
    assert.deepEqual((node.spec as JsonObject).taints, [
      { key: 'dedicated', value: 'db', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    ]);
    const ready = ((node.status as JsonObject).conditions as JsonObject[]).find((c) => c.type === 'Ready');
    assert.deepEqual([ready?.status, ready?.reason, ready?.message], ['True', 'KubeletReady', 'kubelet is posting ready status']);
    const created = h.cluster.trace.records().find((r): r is ApiRequestRecord => r.type === 'api.request' && r.verb === 'create' && r.resource === 'nodes');
    assert.equal(created?.user, 'system:node:node-1');
    assert.deepEqual(created?.groups, ['system:nodes', 'system:authenticated']);
    assert.deepEqual(await h.events(), [
      'Normal Starting Starting kubelet.',
      'Normal NodeHasSufficientMemory Node node-1 status is now: NodeHasSufficientMemory',
      'Normal NodeHasNoDiskPressure Node node-1 status is now: NodeHasNoDiskPressure',
      'Normal NodeHasSufficientPID Node node-1 status is now: NodeHasSufficientPID',
      'Normal NodeReady Node node-1 status is now: NodeReady',
      'Normal NodeAllocatableEnforced Updated Node Allocatable limit across pods',
    ]);
    const [starting] = await h.rawEvents();
    // ObjectReference.namespace is omitempty: a cluster-scoped object's reference is stored without it.
    assert.deepEqual(starting!.involvedObject, { kind: 'Node', name: 'node-1', uid: 'node-1' });
    assert.deepEqual(starting!.source, { component: 'kubelet', host: 'node-1' });
    await h.close();
  });

  it('renews its Lease every 10 s and posts node status only on change or every 5 minutes', async () => {
    const h = await kubeletHarness();
    await h.cluster.settle();
    await h.cluster.advance(25_000);
    const leases = h.cluster.client().resource<Lease>(LEASES, 'kube-node-lease');
    const lease = await leases.get('node-1');
    assert.deepEqual(lease.spec, { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2025-01-01T00:00:20.000000Z' });
    assert.deepEqual(lease.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.uid]), [['Node', 'node-1', (await h.getNode()).metadata.uid]]);
    const statusPatches = () => h.cluster.trace.records().filter((r) => r.type === 'api.request' && r.resource === 'nodes' && r.subresource === 'status' && r.verb === 'patch').map((r) => (r.time - 1735689600000) / 1000);
    assert.deepEqual(statusPatches(), []);
    await h.cluster.advance(5 * 60_000);
    assert.deepEqual(statusPatches(), [300], 'the 5-minute report');
    const node = await h.getNode();
    const heartbeat = ((node.status as JsonObject).conditions as JsonObject[])[0]!;
    assert.deepEqual([heartbeat.lastHeartbeatTime, heartbeat.lastTransitionTime], ['2025-01-01T00:05:00Z', '2025-01-01T00:00:00Z']);
    await h.close();
  });

  it('reports pulled images in the node status at its next update', async () => {
    const h = await kubeletHarness();
    await h.createPod({ metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } });
    await h.cluster.settle();
    await h.cluster.advance(10_000);
    const images = (await h.getNode()).status as JsonObject;
    const names = (images.images as JsonObject[]).map((i) => (i.names as string[])[1]);
    assert.deepEqual(names, ['docker.io/library/nginx:1.27', 'registry.k8s.io/pause:3.10.1']);
    await h.close();
  });

  it('stops (no heartbeats, frozen containers) and starts again (re-registers, carries on)', async () => {
    const h = await kubeletHarness();
    await h.createPod({ metadata: { name: 'web', namespace: 'default', annotations: { 'kubesim.dev/behavior': 'crash-after=20s' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } });
    await h.cluster.advance(10_000);
    h.kubelet.stop();
    assert.equal(h.kubelet.isRunning, false);
    await h.cluster.advance(120_000);
    const leases = h.cluster.client().resource<Lease>(LEASES, 'kube-node-lease');
    assert.equal((await leases.get('node-1')).spec?.renewTime, '2025-01-01T00:00:10.000000Z');
    let pod = await h.getPod('web');
    assert.equal(pod.status?.containerStatuses?.[0]?.restartCount, 0, 'nothing happens while the node is stopped');
    assert.throws(() => h.kubelet.logs('default', 'web', 'nginx'), /dial tcp 172\.18\.0\.2:10250: connect: connection refused/);
    // Deleted while the node was away: the pod waits for its kubelet.
    await h.deletePod('web');
    assert.ok((await h.getPod('web')).metadata.deletionTimestamp);
    await h.kubelet.start();
    await h.cluster.settle();
    await assert.rejects(h.getPod('web'), /not found/);
    assert.ok(String((await leases.get('node-1')).spec?.renewTime) >= '2025-01-01T00:02:10.000000Z');
    const events = await h.rawEvents();
    assert.equal(events.find((e) => e.reason === 'Starting')?.count, 2);
    assert.deepEqual(h.records().filter((r) => r.action.startsWith('node-')).map((r) => r.action), ['node-registered', 'node-stopped', 'node-started']);
    await h.close();
  });
});
