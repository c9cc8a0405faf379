import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { parseSelector, Selector } from '../../../src/engine/api/labels';
import { nodeView, podView } from '../../../src/extension/panel/state-views';
import type { NodeView, PodView } from '../../../src/protocol/cluster-state';
import type { SchedulingAttemptRecord } from '../../../src/protocol/trace-records';
import { AttemptIndex } from '../../../webview/model/attempts';
import type { ClusterState } from '../../../webview/model/history';
import { CELL, layoutMap, NO_FILTERS, SQUARE } from '../../../webview/model/map-layout';
import { nodeState, podTone } from '../../../webview/model/tones';
import { insufficientText, podVerdicts, rejectionText } from '../../../webview/model/verdicts';

function node(name: string, zone: string, extra: Partial<NodeView> = {}): NodeView {
  return { kind: 'Node', uid: name, name, rv: 1, labels: {}, deleting: false, status: 'Ready', ready: { type: 'Ready', status: 'True' }, unschedulable: false, taints: [], zone, roles: [], allocatable: { milliCPU: 4000, memory: 16 * 2 ** 30, pods: 110 }, ...extra };
}

function pod(name: string, nodeName: string | undefined, extra: Partial<PodView> = {}): PodView {
  return {
    kind: 'Pod',
    uid: `uid-${name}`,
    name,
    namespace: 'default',
    rv: 1,
    labels: { app: name.split('-')[0]! },
    deleting: false,
    phase: 'Running',
    status: 'Running',
    ready: '1/1',
    readyCondition: true,
    restarts: 0,
    requests: { milliCPU: 100, memory: 128 * 2 ** 20 },
    containers: ['c'],
    ...(nodeName ? { node: nodeName } : {}),
    ...extra,
  };
}

function state(nodes: NodeView[], pods: PodView[]): ClusterState {
  return {
    held: true,
    revision: 10,
    nodes: new Map(nodes.map((n) => [n.name, n])),
    pods: new Map(pods.map((p) => [`${p.namespace}/${p.name}`, p])),
    deployments: new Map(),
    replicaSets: new Map([['default/web-1', { kind: 'ReplicaSet', uid: 'rs', name: 'web-1', namespace: 'default', rv: 1, labels: {}, deleting: false, replicas: 2, selector: {}, statusReplicas: 2, readyReplicas: 2, availableReplicas: 2, owner: { kind: 'Deployment', name: 'web', uid: 'd' } }]]),
    services: new Map(),
    endpointSlices: new Map(),
    machines: new Map(nodes.map((n) => [n.name, n.name !== 'stopped'])),
  };
}

const OPTIONS = { aspect: 2, viewportWidth: 1400 };

