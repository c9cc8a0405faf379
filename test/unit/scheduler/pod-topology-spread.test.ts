import { strict as assert } from 'node:assert';
import type { LabelSelector } from '../../../src/engine/api/labels';
import type { Pod, Service, TopologySpreadConstraint } from '../../../src/engine/scheduler/api';
import { PodTopologySpread } from '../../../src/engine/scheduler/plugins/pod-topology-spread';
import { handle, node, pod, runFilter, runScore, snapshot } from './helpers';

const H = 'kubernetes.io/hostname';
const fooSelector: LabelSelector = { matchExpressions: [{ key: 'foo', operator: 'Exists' }] };
const constraint = (maxSkew: number, topologyKey: string, whenUnsatisfiable: string, labelSelector: LabelSelector | null = fooSelector, minDomains?: number): TopologySpreadConstraint => ({
  maxSkew,
  topologyKey,
  whenUnsatisfiable,
  ...(labelSelector !== null ? { labelSelector } : {}),
  ...(minDomains !== undefined ? { minDomains } : {}),
});
const incoming = (constraints: TopologySpreadConstraint[], labels: Record<string, string> = { foo: '' }): Pod => pod({ name: 'p', labels, spec: { topologySpreadConstraints: constraints } });
const on = (nodeName: string, n: number, labels: Record<string, string> = { foo: '' }, namespace?: string): Pod[] =>
  Array.from({ length: n }, () => pod({ nodeName, labels, ...(namespace ? { namespace } : {}) }));
const hostNode = (name: string, extra: Record<string, string> = {}): ReturnType<typeof node> => node(name, { labels: { [H]: name, ...extra } });

/** Scores the candidate nodes with all nodes (candidates and failed ones) in the snapshot. */
function score(p: Pod, candidates: string[], nodes: ReturnType<typeof node>[], existing: Pod[], services: Service[] = []): number[] | 'Skip' {
  const s = snapshot(nodes, existing);
  const plugin = new PodTopologySpread(handle({ snapshot: s, services }));
  return runScore(plugin, p, candidates.map((c) => s.get(c)!));
}

describe('PodTopologySpread: Score (scoring_test.go TestPodTopologySpreadScore)', () => {
  const abcd = ['node-a', 'node-b', 'node-c', 'node-d'];
  const abcdNodes = (): ReturnType<typeof node>[] => abcd.map((n) => hostNode(n));
  const spread2103 = (): Pod[] => [...on('node-a', 2), ...on('node-b', 1), ...on('node-d', 3)];
  const spread4321 = (): Pod[] => [...on('node-a', 4), ...on('node-b', 3), ...on('node-c', 2), ...on('node-d', 1)];

  it('one constraint on node, no existing pods', () =>
    assert.deepEqual(score(incoming([constraint(1, H, 'ScheduleAnyway')]), ['node-a', 'node-b'], [hostNode('node-a'), hostNode('node-b')], []), [100, 100]));
  it('one constraint on node, only one node is candidate', () =>
    assert.deepEqual(score(incoming([constraint(1, H, 'ScheduleAnyway')]), ['node-a'], [hostNode('node-a'), hostNode('node-b')], [...on('node-a', 2), ...on('node-b', 1)]), [100]));
  it('one constraint on node, all nodes have the same number of matching pods', () =>
    assert.deepEqual(score(incoming([constraint(1, H, 'ScheduleAnyway')]), ['node-a', 'node-b'], [hostNode('node-a'), hostNode('node-b')], [...on('node-a', 1), ...on('node-b', 1)]), [100, 100]));
  it('one constraint on node, all 4 nodes are candidates', () =>
    assert.deepEqual(score(incoming([constraint(1, H, 'ScheduleAnyway')]), abcd, abcdNodes(), spread2103()), [20, 60, 100, 0]));
  it('one constraint on node, null selector', () =>
    assert.deepEqual(score(incoming([constraint(1, H, 'ScheduleAnyway', null)]), abcd, abcdNodes(), spread2103()), [100, 100, 100, 100]));
  it('one constraint on node, all 4 nodes are candidates, maxSkew=2', () =>
    assert.deepEqual(score(incoming([constraint(2, H, 'ScheduleAnyway')]), abcd, abcdNodes(), spread2103()), [33, 66, 100, 16]));
  it('one constraint on node, all 4 nodes are candidates, maxSkew=3', () =>
    assert.deepEqual(score(incoming([constraint(3, H, 'ScheduleAnyway')]), abcd, abcdNodes(), spread4321()), [44, 66, 77, 100]));
  it("system defaulting, nodes don't have zone, pods match service", () => {
    const svc: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: '' }, spec: { selector: { foo: '' } } };
    assert.deepEqual(score(pod({ name: 'p', labels: { foo: '' } }), abcd, abcdNodes(), spread4321(), [svc]), [44, 66, 77, 100]);
  });
  it('system defaulting without a Service or controller selecting the pod: skipped', () =>
    assert.equal(score(pod({ name: 'p', labels: { foo: '' } }), abcd, abcdNodes(), spread4321()), 'Skip'));
  it('one constraint on node, 3 out of 4 nodes are candidates', () => {
    const nodes = ['node-a', 'node-b', 'node-x', 'node-y'].map((n) => hostNode(n));
    const existing = [...on('node-a', 4), ...on('node-b', 2), ...on('node-x', 1), ...on('node-y', 3)];
    assert.deepEqual(score(incoming([constraint(1, H, 'ScheduleAnyway')]), ['node-a', 'node-b', 'node-x'], nodes, existing), [33, 83, 100]);
  });
  it("one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key", () => {
    const nodes = [hostNode('node-a'), node('node-b', { labels: { n: 'node-b' } }), hostNode('node-x'), hostNode('node-y')];
    const existing = [...on('node-a', 4), ...on('node-b', 2), ...on('node-x', 1), ...on('node-y', 3)];
    assert.deepEqual(score(incoming([constraint(1, H, 'ScheduleAnyway')]), ['node-a', 'node-b', 'node-x'], nodes, existing), [16, 0, 100]);
  });
  it('one constraint on zone, 3 out of 4 nodes are candidates', () => {
    const nodes = [hostNode('node-a', { zone: 'zone1' }), hostNode('node-b', { zone: 'zone1' }), hostNode('node-x', { zone: 'zone2' }), hostNode('node-y', { zone: 'zone2' })];
    const existing = [...on('node-a', 4), ...on('node-b', 2), ...on('node-x', 1), ...on('node-y', 3)];
    assert.deepEqual(score(incoming([constraint(1, 'zone', 'ScheduleAnyway')]), ['node-a', 'node-b', 'node-x'], nodes, existing), [75, 75, 100]);
  });
});

