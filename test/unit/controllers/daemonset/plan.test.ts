/**
 * The DaemonSet controller's planners (plan.ts), table-driven after upstream's
 * pkg/controller/daemon/daemon_controller_test.go: each case names the test it follows. Upstream
 * counts the creates and deletes one sync asks its fake pod control for; here the plan says them.
 */
import { strict as assert } from 'node:assert';
import { calculateStatus, planNodes, podsByNode, FAILED_POD_BACKOFF_MS, type FailedPodBackoff } from '../../../../src/engine/controllers/daemonset/plan';
import { daemonPod, daemonPodSpec } from '../../../../src/engine/controllers/daemonset/pod-template';
import type { DaemonSet } from '../../../../src/engine/controllers/daemonset/types';
import type { Node } from '../../../../src/engine/controllers/util/types/node';
import type { Pod } from '../../../../src/engine/controllers/util/types/workload';

const simpleDaemonSetLabel = { name: 'simple-daemon', type: 'production' };
const simpleDaemonSetLabel2 = { name: 'simple-daemon', type: 'test' };
const simpleNodeLabel = { color: 'blue', speed: 'fast' };

/** newDaemonSet: selects simpleDaemonSetLabel, one container. */
function newDaemonSet(name: string, strategy: 'RollingUpdate' | 'OnDelete' = 'RollingUpdate'): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default', uid: `${name}-uid`, generation: 1 },
    spec: {
      selector: { matchLabels: { ...simpleDaemonSetLabel } },
      updateStrategy: { type: strategy },
      template: { metadata: { labels: { ...simpleDaemonSetLabel } }, spec: { containers: [{ name: 'foo', image: 'foo/bar' }] } },
    },
  };
}

function newNode(name: string, labels: Record<string, string> = {}): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: {}, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
}

/** addNodes(store, start, count, labels): node-<start> ... */
function addNodes(nodes: Node[], start: number, count: number, labels?: Record<string, string>): void {
  for (let i = start; i < start + count; i++) nodes.push(newNode(`node-${i}`, labels));
}