describe('panel map model', () => {
  describe('pod tones are kubectl STATUS words', () => {
    const table: [Partial<PodView>, string][] = [
      [{ status: 'Pending', phase: 'Pending', readyCondition: false }, 'pending'],
      [{ status: 'SchedulingGated', phase: 'Pending', readyCondition: false }, 'pending'],
      [{ status: 'ContainerCreating', phase: 'Pending', readyCondition: false }, 'creating'],
      [{ status: 'Init:0/2', phase: 'Pending', readyCondition: false }, 'creating'],
      [{ status: 'PodInitializing', phase: 'Pending', readyCondition: false }, 'creating'],
      [{ status: 'Running', phase: 'Running', readyCondition: false }, 'running'],
      [{ status: 'Running', phase: 'Running', readyCondition: true }, 'ready'],
      [{ status: 'NotReady', phase: 'Running', readyCondition: false }, 'running'],
      [{ status: 'Terminating', phase: 'Running', readyCondition: true }, 'terminating'],
      [{ status: 'Error', phase: 'Failed', readyCondition: false }, 'failed'],
      [{ status: 'OOMKilled', phase: 'Running', readyCondition: false }, 'failed'],
      [{ status: 'ExitCode:3', phase: 'Failed', readyCondition: false }, 'failed'],
      [{ status: 'CreateContainerConfigError', phase: 'Pending', readyCondition: false }, 'failed'],
      [{ status: 'CrashLoopBackOff', phase: 'Running', readyCondition: false }, 'crashloop'],
      [{ status: 'Init:CrashLoopBackOff', phase: 'Pending', readyCondition: false }, 'crashloop'],
      [{ status: 'ImagePullBackOff', phase: 'Pending', readyCondition: false }, 'imagepull'],
      [{ status: 'ErrImagePull', phase: 'Pending', readyCondition: false }, 'imagepull'],
      [{ status: 'Init:ErrImagePull', phase: 'Pending', readyCondition: false }, 'imagepull'],
      [{ status: 'Completed', phase: 'Succeeded', readyCondition: false }, 'succeeded'],
      [{ status: 'Unknown', phase: 'Running', readyCondition: false }, 'unknown'],
    ];
    for (const [p, tone] of table) it(`${p.status} (${p.phase}, ready ${p.readyCondition}) -> ${tone}`, () => assert.equal(podTone(pod('x', 'n', p)), tone));

    it('reads STATUS from the stored pod through the engine printer (printPod)', () => {
      const stored = (waiting: string): KubeObject => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'default', uid: 'u', resourceVersion: '7' },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '250m', memory: '64Mi' } } }] },
        status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: [{ name: 'c', ready: false, restartCount: 4, state: { waiting: { reason: waiting } } }] },
      });
      const v = podView(stored('CrashLoopBackOff'), 0);
      assert.deepEqual([v.status, v.ready, v.restarts, v.node, v.rv, v.requests], ['CrashLoopBackOff', '0/1', 4, 'n1', 7, { milliCPU: 250, memory: 64 * 2 ** 20 }]);
      assert.equal(podTone(v), 'crashloop');
      assert.equal(podTone(podView(stored('ImagePullBackOff'), 0)), 'imagepull');
    });
  });

  it('node state: Ready, NotReady, Unknown, cordoned, tainted, stopped', () => {
    const stored: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', uid: 'u', resourceVersion: '3', labels: { 'topology.kubernetes.io/zone': 'z' } }, spec: { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }, status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' }] } };
    const v = nodeView(stored);
    assert.equal(v.status, 'NotReady,SchedulingDisabled');
    assert.deepEqual(v.allocatable, { milliCPU: 4000, memory: 16 * 2 ** 30, pods: 110 });
    assert.deepEqual(nodeState(v, false), { health: 'unknown', cordoned: true, tainted: true, stopped: true, status: 'NotReady,SchedulingDisabled' });
    assert.equal(nodeState(node('a', 'z', { ready: { type: 'Ready', status: 'False' }, taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }), true).health, 'notready');
    assert.equal(nodeState(node('a', 'z', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }), true).tainted, false, 'PreferNoSchedule only steers scoring');
  });

  it('places every pod in its node box, the unbound ones in the queue, grouped by owner', () => {
    const rs = { kind: 'ReplicaSet', name: 'web-1', uid: 'rs' };
    const pods = [pod('web-b', 'n1', { owner: rs }), pod('solo', 'n1'), pod('web-a', 'n1', { owner: rs }), pod('db-0', 'n2'), pod('big', undefined, { status: 'Pending', phase: 'Pending', readyCondition: false })];
    const m = layoutMap(state([node('n2', 'zone-b'), node('n1', 'zone-a')], pods), NO_FILTERS, OPTIONS);
    assert.deepEqual(m.queue.cells.map((c) => c.key), ['default/big']);
    const n1 = m.byNode.get('n1')!;
    // Groups by their controller's name ("ReplicaSet web-1" before "no controller"); within a group, by name.
    assert.deepEqual(n1.cells.map((c) => `${c.view.name}:${c.group}`), ['web-a:0', 'web-b:0', 'solo:1']);
    assert.equal(m.zones.map((z) => z.zone).join(), 'zone-a,zone-b');
    for (const c of m.cells.values()) {
      assert.equal(m.podAt(c.x + SQUARE / 2, c.y + SQUARE / 2)?.key, c.key, `${c.key} is hit at its square`);
      assert.equal(m.podAt(c.x + SQUARE + (CELL - SQUARE) / 2, c.y + SQUARE / 2), undefined, 'the gap belongs to no pod');
      if (c.node) {
        const box = m.nodeAt(c.x, c.y)!;
        assert.equal(box.name, c.node);
        assert.ok(c.x >= box.x && c.x + SQUARE <= box.x + box.w && c.y + SQUARE <= box.y + box.h, `${c.key} lies inside ${box.name}`);
      }
    }
    assert.deepEqual(n1.cpu, { requested: 300, allocatable: 4000 });
    assert.deepEqual(n1.pods, { requested: 3, allocatable: 110 });
    // No two boxes overlap.
    for (const a of m.nodes) for (const b of m.nodes) if (a !== b) assert.ok(a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y);
  });

  it('finished pods do not count against allocatable; filters fade pods in place', () => {
    const rs = { kind: 'ReplicaSet', name: 'web-1', uid: 'rs' };
    const pods = [pod('web-a', 'n1', { owner: rs }), pod('done', 'n1', { phase: 'Succeeded', status: 'Completed', readyCondition: false }), pod('other', 'n1', { namespace: 'prod' })];
    const all = layoutMap(state([node('n1', 'z')], pods), NO_FILTERS, OPTIONS);
    assert.deepEqual(all.byNode.get('n1')!.cpu.requested, 200);
    const byOwner = layoutMap(state([node('n1', 'z')], pods), { namespace: '', owner: 'Deployment/web' }, OPTIONS);
    assert.deepEqual([...byOwner.cells.values()].filter((c) => c.matches).map((c) => c.key), ['default/web-a'], 'the Deployment owns its ReplicaSet\u2019s pods');
    const byNs = layoutMap(state([node('n1', 'z')], pods), { namespace: 'prod', owner: '' }, OPTIONS);
    assert.deepEqual([...byNs.cells.values()].filter((c) => c.matches).map((c) => c.key), ['prod/other']);
    const parsed = parseSelector('app in (done,other)');
    assert.ok(parsed.ok && parsed.value instanceof Selector);
    const byLabels = layoutMap(state([node('n1', 'z')], pods), { namespace: '', owner: '', selector: parsed.value }, OPTIONS);
    assert.deepEqual([...byLabels.cells.values()].filter((c) => c.matches).map((c) => c.key).sort(), ['default/done', 'prod/other']);
    assert.equal(byLabels.matching, 2);
    assert.equal(byLabels.cells.size, 3, 'non-matching pods stay where they are');
  });

  it('1,000 nodes and 30,000 pods lay out without overlaps', () => {
    const nodes = Array.from({ length: 1000 }, (_, i) => node(`node-${i}`, `zone-${i % 3}`));
    const pods = Array.from({ length: 30_000 }, (_, i) => pod(`p-${i}`, `node-${i % 1000}`));
    const m = layoutMap(state(nodes, pods), NO_FILTERS, { aspect: 1400 / 700, viewportWidth: 1400 });
    assert.equal(m.cells.size, 30_000);
    assert.equal(m.nodes.length, 1000);
    const ratio = m.width / m.height;
    assert.ok(ratio > 0.8 && ratio < 4, `the world is about the viewport's shape (${m.width}x${m.height})`);
    for (let i = 0; i < 1000; i += 37) {
      const b = m.nodes[i]!;
      assert.equal(m.nodeAt(b.x + 1, b.y + 1)?.name, b.name);
    }
  });

  describe('the scheduler verdict for a pod', () => {
    const attempt: SchedulingAttemptRecord = {
      type: 'scheduler.attempt',
      id: 50,
      time: 0,
      component: 'kube-scheduler',
      pod: { namespace: 'default', name: 'big', uid: 'uid-big' },
      cycle: 3,
      attempt: 1,
      outcome: 'unschedulable',
      message: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.',
      numAllNodes: 3,
      evaluatedNodes: 3,
      feasibleNodes: 0,
      searchStart: 0,
      numNodesToFind: 3,
      preFilterSkipped: [],
      filterPlugins: ['NodeUnschedulable', 'TaintToleration', 'NodeResourcesFit'],
      filters: [
        { node: 'cp', code: 'UnschedulableAndUnresolvable', plugin: 'TaintToleration', reasons: ["node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"] },
        { node: 'n1', code: 'UnschedulableAndUnresolvable', plugin: 'NodeResourcesFit', reasons: ['Insufficient cpu'], insufficient: [{ resource: 'cpu', requested: 64000, used: 800, capacity: 4000 }] },
        { node: 'n2', code: 'Unschedulable', plugin: 'NodeResourcesFit', reasons: ['Too many pods', 'Insufficient memory'], insufficient: [{ resource: 'pods', requested: 1, used: 110, capacity: 110 }, { resource: 'memory', requested: 2 ** 31, used: 15 * 2 ** 30, capacity: 16 * 2 ** 30 }] },
      ],
      rejectionsByPlugin: { TaintToleration: 1, NodeResourcesFit: 2 },
      ranking: [],
    };

    it("paints each node with the filter that turned it away and the record's amounts", () => {
      const v = podVerdicts(attempt, ['cp', 'n1', 'n2', 'n3']);
      const text = (n: string) => {
        const x = v.byNode.get(n)!;
        return x.verdict === 'rejected' ? x.text : x.verdict;
      };
      assert.equal(text('n1'), 'NodeResourcesFit: Insufficient cpu: 64 requested, 3.2 free of 4');
      assert.equal(text('n2'), 'NodeResourcesFit: Too many pods: 110 of 110 pods on the node; Insufficient memory: 2Gi requested, 1Gi free of 16Gi');
      assert.match(text('cp'), /^TaintToleration: node\(s\) had untolerated taint/);
      assert.equal(text('n3'), 'not evaluated');
      assert.equal(insufficientText('Insufficient cpu', undefined), 'Insufficient cpu', 'an older record without amounts keeps upstream\u2019s reason');
      assert.equal(rejectionText({ node: 'x', code: 'Unschedulable', plugin: 'NodeAffinity', reasons: ["node(s) didn't match Pod's node affinity/selector"] }), "NodeAffinity: node(s) didn't match Pod's node affinity/selector");
    });

    it('feasible nodes carry their total score, the chosen one is marked', () => {
      const scheduled: SchedulingAttemptRecord = {
        ...attempt,
        outcome: 'scheduled',
        node: 'n2',
        feasibleNodes: 2,
        filters: [attempt.filters![0]!, { node: 'n1', code: 'Success', plugin: '', reasons: [] }, { node: 'n2', code: 'Success', plugin: '', reasons: [] }],
        ranking: [{ node: 'n2', score: 180 }, { node: 'n1', score: 150 }],
      };
      const v = podVerdicts(scheduled, ['cp', 'n1', 'n2']);
      assert.deepEqual(v.byNode.get('n2'), { node: 'n2', verdict: 'chosen', score: 180 });
      assert.deepEqual(v.byNode.get('n1'), { node: 'n1', verdict: 'feasible', score: 150 });
      assert.match(v.headline, /scheduled to n2 \(2 of 3 evaluated nodes feasible\)/);
    });

    it('finds the attempt as of a revision: attempts written after it do not count', () => {
      const index = new AttemptIndex();
      const rev = (id: number, revision: number) => ({ type: 'store.revision', id, time: 0, component: 'etcd', revision, key: 'k', operation: 'update', group: '', resource: 'pods', name: 'big', change: '' }) as const;
      index.add([rev(40, 100), attempt, rev(60, 101), { ...attempt, id: 70, attempt: 2 }, rev(80, 102)]);
      assert.equal(index.latest('uid-big', 99), undefined);
      assert.equal(index.latest('uid-big', 100)?.attempt, 1);
      assert.equal(index.latest('uid-big', 101)?.attempt, 2);
      assert.equal(index.latest('uid-big', undefined)?.attempt, 2);
      index.dropBelow(65);
      assert.equal(index.latest('uid-big', 100), undefined, 'a record that fell off is not held');
    });
  });
});