describe('PodTopologySpread: Filter (filtering_test.go TestSingleConstraint)', () => {
  const zones = (): ReturnType<typeof node>[] => [
    hostNode('node-a', { zone: 'zone1' }),
    hostNode('node-b', { zone: 'zone1' }),
    hostNode('node-x', { zone: 'zone2' }),
    hostNode('node-y', { zone: 'zone2' }),
  ];
  const notMatch = { code: 'Unschedulable', reasons: ["node(s) didn't match pod topology spread constraints"] };
  const verdicts = (p: Pod, nodes: ReturnType<typeof node>[], existing: Pod[]): Record<string, unknown> => {
    const s = snapshot(nodes, existing);
    const plugin = new PodTopologySpread(handle({ snapshot: s }));
    return Object.fromEntries(s.list.map((n) => [n.name, runFilter(plugin, p, n, s.list)]));
  };

  it('no existing pods', () =>
    assert.deepEqual(verdicts(incoming([constraint(1, 'zone', 'DoNotSchedule')]), zones(), []), { 'node-a': 'Success', 'node-b': 'Success', 'node-x': 'Success', 'node-y': 'Success' }));
  it('existing pods in a different namespace do not count', () =>
    assert.deepEqual(verdicts(incoming([constraint(1, 'zone', 'DoNotSchedule')]), zones(), [...on('node-a', 1, { foo: '' }, 'ns1'), ...on('node-b', 1, { foo: '' }, 'ns1')]), {
      'node-a': 'Success',
      'node-b': 'Success',
      'node-x': 'Success',
      'node-y': 'Success',
    }));
  it('pods spread across zones as 3/3, all nodes fit', () =>
    assert.deepEqual(verdicts(incoming([constraint(1, 'zone', 'DoNotSchedule')]), zones(), [...on('node-a', 1), ...on('node-b', 2), ...on('node-x', 2), ...on('node-y', 1)]), {
      'node-a': 'Success',
      'node-b': 'Success',
      'node-x': 'Success',
      'node-y': 'Success',
    }));
  it('pods spread across zones as 3/1, only zone2 fits', () =>
    assert.deepEqual(verdicts(incoming([constraint(1, 'zone', 'DoNotSchedule')]), zones(), [...on('node-a', 1), ...on('node-b', 2), ...on('node-y', 1)]), {
      'node-a': notMatch,
      'node-b': notMatch,
      'node-x': 'Success',
      'node-y': 'Success',
    }));
  it('pods spread across nodes as 2/1/0/3, only node-x fits', () =>
    assert.deepEqual(verdicts(incoming([constraint(1, H, 'DoNotSchedule')]), zones(), [...on('node-a', 2), ...on('node-b', 1), ...on('node-y', 3)]), {
      'node-a': notMatch,
      'node-b': notMatch,
      'node-x': 'Success',
      'node-y': notMatch,
    }));
  it('pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit', () =>
    assert.deepEqual(verdicts(incoming([constraint(2, H, 'DoNotSchedule')]), zones(), [...on('node-a', 2), ...on('node-b', 1), ...on('node-y', 3)]), {
      'node-a': notMatch,
      'node-b': 'Success',
      'node-x': 'Success',
      'node-y': notMatch,
    }));
  it("pods spread across nodes as 2/1/0/3, but pod doesn't match itself", () =>
    assert.deepEqual(verdicts(incoming([constraint(1, H, 'DoNotSchedule')], { bar: '' }), zones(), [...on('node-a', 2), ...on('node-b', 1), ...on('node-y', 3)]), {
      'node-a': notMatch,
      'node-b': 'Success',
      'node-x': 'Success',
      'node-y': notMatch,
    }));
  it('a node without the topology label is unresolvable', () =>
    assert.deepEqual(verdicts(incoming([constraint(1, 'zone', 'DoNotSchedule')]), [hostNode('node-a', { zone: 'zone1' }), hostNode('node-b')], []), {
      'node-a': 'Success',
      'node-b': { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match pod topology spread constraints (missing required label)"] },
    }));
  it('minDomains above the number of domains makes the global minimum 0', () =>
    assert.deepEqual(verdicts(incoming([constraint(2, 'zone', 'DoNotSchedule', fooSelector, 3)]), zones(), [...on('node-a', 2), ...on('node-x', 2)]), {
      'node-a': notMatch,
      'node-b': notMatch,
      'node-x': notMatch,
      'node-y': notMatch,
    }));
  it('ScheduleAnyway constraints do not filter', () =>
    assert.deepEqual(verdicts(incoming([constraint(1, H, 'ScheduleAnyway')]), zones(), [...on('node-a', 5)]), { 'node-a': 'Success', 'node-b': 'Success', 'node-x': 'Success', 'node-y': 'Success' }));
});
