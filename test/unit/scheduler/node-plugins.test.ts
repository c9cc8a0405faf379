import { strict as assert } from 'node:assert';
import type { Taint, Toleration } from '../../../src/engine/scheduler/api';
import { ImageLocality } from '../../../src/engine/scheduler/plugins/image-locality';
import { NodeAffinity } from '../../../src/engine/scheduler/plugins/node-affinity';
import { NodeName } from '../../../src/engine/scheduler/plugins/node-name';
import { NodePorts } from '../../../src/engine/scheduler/plugins/node-ports';
import { NodeUnschedulable } from '../../../src/engine/scheduler/plugins/node-unschedulable';
import { TaintToleration } from '../../../src/engine/scheduler/plugins/taint-toleration';
import { handle, node, pod, runFilter, runScore, snapshot } from './helpers';

const untolerated = { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint(s)'] };
const affinityMismatch = { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match Pod's node affinity/selector"] };

describe('TaintToleration (taint_toleration_test.go)', () => {
  const tt = new TaintToleration();
  const withTaints = (taints: Taint[]): ReturnType<typeof snapshot> => snapshot([node('nodeA', { taints })]);
  const tol = (tolerations: Toleration[]): ReturnType<typeof pod> => pod({ spec: { tolerations } });

  const filterCases: [string, Toleration[], Taint[], typeof untolerated | 'Success'][] = [
    ["A pod having no tolerations can't be scheduled onto a node with nonempty taints", [], [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], untolerated],
    [
      'A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule',
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      'Success',
    ],
    [
      "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
      [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      untolerated,
    ],
    [
      'A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node',
      [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      'Success',
    ],
    [
      'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated',
      [
        { key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      ],
      [
        { key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      ],
      'Success',
    ],
    [
      "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      untolerated,
    ],
    [
      'The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node',
      [{ key: 'foo', operator: 'Equal', value: 'bar' }],
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      'Success',
    ],
    [
      "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
      [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
      [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }],
      'Success',
    ],
    ['The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node', [], [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }], 'Success'],
    ['NoExecute taints filter too', [], [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }], untolerated],
    ['Lt/Gt tolerations tolerate nothing while TaintTolerationComparisonOperators is off', [{ key: 'n', operator: 'Gt', value: '1', effect: 'NoSchedule' }], [{ key: 'n', value: '5', effect: 'NoSchedule' }], untolerated],
  ];
  for (const [name, tolerations, taints, want] of filterCases) {
    it(name, () => assert.deepEqual(runFilter(tt, tol(tolerations), withTaints(taints).list[0]!), want));
  }

  const prefer = (key: string, value: string): Taint => ({ key, value, effect: 'PreferNoSchedule' });
  const scoreCases: [string, Toleration[], Taint[][], number[]][] = [
    [
      'node with taints tolerated by the pod, gets a higher score than those node with intolerable taints',
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
      [[prefer('foo', 'bar')], [prefer('foo', 'blah')]],
      [100, 0],
    ],
    [
      'the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has',
      [
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'PreferNoSchedule' },
      ],
      [[], [prefer('cpu-type', 'arm64')], [prefer('cpu-type', 'arm64'), prefer('disk-type', 'ssd')]],
      [100, 100, 100],
    ],
    [
      'the more intolerable taints a node has, the lower score it gets.',
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
      [[], [prefer('cpu-type', 'arm64')], [prefer('cpu-type', 'arm64'), prefer('disk-type', 'ssd')]],
      [100, 50, 0],
    ],
    [
      'only taints and tolerations that have effect PreferNoSchedule are checked by prioritize function',
      [
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'NoSchedule' },
      ],
      [[], [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }], [prefer('cpu-type', 'arm64'), prefer('disk-type', 'ssd')]],
      [100, 100, 0],
    ],
    ['Default behaviour No taints and tolerations, lands on node with no taints', [], [[], [prefer('cpu-type', 'arm64')]], [100, 0]],
  ];
  for (const [name, tolerations, taintsPerNode, want] of scoreCases) {
    it(name, () => {
      const s = snapshot(taintsPerNode.map((taints, i) => node(`node${i}`, { taints })));
      assert.deepEqual(runScore(tt, tol(tolerations), s.list), want);
    });
  }
});

describe('NodeAffinity (node_affinity_test.go)', () => {
  const na = new NodeAffinity();
  const labelled = (labels: Record<string, string>, name = 'node1'): ReturnType<typeof snapshot> => snapshot([node(name, { labels })]);
  const required = (terms: object[]): ReturnType<typeof pod> =>
    pod({ spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms as never } } } } });

  it('no selector', () => assert.equal(runFilter(na, pod(), labelled({}).list[0]!), 'Success'));
  it('missing labels', () => assert.deepEqual(runFilter(na, pod({ spec: { nodeSelector: { foo: 'bar' } } }), labelled({}).list[0]!), affinityMismatch));
  it('same labels', () => assert.equal(runFilter(na, pod({ spec: { nodeSelector: { foo: 'bar' } } }), labelled({ foo: 'bar' }).list[0]!), 'Success'));
  it('node labels are superset', () => assert.equal(runFilter(na, pod({ spec: { nodeSelector: { foo: 'bar' } } }), labelled({ foo: 'bar', baz: 'blah' }).list[0]!), 'Success'));
  it('node labels are subset', () => assert.deepEqual(runFilter(na, pod({ spec: { nodeSelector: { foo: 'bar', baz: 'blah' } } }), labelled({ foo: 'bar' }).list[0]!), affinityMismatch));
  it('Pod with matchExpressions using In operator that matches the existing node', () =>
    assert.equal(runFilter(na, required([{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar', 'value2'] }] }]), labelled({ foo: 'bar' }).list[0]!), 'Success'));
  it('Pod with matchExpressions using Gt operator that matches the existing node', () =>
    assert.equal(runFilter(na, required([{ matchExpressions: [{ key: 'kernel-version', operator: 'Gt', values: ['0204'] }] }]), labelled({ 'kernel-version': '0206' }).list[0]!), 'Success'));
  it("Pod with matchExpressions using NotIn operator that doesn't match the existing node", () =>
    assert.deepEqual(runFilter(na, required([{ matchExpressions: [{ key: 'mem-type', operator: 'NotIn', values: ['DDR', 'DDR2'] }] }]), labelled({ 'mem-type': 'DDR3' }).list[0]!), 'Success'));
  it('Pod with matchExpressions using Exists operator that matches the existing node', () =>
    assert.equal(runFilter(na, required([{ matchExpressions: [{ key: 'GPU', operator: 'Exists' }] }]), labelled({ GPU: 'NVIDIA-GRID-K1' }).list[0]!), 'Success'));
  it('Pod with affinity that don\'t match node\'s labels won\'t schedule onto the node', () =>
    assert.deepEqual(runFilter(na, required([{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['value1', 'value2'] }] }]), labelled({ foo: 'bar' }).list[0]!), affinityMismatch));
  it('Pod with empty MatchExpressions is not a valid value will match no objects and won\'t schedule onto the node', () =>
    assert.deepEqual(runFilter(na, required([{ matchExpressions: [] }]), labelled({ foo: 'bar' }).list[0]!), affinityMismatch));
  it('Pod with no Affinity will schedule onto a node', () => assert.equal(runFilter(na, pod(), labelled({ foo: 'bar' }).list[0]!), 'Success'));
  it('multiple matchExpressions ANDed that fails can\'t schedule onto the node', () =>
    assert.deepEqual(
      runFilter(na, required([{ matchExpressions: [{ key: 'GPU', operator: 'Exists' }, { key: 'GPU', operator: 'NotIn', values: ['AMD', 'INTER'] }] }]), labelled({ GPU: 'AMD' }).list[0]!),
      affinityMismatch,
    ));
  it('multiple NodeSelectorTerms ORed in affinity, matches the node\'s labels and will schedule onto the node', () =>
    assert.equal(
      runFilter(na, required([{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar', 'value2'] }] }, { matchExpressions: [{ key: 'diffkey', operator: 'In', values: ['wrong', 'value2'] }] }]), labelled({ foo: 'bar' }).list[0]!),
      'Success',
    ));
  it('Pod has an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node', () => {
    const p = required([{ matchExpressions: [{ key: 'foo', operator: 'Exists' }] }]);
    p.spec.nodeSelector = { foo: 'bar' };
    assert.equal(runFilter(na, p, labelled({ foo: 'bar' }).list[0]!), 'Success');
    p.spec.nodeSelector = { foo: 'other' };
    assert.deepEqual(runFilter(na, p, labelled({ foo: 'bar' }).list[0]!), affinityMismatch);
  });
  it('Pod with matchFields using In operator that matches the existing node (PreFilter narrows to it)', () => {
    const p = required([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node1'] }] }]);
    const s = snapshot([node('node1'), node('node2')]);
    assert.equal(runFilter(na, p, s.get('node1')!, s.list), 'Success');
    assert.deepEqual(runFilter(na, p, s.get('node2')!, s.list), { code: 'UnschedulableAndUnresolvable', reasons: ['(excluded by PreFilter result)'] });
  });
  it('Pod with two terms: both matchFields in the terms conflict (pod affinity terms conflict)', () => {
    const p = required([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node1'] }, { key: 'metadata.name', operator: 'In', values: ['node2'] }] }]);
    assert.deepEqual(runFilter(na, p, snapshot([node('node1')]).list[0]!), { code: 'UnschedulableAndUnresolvable', reasons: ['pod affinity terms conflict'] });
  });

  it('Score: the summed weights of matching preferred terms, scaled to the best node', () => {
    const p = pod({
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 2, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } },
              { weight: 4, preference: { matchExpressions: [{ key: 'key', operator: 'In', values: ['value'] }] } },
              { weight: 5, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }, { key: 'key', operator: 'In', values: ['value'] }, { key: 'az', operator: 'In', values: ['az1'] }] } },
            ],
          },
        },
      },
    });
    const s = snapshot([
      node('node1', { labels: { foo: 'bar' } }),
      node('node2', { labels: { key: 'value' } }),
      node('node3', { labels: { foo: 'bar', key: 'value', az: 'az1' } }),
      node('node4', { labels: {} }),
    ]);
    // Raw 2, 4, 11, 0 -> 100 * raw / 11.
    assert.deepEqual(runScore(na, p, s.list), [18, 36, 100, 0]);
    assert.equal(runScore(na, pod(), s.list), 'Skip');
  });
});

describe('ImageLocality (image_locality_test.go)', () => {
  const mb = 1024 * 1024;
  const node403002000 = [
    { names: ['gcr.io/40:latest', 'gcr.io/40:v1', 'gcr.io/40:v1'], sizeBytes: 40 * mb },
    { names: ['gcr.io/300:latest', 'gcr.io/300:v1'], sizeBytes: 300 * mb },
    { names: ['gcr.io/2000:latest'], sizeBytes: 2000 * mb },
  ];
  const node25010 = [
    { names: ['gcr.io/250:latest'], sizeBytes: 250 * mb },
    { names: ['gcr.io/10:latest', 'gcr.io/10:v1'], sizeBytes: 10 * mb },
  ];
  const images = (...imgs: string[]): ReturnType<typeof pod> => pod({ spec: { containers: imgs.map((image, i) => ({ name: `c${i}`, image })) } });
  const score = (p: ReturnType<typeof pod>, nodes: ReturnType<typeof node>[]): number[] | 'Skip' => {
    const s = snapshot(nodes);
    return runScore(new ImageLocality(handle({ snapshot: s })), p, s.list);
  };
  const two = (): ReturnType<typeof node>[] => [node('machine1', { images: node403002000 }), node('machine2', { images: node25010 })];

  // Scores: 100 * (sum of size * nodesWithImage/allNodes, clamped to [23MB, 1000MB * containers] - 23MB) / (1000MB * containers - 23MB).
  it('two images spread on two nodes, prefer the larger image one', () => assert.deepEqual(score(images('gcr.io/40', 'gcr.io/250'), two()), [0, 5]));
  it('two images on one node, prefer this node', () => assert.deepEqual(score(images('gcr.io/40', 'gcr.io/300'), two()), [7, 0]));
  it('if exceed limit, use limit', () => assert.deepEqual(score(images('gcr.io/10', 'gcr.io/2000'), two()), [49, 0]));
  it('if exceed limit, use limit (with node which has no images present)', () =>
    assert.deepEqual(score(images('gcr.io/10', 'gcr.io/2000'), [...two(), node('machine3')]), [32, 0, 0]));
  it('an image present on every node scores by its full size; an untagged image means :latest', () =>
    assert.deepEqual(score(images('gcr.io/250'), [node('a', { images: node25010 }), node('b', { images: node25010 })]), [23, 23]));
});

describe('NodePorts, NodeUnschedulable, NodeName', () => {
  const ports = new NodePorts();
  const withPorts = (ps: { hostPort: number; hostIP?: string; protocol?: string }[]): ReturnType<typeof pod> =>
    pod({ spec: { containers: [{ name: 'c', ports: ps.map((p) => ({ containerPort: p.hostPort, ...p })) }] } });
  const reason = { code: 'Unschedulable', reasons: ["node(s) didn't have free ports for the requested pod ports"] };
  const busy = (ps: { hostPort: number; hostIP?: string; protocol?: string }[]): ReturnType<typeof snapshot> =>
    snapshot([node('m1')], [{ ...withPorts(ps), spec: { ...withPorts(ps).spec, nodeName: 'm1' } }]);

  it('nothing running', () => assert.equal(runFilter(ports, withPorts([{ hostPort: 8080 }]), snapshot([node('m1')]).list[0]!), 'Success'));
  it('other port', () => assert.equal(runFilter(ports, withPorts([{ hostPort: 8080, hostIP: '127.0.0.1' }]), busy([{ hostPort: 9090, hostIP: '127.0.0.1' }]).list[0]!), 'Success'));
  it('same udp port', () => assert.deepEqual(runFilter(ports, withPorts([{ hostPort: 8080, hostIP: '127.0.0.1', protocol: 'UDP' }]), busy([{ hostPort: 8080, hostIP: '127.0.0.1', protocol: 'UDP' }]).list[0]!), reason));
  it('same port, different protocol', () => assert.equal(runFilter(ports, withPorts([{ hostPort: 8080, protocol: 'UDP' }]), busy([{ hostPort: 8080, protocol: 'TCP' }]).list[0]!), 'Success'));
  it('second tcp port conflict with 0.0.0.0', () => assert.deepEqual(runFilter(ports, withPorts([{ hostPort: 8001, hostIP: '127.0.0.1' }]), busy([{ hostPort: 8001 }]).list[0]!), reason));
  it('first udp port conflict with 0.0.0.0 (the other way round)', () => assert.deepEqual(runFilter(ports, withPorts([{ hostPort: 8001 }]), busy([{ hostPort: 8001, hostIP: '127.0.0.1' }]).list[0]!), reason));
  it('different host IPs do not conflict', () => assert.equal(runFilter(ports, withPorts([{ hostPort: 8001, hostIP: '127.0.0.2' }]), busy([{ hostPort: 8001, hostIP: '127.0.0.1' }]).list[0]!), 'Success'));

  it('NodeUnschedulable: a cordoned node, unless tolerated', () => {
    const nu = new NodeUnschedulable();
    const s = snapshot([node('n', { unschedulable: true })]);
    assert.deepEqual(runFilter(nu, pod(), s.list[0]!), { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were unschedulable'] });
    const tolerating = pod({ spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] } });
    assert.equal(runFilter(nu, tolerating, s.list[0]!), 'Success');
  });
  it('NodeName: only the named node', () => {
    const nn = new NodeName();
    const s = snapshot([node('foo'), node('bar')]);
    const p = pod({ spec: { nodeName: 'foo' } });
    assert.equal(runFilter(nn, p, s.get('foo')!), 'Success');
    assert.deepEqual(runFilter(nn, p, s.get('bar')!), { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match the requested node name"] });
  });
});
