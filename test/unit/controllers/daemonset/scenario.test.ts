/** DaemonSets against the API server: a pod per eligible node, status, and a node-by-node rollout. */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { DaemonSetController, DAEMONSET_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/daemonset/controller';
import { CONTROLLERREVISIONS, DAEMONSETS, NODES, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { DaemonSet } from '../../../../src/engine/controllers/daemonset/types';
import type { Pod } from '../../../../src/engine/controllers/util/types/workload';

async function pods(h: ControllerHarness): Promise<Pod[]> {
  return (await h.admin.resource<Pod>(PODS, 'kube-system').list()).items as Pod[];
}

const nodeOf = (p: Pod): string => (p.spec as { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: { matchFields: { values: string[] }[] }[] } } } }).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]!.matchFields[0]!.values[0]!;

/** The scheduler and kubelet: bind each new pod to its node and report it Ready; confirm deletions. */
async function kubelets(h: ControllerHarness): Promise<void> {
  const client = h.admin.resource<Pod>(PODS, 'kube-system');
  for (const p of await pods(h)) {
    if (p.metadata.deletionTimestamp) {
      await client.delete(p.metadata.name ?? '', { gracePeriodSeconds: 0 });
      continue;
    }
    if (p.status?.phase === 'Running') continue;
    if (!(p.spec as { nodeName?: string }).nodeName) {
      await client.bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name: p.metadata.name ?? '' }, target: { apiVersion: 'v1', kind: 'Node', name: nodeOf(p) } } as KubeObject);
    }
    const pod = deepCopy(await client.get(p.metadata.name ?? ''));
    pod.status = { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: h.clock.rfc3339() }] };
    await client.updateStatus(pod);
  }
  await h.clock.settle();
}

describe('controllers/daemonset scenario', () => {
  it('runs one pod per eligible node and rolls a new template out node by node', async () => {
    const h = await controllerHarness();
    await h.admin.resource(SERVICEACCOUNTS, 'kube-system').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    // Ready nodes: the node lifecycle controller has taken the registration's not-ready taint off.
    for (const [name, taints] of [['node-1', []], ['node-2', []], ['dedicated', [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]]] as const) {
      const node = deepCopy(await h.admin.resource(NODES).create({ apiVersion: 'v1', kind: 'Node', metadata: { name } }));
      node.spec = { taints: taints.length > 0 ? [...taints] : null };
      await h.admin.resource(NODES).update(node);
    }
    h.start(new DaemonSetController(h.deps(DAEMONSET_CONTROLLER_ACCOUNT)));
    const template = (image: string) => ({ metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image }] } });
    await h.admin.resource(DAEMONSETS, 'kube-system').create({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent:1') } } as KubeObject);
    await h.clock.settle();

    let list = await pods(h);
    assert.deepEqual(list.map(nodeOf).sort(), ['node-1', 'node-2'], 'not on the node whose taint it does not tolerate');
    const tolerations = (list[0]!.spec as { tolerations: { key: string; effect: string }[] }).tolerations.map((t) => `${t.key}:${t.effect}`);
    assert.deepEqual(tolerations, [
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
    const firstHash = list[0]!.metadata.labels?.['controller-revision-hash'];
    assert.ok(firstHash);
    assert.equal(list[0]!.metadata.labels?.['pod-template-generation'], '1');
    const revisions = (await h.admin.resource(CONTROLLERREVISIONS, 'kube-system').list()).items as (KubeObject & { revision: number })[];
    assert.deepEqual(revisions.map((r) => [r.metadata.name, r.revision]), [[`agent-${firstHash}`, 1]]);

    await kubelets(h);
    let ds = await h.admin.resource<DaemonSet>(DAEMONSETS, 'kube-system').get('agent');
    assert.deepEqual(ds.status, { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 2, observedGeneration: 1, updatedNumberScheduled: 2, numberAvailable: 2 });

    const changed = deepCopy(ds);
    changed.spec.template = template('agent:2');
    await h.admin.resource<DaemonSet>(DAEMONSETS, 'kube-system').update(changed);
    await h.clock.settle();
    list = await pods(h);
    assert.equal(list.filter((p) => p.metadata.deletionTimestamp).length, 1, 'one node at a time (maxUnavailable 1)');
    assert.equal(list.length, 2);
    for (let i = 0; i < 4; i++) await kubelets(h);
    list = await pods(h);
    assert.equal(list.length, 2);
    assert.ok(list.every((p) => p.metadata.labels?.['controller-revision-hash'] !== firstHash && p.metadata.labels?.['pod-template-generation'] === '2'));
    ds = await h.admin.resource<DaemonSet>(DAEMONSETS, 'kube-system').get('agent');
    assert.equal(ds.status?.updatedNumberScheduled, 2);
    assert.equal(ds.status?.numberAvailable, 2);
    await h.close();
  });
});