let podSeq = 0;
/** newPod: a pod of the DaemonSet on the node, created in sequence, of the current revision (hash h1). */
function newPod(ds: DaemonSet, nodeName: string, labels: Record<string, string>, phase = 'Running'): Pod {
  podSeq++;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${nodeName}-pod-${podSeq}`, namespace: 'default', labels: { 'controller-revision-hash': 'h1', ...labels }, creationTimestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, podSeq)).toISOString(), ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name ?? '', uid: ds.metadata.uid ?? '', controller: true }] },
    spec: { nodeName, containers: [{ name: 'foo', image: 'foo/bar' }] },
    status: { phase },
  };
}

function addPods(pods: Pod[], ds: DaemonSet, nodeName: string, labels: Record<string, string>, count: number, phase?: string): void {
  for (let i = 0; i < count; i++) pods.push(newPod(ds, nodeName, labels, phase));
}

/**
 * One sync's plan. `pods` are what getDaemonPods answers: upstream's claim releases the pods the
 * selector does not match, so only the matching ones reach the node loop.
 */
function plan(ds: DaemonSet, nodes: readonly Node[], pods: readonly Pod[], backoff: ReadonlyMap<string, FailedPodBackoff> = new Map(), now = 0) {
  const selector = ds.spec.selector.matchLabels ?? {};
  const claimed = pods.filter((p) => Object.entries(selector).every(([k, v]) => p.metadata.labels?.[k] === v));
  return planNodes({ ds, nodes, byNode: podsByNode(claimed), podSpec: daemonPodSpec(ds), hash: 'h1', now, backoff: (n) => backoff.get(n) });
}

type Labels = Record<string, string>;

interface Case {
  /** The upstream test the case follows. */
  test: string;
  /** addNodes calls: [start, count, labels]. */
  nodes?: [number, number, Labels?][];
  /** addPods calls: [node, labels, count, phase]. */
  pods?: [string, Labels, number, string?][];
  nodeSelector?: Labels;
  /** Anything else the test sets on the DaemonSet or adds as nodes. */
  setup?: (nodes: Node[], ds: DaemonSet) => void;
  creates: number;
  deletes: number;
  events?: number;
}

const L1 = simpleDaemonSetLabel;
const L2 = simpleDaemonSetLabel2;
const N = simpleNodeLabel;
const tainted = (effect: string, key = 'dedicated', value = 'master') => (nodes: Node[]): void => {
  const node = newNode('tainted');
  node.spec = { taints: [{ key, value, effect }] };
  nodes.push(node);
};
const tolerated = (effect: string) => (nodes: Node[], ds: DaemonSet): void => {
  tainted(effect)(nodes);
  ds.spec.template.spec!.tolerations = [{ key: 'dedicated', operator: 'Equal', value: 'master', effect }];
};
const withCondition = (name: string, type: string, status: string) => (nodes: Node[]): void => {
  const node = newNode(name);
  node.status = { conditions: [{ type, status }] };
  nodes.push(node);
};
const affinity = (term: object) => (nodes: Node[], ds: DaemonSet): void => {
  ds.spec.template.spec!.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } } };
  addNodes(nodes, 0, 4);
  addNodes(nodes, 4, 3, N);
};

const cases: Case[] = [
  { test: 'TestSimpleDaemonSetLaunchesPods', nodes: [[0, 5]], creates: 5, deletes: 0 },
  { test: 'TestNoNodesDoesNothing', creates: 0, deletes: 0 },
  { test: 'TestOneNodeDaemonLaunchesPod', setup: (nodes) => nodes.push(newNode('only-node')), creates: 1, deletes: 0 },
  { test: 'TestNotReadyNodeDaemonDoesLaunchPod', setup: withCondition('not-ready', 'Ready', 'False'), creates: 1, deletes: 0 },
  { test: 'TestNetworkUnavailableNodeDaemonLaunchesPod', setup: withCondition('network-unavailable', 'NetworkUnavailable', 'True'), creates: 1, deletes: 0 },
  { test: 'TestDealsWithExistingPods', nodes: [[0, 5]], pods: [['node-1', L1, 1], ['node-2', L1, 2], ['node-3', L1, 5], ['node-4', L2, 2]], creates: 2, deletes: 5 },
  { test: 'TestSelectorDaemonLaunchesPods', nodeSelector: N, nodes: [[0, 4], [4, 3, N]], creates: 3, deletes: 0 },
  { test: 'TestSelectorDaemonDeletesUnselectedPods', nodeSelector: N, nodes: [[0, 5], [5, 5, N]], pods: [['node-0', L2, 2], ['node-1', L1, 3], ['node-1', L2, 1], ['node-4', L1, 1]], creates: 5, deletes: 4 },
  {
    test: 'TestSelectorDaemonDealsWithExistingPods',
    nodeSelector: N,
    nodes: [[0, 5], [5, 5, N]],
    pods: [['node-0', L1, 1], ['node-1', L1, 3], ['node-1', L2, 2], ['node-2', L1, 4], ['node-6', L1, 13], ['node-7', L2, 4], ['node-9', L1, 1], ['node-9', L2, 1]],
    creates: 3,
    deletes: 20,
  },
  { test: 'a node selector no node matches (kubesim case)', nodeSelector: { ...N, color: 'red' }, nodes: [[0, 4], [4, 3, N]], creates: 0, deletes: 0 },
  { test: 'TestNodeAffinityDaemonLaunchesPods (metadata.name field)', setup: affinity({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-0'] }] }), creates: 1, deletes: 0 },
  { test: 'TestNodeAffinityDaemonLaunchesPods', setup: affinity({ matchExpressions: [{ key: 'color', operator: 'In', values: ['blue'] }] }), creates: 3, deletes: 0 },
  { test: 'TestTaintedNodeDaemonDoesNotLaunchIntolerantPod', setup: tainted('NoSchedule'), creates: 0, deletes: 0 },
  { test: 'TestTaintedNodeDaemonLaunchesToleratePod', setup: tolerated('NoSchedule'), creates: 1, deletes: 0 },
  { test: 'a tolerated NoExecute taint (kubesim case, after TestTaintedNodeDaemonLaunchesToleratePod)', setup: tolerated('NoExecute'), creates: 1, deletes: 0 },
  { test: 'TestTaintOutOfServiceNodeDaemonDoesNotLaunchIntolerantPod', setup: tainted('NoExecute', 'node.kubernetes.io/out-of-service', 'nodeshutdown'), creates: 0, deletes: 0 },
  {
    test: 'TestUnschedulableNodeDaemonDoesLaunchPod',
    setup: (nodes, ds) => {
      ds.spec.template.spec!.hostNetwork = true;
      const node = newNode('tainted');
      node.spec = { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }] };
      nodes.push(node);
    },
    creates: 1,
    deletes: 0,
  },
  { test: 'pods on a node that is gone are deleted (kubesim case)', nodes: [[0, 1]], pods: [['node-0', L1, 1], ['node-gone', L1, 2]], creates: 0, deletes: 2 },
];

// TestDaemonKillFailedPods: every failed pod is killed (one FailedDaemonPod event each), at most one pod is kept per node.
const killFailed: [string, number, number, number, number, number][] = [
  // [test, numFailedPods, numNormalPods, expectedCreates, expectedDeletes, expectedEvents]
  ['normal (do nothing)', 0, 1, 0, 0, 0],
  ['no pods (create 1)', 0, 0, 1, 0, 0],
  ['1 failed pod (kill 1), 0 normal pod (create 0; will create in the next sync)', 1, 0, 0, 1, 1],
  ['1 failed pod (kill 1), 3 normal pods (kill 2)', 1, 3, 0, 3, 1],
  ['2 failed pods (kill 2), 1 normal pod', 2, 1, 0, 2, 2],
];
for (const [name, failed, normal, creates, deletes, events] of killFailed) {
  cases.push({ test: `TestDaemonKillFailedPods: ${name}`, nodes: [[0, 1]], pods: [['node-0', L1, failed, 'Failed'], ['node-0', L1, normal]], creates, deletes, events });
}

describe('controllers/daemonset planNodes (daemon_controller_test.go)', () => {
  for (const c of cases) {
    for (const strategy of ['OnDelete', 'RollingUpdate'] as const) {
      it(`${c.test} [${strategy}]`, () => {
        const ds = newDaemonSet('foo', strategy);
        const nodes: Node[] = [];
        const pods: Pod[] = [];
        if (c.nodeSelector) ds.spec.template.spec!.nodeSelector = { ...c.nodeSelector };
        for (const [start, count, labels] of c.nodes ?? []) addNodes(nodes, start, count, labels);
        for (const [node, labels, count, phase] of c.pods ?? []) addPods(pods, ds, node, labels, count, phase);
        c.setup?.(nodes, ds);
        const out = plan(ds, nodes, pods);
        assert.equal(out.create.length, c.creates, 'creates');
        assert.equal(out.remove.length, c.deletes, 'deletes');
        assert.equal(out.events.length, c.events ?? 0, 'events');
      });
    }
  }

  it('TestDaemonKillFailedPodsBackoff: a node in backoff keeps its failed pod until the wait is over, then the wait doubles', () => {
    const ds = newDaemonSet('foo');
    const nodes = [newNode('node-0')];
    const pods: Pod[] = [];
    addPods(pods, ds, 'node-0', simpleDaemonSetLabel, 1, 'Failed');
    const first = plan(ds, nodes, pods, new Map(), 10_000);
    assert.equal(first.remove.length, 1);
    assert.deepEqual(first.backoff.get('node-0'), { since: 10_000, delay: FAILED_POD_BACKOFF_MS[0] });
    assert.equal(first.events[0]?.reason, 'FailedDaemonPod');
    assert.equal(first.events[0]?.message, `Found failed daemon pod default/${pods[0]!.metadata.name ?? ''} on node node-0, will try to kill it`);
    const waiting = plan(ds, nodes, pods, first.backoff, 10_400);
    assert.deepEqual([waiting.remove.length, waiting.events.length, waiting.requeueAfterMs], [0, 0, 600]);
    const after = plan(ds, nodes, pods, first.backoff, 11_000);
    assert.deepEqual([after.remove.length, after.backoff.get('node-0')], [1, { since: 11_000, delay: 2000 }]);
    const capped = plan(ds, nodes, pods, new Map([['node-0', { since: 0, delay: FAILED_POD_BACKOFF_MS[1] }]]), FAILED_POD_BACKOFF_MS[1]);
    assert.equal(capped.backoff.get('node-0')?.delay, FAILED_POD_BACKOFF_MS[1]);
  });

  it('TestDaemonSetUpdatesNoTemplateChanged / rolling update: old pods go only when nothing else changes', () => {
    const ds = newDaemonSet('foo');
    const nodes: Node[] = [];
    addNodes(nodes, 0, 5);
    const pods: Pod[] = [];
    for (const n of nodes) {
      const p = newPod(ds, n.metadata.name ?? '', { ...simpleDaemonSetLabel, 'controller-revision-hash': 'h0' });
      p.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
      pods.push(p);
    }
    // A new template (hash h1): maxUnavailable 1 replaces one node's pod per sync.
    assert.equal(plan(ds, nodes, pods).remove.length, 1);
    ds.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } };
    assert.equal(plan(ds, nodes, pods).remove.length, 2);
    ds.spec.updateStrategy = { type: 'OnDelete' };
    assert.equal(plan(ds, nodes, pods).remove.length, 0);
  });
});

describe('controllers/daemonset calculateStatus (updateDaemonSetStatus)', () => {
  it('TestSimpleDaemonSetUpdatesStatusAfterLaunchingPods and the counts over nodes', () => {
    const ds = newDaemonSet('foo');
    ds.spec.template.spec!.nodeSelector = { ...simpleNodeLabel };
    ds.metadata.generation = 4;
    const nodes: Node[] = [];
    addNodes(nodes, 0, 2);
    addNodes(nodes, 2, 3, simpleNodeLabel);
    const ready = (p: Pod): Pod => ({ ...p, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }] } });
    const pods = [
      ready(daemonPod(ds, 'node-2', 'h1')),
      daemonPod(ds, 'node-3', 'h0'),
      ready(daemonPod(ds, 'node-0', 'h1')), // misscheduled: node-0 does not match the selector
    ].map((p, i) => ({ ...p, metadata: { ...p.metadata, name: `p${i}`, creationTimestamp: '2025-01-01T00:00:00Z' } }));
    const view = { ds, nodes, byNode: podsByNode(pods), podSpec: daemonPodSpec(ds), hash: 'h1', now: Date.parse('2025-01-01T00:01:00Z') };
    const out = calculateStatus(view);
    assert.deepEqual(out.status, { currentNumberScheduled: 2, numberMisscheduled: 1, desiredNumberScheduled: 3, numberReady: 1, observedGeneration: 4, updatedNumberScheduled: 1, numberAvailable: 1, numberUnavailable: 2 });
    assert.equal(out.changed, true);
    assert.equal(out.requeueAfterMs, undefined);
    // The same status again is not written.
    assert.equal(calculateStatus({ ...view, ds: { ...ds, status: out.status } }).changed, false);
    // minReadySeconds not yet passed: look again after them.
    const slow = { ...ds, spec: { ...ds.spec, minReadySeconds: 120 } };
    const waiting = calculateStatus({ ...view, ds: slow });
    assert.deepEqual([waiting.status.numberAvailable, waiting.requeueAfterMs], [undefined, 120_000]);
  });
});
