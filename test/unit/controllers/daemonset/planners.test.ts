/** daemon_controller_test.go predicates and rolling_update_test.go replacement choices. */
import { strict as assert } from 'node:assert';
import { daemonPod, daemonPodSpec } from '../../../../src/engine/controllers/daemonset/pod-template';
import { nodeShouldRunDaemonPod } from '../../../../src/engine/controllers/daemonset/predicates';
import { maxUnavailable, oldPodsToDelete } from '../../../../src/engine/controllers/daemonset/rolling';
import type { DaemonSet } from '../../../../src/engine/controllers/daemonset/types';
import type { Pod } from '../../../../src/engine/controllers/util/types/workload';
import type { Node } from '../../../../src/engine/scheduler/api';

const ds = (spec: Record<string, unknown> = {}): DaemonSet => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'kube-system', uid: 'ds-uid', generation: 3 },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } },
});
const node = (name: string, labels: Record<string, string> = {}, taints: Node['spec'] = {}): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: taints });

describe('controllers/daemonset planners', () => {
  it('nodeShouldRunDaemonPod: selector, affinity, taints (NoSchedule stops new pods, NoExecute evicts)', () => {
    const plain = daemonPodSpec(ds());
    assert.deepEqual(nodeShouldRunDaemonPod(plain, node('a')), { shouldRun: true, shouldContinueRunning: true });
    assert.deepEqual(nodeShouldRunDaemonPod(plain, node('a', {}, { taints: [{ key: 'x', effect: 'NoSchedule' }] })), { shouldRun: false, shouldContinueRunning: true });
    assert.deepEqual(nodeShouldRunDaemonPod(plain, node('a', {}, { taints: [{ key: 'x', effect: 'NoExecute' }] })), { shouldRun: false, shouldContinueRunning: false });
    assert.deepEqual(nodeShouldRunDaemonPod(plain, node('a', {}, { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] })).shouldRun, true, 'cordoned nodes still run daemons');
    const selective = daemonPodSpec(ds({ nodeSelector: { gpu: 'true' } }));
    assert.equal(nodeShouldRunDaemonPod(selective, node('a')).shouldRun, false);
    assert.equal(nodeShouldRunDaemonPod(selective, node('a', { gpu: 'true' })).shouldRun, true);
  });

  it('daemon pods: network-unavailable toleration for host network, pinned by metadata.name keeping other requirements', () => {
    const host = daemonPodSpec(ds({ hostNetwork: true }));
    assert.ok((host.tolerations as { key: string }[]).some((t) => t.key === 'node.kubernetes.io/network-unavailable'));
    const pod = daemonPod(ds({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'os', operator: 'In', values: ['linux'] }] }] } } } }), 'node-7', 'abc');
    assert.deepEqual((pod.spec as { affinity: unknown }).affinity, {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'os', operator: 'In', values: ['linux'] }], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-7'] }] }] } },
    });
    assert.deepEqual(pod.metadata.labels, { app: 'agent', 'controller-revision-hash': 'abc', 'pod-template-generation': '3' });
    assert.equal(pod.metadata.generateName, 'agent-');
  });

  it('rolling update: at most maxUnavailable old available pods at a time; unavailable old pods go at once', () => {
    const p = (name: string, hash: string, ready: boolean): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { 'controller-revision-hash': hash } }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
    const nodes = new Map([
      ['n1', [p('a', 'old', true)]],
      ['n2', [p('b', 'old', true)]],
      ['n3', [p('c', 'old', false)]],
      ['n4', [p('d', 'new', true)]],
    ]);
    assert.deepEqual(oldPodsToDelete(ds(), nodes, 'new', 1, 0).map((x) => x.metadata.name), ['c', 'a']);
    nodes.set('n4', [p('d', 'new', false)]);
    assert.deepEqual(oldPodsToDelete(ds(), nodes, 'new', 1, 0).map((x) => x.metadata.name), ['c']);
    assert.equal(maxUnavailable(ds(), 10), 1);
    const pct = ds();
    pct.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%' } };
    assert.equal(maxUnavailable(pct, 10), 3);
  });
});
