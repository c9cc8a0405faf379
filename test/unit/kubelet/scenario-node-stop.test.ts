/**
 * Issue 4 scenario, with real kubelets: a node whose kubelet stops goes Unknown once its Lease
 * is 50 s old, is tainted unreachable, its pods are marked not Ready and evicted after their
 * 300 s toleration; they stay Terminating until the kubelet comes back, which stops their
 * containers and removes them; the node is Ready again and its taints go.
 */
import { strict as assert } from 'node:assert';
import { kubeletHarness } from './harness';
import { Client, componentUserAgent } from '../../../src/engine/client/client';
import { SharedInformerFactory } from '../../../src/engine/client/informer';
import { CONTROLLER_MANAGER_USER, serviceAccountUser } from '../../../src/engine/apiserver/authn/user';
import { NodeLifecycleController, NODE_CONTROLLER_ACCOUNT } from '../../../src/engine/controllers/nodelifecycle/controller';
import { TaintEvictionController, TAINT_EVICTION_ACCOUNT } from '../../../src/engine/controllers/tainteviction/controller';
import type { ControllerDeps } from '../../../src/engine/controllers/util/deps';
import type { JsonObject } from '../../../src/engine/api/types';

describe('kubelet scenario: a stopped node', () => {
  it('goes Unknown, its pods are evicted after 300 s, and the kubelet finishes them when it returns', async () => {
    const h = await kubeletHarness([{ zone: 'zone-a' }, { zone: 'zone-b' }]);
    const { server, clock, random, trace } = h.cluster;
    const kcm = new Client({ server, user: CONTROLLER_MANAGER_USER, userAgent: componentUserAgent('kube-controller-manager', 'shared-informers') });
    const informers = new SharedInformerFactory({ client: kcm, clock, random: random.fork('kcm'), component: 'kube-controller-manager' });
    const deps = (account: string): ControllerDeps => ({
      client: new Client({ server, user: serviceAccountUser('kube-system', account), userAgent: componentUserAgent('kube-controller-manager', account) }),
      informers,
      clock,
      random: random.fork(account),
      trace,
    });
    const lifecycle = new NodeLifecycleController(deps(NODE_CONTROLLER_ACCOUNT));
    const eviction = new TaintEvictionController(deps(TAINT_EVICTION_ACCOUNT));
    informers.start();
    void lifecycle.run();
    void eviction.run();

    await h.createPod({ metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } });
    await h.cluster.advance(10_000);
    const taints = async (name: string) => (((await h.getNode(name)).spec as JsonObject).taints as JsonObject[] | undefined ?? []).map((t) => `${t.key}:${t.effect}`);
    const ready = async (name: string) => (((await h.getNode(name)).status as JsonObject).conditions as JsonObject[]).find((c) => c.type === 'Ready')!;
    assert.deepEqual(await taints('node-1'), [], 'Ready: the registration taint is gone');
    assert.equal((await h.getPod('web')).status?.phase, 'Running');

    const stoppedAt = h.elapsed();
    h.kubelet.stop();
    await h.cluster.advance(60_000);
    const unknown = await ready('node-1');
    assert.deepEqual([unknown.status, unknown.reason, unknown.message], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.']);
    await h.cluster.advance(10_000);
    assert.deepEqual(await taints('node-1'), ['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']);
    assert.equal((await h.getPod('web')).status?.conditions?.find((c) => c.type === 'Ready')?.status, 'False', 'MarkPodsNotReady');
    assert.equal((await ready('node-2')).status, 'True');

    await h.cluster.advance(300_000);
    const evicted = await h.getPod('web');
    assert.ok(evicted.metadata.deletionTimestamp, 'evicted once the 300 s toleration ran out');
    assert.equal(evicted.status?.phase, 'Running', 'the kubelet is not there to stop it');
    assert.ok(h.elapsed() - stoppedAt >= 340_000);

    await h.kubelet.start();
    await h.cluster.advance(20_000);
    await assert.rejects(h.getPod('web'), /pods "web" not found/);
    assert.equal((await ready('node-1')).status, 'True');
    assert.deepEqual(await taints('node-1'), []);
    // Back from Unknown, each condition's setter records its transition again (aggregated: count 2).
    const nodeEvents = (await h.rawEvents()).filter((e) => e.source.component === 'kubelet' && e.involvedObject.name === 'node-1');
    assert.deepEqual(nodeEvents.map((e) => `${e.reason} x${e.count}`), [
      'Starting x2',
      'NodeHasSufficientMemory x2',
      'NodeHasNoDiskPressure x2',
      'NodeHasSufficientPID x2',
      'NodeReady x2',
      'NodeAllocatableEnforced x2',
    ]);
    const nodeController = await h.events('default', (e) => e.source.component === 'node-controller' && e.involvedObject.name === 'node-1');
    assert.ok(nodeController.includes('Normal NodeNotReady Node node-1 status is now: NodeNotReady'), nodeController.join('\n'));
    lifecycle.shutDown();
    eviction.shutDown();
    await h.close();
  });
});
