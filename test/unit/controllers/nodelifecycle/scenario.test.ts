/**
 * A node that stops renewing its Lease: Unknown after the grace period (50 s in 1.35), the
 * unreachable taints, its pods not Ready, and their eviction when the 300 s toleration runs out;
 * the taints go when it comes back.
 */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { NodeLifecycleController, NODE_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/nodelifecycle/controller';
import { TaintEvictionController, TAINT_EVICTION_ACCOUNT } from '../../../../src/engine/controllers/tainteviction/controller';
import { EVENTS, LEASES, NODES, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { Node, Pod } from '../../../../src/engine/controllers/util/types/node';

interface FakeKubelet {
  stop(): void;
  start(): Promise<void>;
}

/** Plays a kubelet's heartbeat: Ready status at start, Lease renewed every 10 s. */
async function kubelet(h: ControllerHarness, name: string, zone: string): Promise<FakeKubelet> {
  await h.admin.resource(NODES).create({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'topology.kubernetes.io/zone': zone, 'kubernetes.io/os': 'linux', 'beta.kubernetes.io/os': 'linux' } } });
  const leases = h.admin.resource(LEASES, 'kube-node-lease');
  await leases.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: h.clock.rfc3339Micro() } });
  let timer: ReturnType<typeof h.clock.setTimer> | undefined;
  const renew = async (): Promise<void> => {
    const lease = deepCopy(await leases.get(name));
    (lease.spec as { renewTime: string }).renewTime = h.clock.rfc3339Micro();
    await leases.update(lease);
    timer = h.clock.setTimer(10_000, renew, { daemon: true, label: `lease ${name}` });
  };
  const postReady = async (): Promise<void> => {
    const node = deepCopy(await h.admin.resource<Node>(NODES).get(name));
    const now = h.clock.rfc3339();
    node.status = { ...node.status, conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: now, lastTransitionTime: now, reason: 'KubeletReady', message: 'kubelet is posting ready status' }] };
    await h.admin.resource<Node>(NODES).updateStatus(node);
  };
  const start = async (): Promise<void> => {
    await postReady();
    await renew();
  };
  await start();
  return { stop: () => h.clock.clearTimer(timer), start };
}

async function runningPod(h: ControllerHarness, name: string, node: string, tolerations?: object[]): Promise<void> {
  const pods = h.admin.resource<Pod>(PODS, 'default');
  await pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx' }], ...(tolerations ? { tolerations } : {}) } });
  const pod = deepCopy(await pods.get(name));
  pod.status = { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: h.clock.rfc3339() }] };
  await pods.updateStatus(pod);
}

const ready = (n: Node) => n.status?.conditions?.find((c) => c.type === 'Ready');
const taints = (n: Node) => (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`);

async function events(h: ControllerHarness): Promise<string[]> {
  const list = (await h.admin.resource(EVENTS, 'default').list()).items as (KubeObject & { reason: string; message: string; type: string; source: { component: string }; involvedObject: { name: string } })[];
  return list.map((e) => `${e.source.component} ${e.type} ${e.reason} ${e.involvedObject.name}: ${e.message}`);
}

describe('controllers/nodelifecycle and tainteviction scenario', () => {
  it('a stopped node goes Unknown after the grace period, is tainted, its pods are evicted after 300 s', async () => {
    const h = await controllerHarness();
    await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    const k1 = await kubelet(h, 'node-1', 'zone-a');
    await kubelet(h, 'node-2', 'zone-b');
    await runningPod(h, 'web-1', 'node-1');
    await runningPod(h, 'impatient', 'node-1', [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 }]);
    const lifecycle = new NodeLifecycleController(h.deps(NODE_CONTROLLER_ACCOUNT));
    const eviction = new TaintEvictionController(h.deps(TAINT_EVICTION_ACCOUNT));
    h.start(lifecycle, eviction);
    await h.clock.advance(1000);
    const nodes = h.admin.resource<Node>(NODES);
    assert.deepEqual(taints(await nodes.get('node-1')), [], 'the not-ready:NoSchedule taint of registration goes once Ready');
    assert.ok((await events(h)).includes('node-controller Normal RegisteredNode node-1: Node node-1 event: Registered Node node-1 in Controller'));

    // The kubelet stops right after its renewal at t=10 s.
    await h.clock.advance(9500);
    k1.stop();
    const lastRenewal = h.clock.now() - 500;
    while (ready(await nodes.get('node-1'))?.status === 'True') await h.clock.advance(1000);
    const silent = h.clock.now() - lastRenewal;
    assert.ok(silent > 50_000 && silent <= 61_000, `Unknown ${silent} ms after the last renewal: the 50 s grace period, counted from when a monitor pass saw the renewal`);
    let node = await nodes.get('node-1');
    assert.deepEqual(
      node.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['Ready', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'],
        ['MemoryPressure', 'Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.'],
        ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.'],
        ['PIDPressure', 'Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.'],
      ],
    );
    assert.equal(ready(node)?.lastTransitionTime, h.clock.rfc3339());
    assert.deepEqual(taints(node), ['node.kubernetes.io/unreachable:NoSchedule']);
    const pod = await h.admin.resource<Pod>(PODS, 'default').get('web-1');
    assert.equal(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'False');
    const seen = await events(h);
    assert.ok(seen.includes('node-controller Normal NodeNotReady node-1: Node node-1 status is now: NodeNotReady'), seen.join('\n'));
    assert.ok(seen.includes('node-controller Warning NodeNotReady web-1: Node is not ready'), seen.join('\n'));
    assert.equal(ready(await nodes.get('node-2'))?.status, 'True');

    // The next pass queues the node for its NoExecute taint, applied within the 100 ms tainting pass.
    await h.clock.advance(5100);
    node = await nodes.get('node-1');
    assert.deepEqual(taints(node), ['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']);
    const tainted = h.clock.now();
    assert.ok((await h.admin.resource<Pod>(PODS, 'default').get('impatient')).metadata.deletionTimestamp, 'a pod without a lasting toleration goes at once');

    await h.clock.advance(299_000);
    assert.equal((await h.admin.resource<Pod>(PODS, 'default').get('web-1')).metadata.deletionTimestamp, undefined);
    await h.clock.advance(1000);
    const evicted = await h.admin.resource<Pod>(PODS, 'default').get('web-1');
    assert.ok(evicted.metadata.deletionTimestamp, 'deleted 300 s after the taint');
    assert.ok(h.clock.now() - tainted <= 300_100);
    assert.deepEqual(
      evicted.status?.conditions?.filter((c) => c.type === 'DisruptionTarget').map((c) => [c.status, c.reason, c.message]),
      [['True', 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint']],
    );
    assert.ok((await events(h)).includes('taint-eviction-controller Normal TaintManagerEviction web-1: Marking for deletion Pod default/web-1'));

    // The kubelet comes back: Ready again, the taints go.
    await k1.start();
    await h.clock.advance(5000);
    node = await nodes.get('node-1');
    assert.equal(ready(node)?.status, 'True');
    assert.deepEqual(taints(node), []);
    await h.close();
  });
});
