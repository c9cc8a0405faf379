/**
 * Nodes on the full cluster: a node whose kubelet stops goes Unknown once its Lease is older
 * than the node monitor grace period (50 s in 1.35), is tainted unreachable (NoSchedule, then
 * NoExecute), its pods are marked not Ready, evicted after their 300 s toleration and replaced
 * on the other nodes; a pod that fits nowhere gets kube-scheduler's FailedScheduling message and
 * is scheduled once a node that fits joins; cordon and drain.
 */
import { strict as assert } from 'node:assert';
import { scenario, deployment } from './support';
import type { KubeObject } from '../../src/engine/api/types';

interface NodeView extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: { key: string; effect: string }[] };
  status: { conditions: { type: string; status: string; reason: string; message: string }[] };
}

describe('scenario: nodes', () => {
  it('a stopped node goes Unknown, is tainted unreachable, and its pods are evicted after 300 s and replaced elsewhere', async () => {
    const s = await scenario();
    try {
      await s.apply(deployment('web', 3));
      await s.cluster.settle();
      const victim = (await s.pods())[0]!;
      const node = victim.spec.nodeName!;
      const mark = s.cluster.trace.next;
      const stoppedAt = s.elapsed();
      s.cluster.stopNode(node);
      const states: string[] = [];
      let unknownAt = 0;
      let noExecuteAt = 0;
      while (s.elapsed() - stoppedAt < 70) {
        await s.cluster.advance(1000);
        const n = await s.get<NodeView>('nodes', node);
        const ready = n.status.conditions.find((c) => c.type === 'Ready')!;
        const state = `${ready.status} ${ready.reason}: ${ready.message} [${(n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).join(', ')}]`;
        if (states[states.length - 1] !== state) states.push(state);
        if (!unknownAt && ready.status === 'Unknown') unknownAt = s.elapsed() - stoppedAt;
        if (!noExecuteAt && n.spec?.taints?.some((t) => t.effect === 'NoExecute')) noExecuteAt = s.elapsed() - stoppedAt;
      }
      assert.deepEqual(states, [
        'True KubeletReady: kubelet is posting ready status []',
        'Unknown NodeStatusUnknown: Kubelet stopped posting node status. [node.kubernetes.io/unreachable:NoSchedule]',
        'Unknown NodeStatusUnknown: Kubelet stopped posting node status. [node.kubernetes.io/unreachable:NoSchedule, node.kubernetes.io/unreachable:NoExecute]',
      ]);
      // The Lease was last renewed up to 10 s before the stop; Unknown once it is 50 s old (checked every 5 s).
      assert.ok(unknownAt > 40 && unknownAt <= 60, `Unknown after ${unknownAt}s`);
      const marked = (await s.pods()).find((p) => p.metadata.name === victim.metadata.name)!;
      assert.deepEqual(marked.status?.conditions?.find((c) => c.type === 'Ready'), { ...marked.status?.conditions?.find((c) => c.type === 'Ready'), status: 'False' });
      // Not evicted before its 300 s toleration of the unreachable NoExecute taint has run out.
      await s.cluster.advance((noExecuteAt + 295 - (s.elapsed() - stoppedAt)) * 1000);
      assert.equal((await s.pods()).find((p) => p.metadata.name === victim.metadata.name)!.metadata.deletionTimestamp, undefined);
      await s.cluster.advance(10_000);
      await s.cluster.settle();
      const evicted = (await s.pods()).find((p) => p.metadata.name === victim.metadata.name)!;
      assert.ok(evicted.metadata.deletionTimestamp, 'evicted');
      assert.deepEqual(
        evicted.status?.conditions?.find((c) => c.type === 'DisruptionTarget'),
        { ...evicted.status?.conditions?.find((c) => c.type === 'DisruptionTarget'), status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' },
      );
      const pod = `default/${victim.metadata.name}`;
      assert.deepEqual(
        // (The node controller's RegisteredNode of the node's first sighting may land after the mark: not part of this story.)
        s.events((e) => e.id >= mark && e.reason !== 'RegisteredNode' && (e.regarding === `Pod ${pod}` || e.regarding === `Node ${node}`)),
        [`Normal NodeNotReady Node ${node}: Node ${node} status is now: NodeNotReady`, `Warning NodeNotReady Pod ${pod}: Node is not ready`, `Normal TaintManagerEviction Pod ${pod}: Marking for deletion Pod ${pod}`],
      );
      const running = (await s.pods()).filter((p) => !p.metadata.deletionTimestamp);
      assert.equal(running.length, 3);
      assert.ok(running.every((p) => p.spec.nodeName !== node && p.status?.phase === 'Running'), 'the replacement runs on another node');
    } finally {
      await s.close();
    }
  });

  it('an unschedulable pod gets the FailedScheduling message and is scheduled once a node that fits joins', async () => {
    const s = await scenario();
    try {
      await s.apply(`apiVersion: v1
kind: Pod
metadata:
  name: big
spec:
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests:
        cpu: "6"
`);
      await s.cluster.settle();
      const message =
        '0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu. no new claims to deallocate, preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.';
      assert.deepEqual(s.events(), [`Warning FailedScheduling Pod default/big: ${message}`]);
      const [pending] = await s.pods();
      assert.equal(pending!.status?.phase, 'Pending');
      assert.deepEqual(
        pending!.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
        [['PodScheduled', 'False', 'Unschedulable', message]],
      );
      const name = await s.cluster.addNode({ cpu: 8, memory: '32Gi' });
      await s.cluster.settle();
      const [scheduled] = await s.pods();
      assert.equal(scheduled!.spec.nodeName, name);
      assert.equal(scheduled!.status?.phase, 'Running');
      assert.ok(s.events().includes(`Normal Scheduled Pod default/big: Successfully assigned default/big to ${name}`));
    } finally {
      await s.close();
    }
  });

  it('cordon keeps new pods off a node; drain evicts its pods, which are replaced elsewhere', async () => {
    const s = await scenario();
    try {
      await s.apply(deployment('web', 3));
      await s.cluster.settle();
      const node = (await s.pods())[0]!.spec.nodeName!;
      assert.equal(await s.cluster.cordon(node), `node/${node} cordoned`);
      assert.equal(await s.cluster.cordon(node), `node/${node} already cordoned`);
      assert.equal((await s.get<NodeView>('nodes', node)).spec?.unschedulable, true);
      const onNode = (await s.pods()).filter((p) => p.spec.nodeName === node).map((p) => p.metadata.name);
      assert.deepEqual(await s.cluster.drain(node), [`node/${node} already cordoned`, ...onNode.map((n) => `evicting pod default/${n}`)]);
      await s.cluster.settle();
      const pods = await s.pods();
      assert.equal(pods.length, 3);
      assert.ok(pods.every((p) => p.spec.nodeName !== node && p.status?.phase === 'Running'));
      assert.equal(await s.cluster.uncordon(node), `node/${node} uncordoned`);
      await s.apply(`apiVersion: v1
kind: Pod
metadata:
  name: lonely
spec:
  containers:
  - name: app
    image: nginx:1.27
`);
      await s.cluster.settle();
      const lonelyNode = (await s.pods()).find((p) => p.metadata.name === 'lonely')!.spec.nodeName!;
      await assert.rejects(s.cluster.drain(lonelyNode), {
        message: `unable to drain node "${lonelyNode}" due to error: cannot delete cannot delete Pods that declare no controller (use --force to override): default/lonely, continuing command...`,
      });
    } finally {
      await s.close();
    }
  });
});
