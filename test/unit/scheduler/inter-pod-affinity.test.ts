import { strict as assert } from 'node:assert';
import type { Affinity, Namespace, Pod } from '../../../src/engine/scheduler/api';
import { InterPodAffinity } from '../../../src/engine/scheduler/plugins/inter-pod-affinity';
import { handle, node, pod, runFilter, runScore, snapshot } from './helpers';

const S1 = { security: 'S1' };
const S2 = { security: 'S2' };
const rgChina = { region: 'China' };
const rgIndia = { region: 'India' };
const azAz1 = { az: 'az1' };
const sel = (key: string, op: string, values?: string[]): { matchExpressions: { key: string; operator: string; values?: string[] }[] } => ({
  matchExpressions: [{ key, operator: op, ...(values ? { values } : {}) }],
});
const preferred = (weight: number, value: string, topologyKey: string, anti = false): Affinity => {
  const terms = { preferredDuringSchedulingIgnoredDuringExecution: [{ weight, podAffinityTerm: { labelSelector: sel('security', 'In', [value]), topologyKey } }] };
  return anti ? { podAntiAffinity: terms } : { podAffinity: terms };
};
const stayWithS1InRegion = preferred(5, 'S1', 'region');
const stayWithS2InRegion = preferred(6, 'S2', 'region');
const awayFromS1InAz = preferred(5, 'S1', 'az', true);
const hardAffinity: Affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: sel('security', 'In', ['S1', 'value2']), topologyKey: 'region' }] } };

function score(p: Pod, pods: Pod[], nodes: ReturnType<typeof node>[], namespaces: Namespace[] = []): number[] | 'Skip' {
  const s = snapshot(nodes, pods);
  return runScore(new InterPodAffinity(handle({ snapshot: s, namespaces })), p, s.list);
}

describe('InterPodAffinity: Score (scoring_test.go)', () => {
  const three = (): ReturnType<typeof node>[] => [node('node1', { labels: rgChina }), node('node2', { labels: rgIndia }), node('node3', { labels: azAz1 })];
  it('all nodes are same priority as Affinity is nil', () => assert.equal(score(pod({ labels: S1 }), [], three()), 'Skip'));
  it('Affinity: pod that matches topology key & pods in nodes will get high score comparing to others', () =>
    assert.deepEqual(
      score(pod({ labels: S1, spec: { affinity: stayWithS1InRegion } }), [pod({ nodeName: 'node1', labels: S1 }), pod({ nodeName: 'node2', labels: S2 }), pod({ nodeName: 'node3', labels: S1 })], three()),
      [100, 0, 0],
    ));
  it('All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score', () =>
    assert.deepEqual(
      score(pod({ spec: { affinity: stayWithS1InRegion } }), [pod({ nodeName: 'node1', labels: S1 })], [node('node1', { labels: rgChina }), node('node2', { labels: { ...rgChina, ...azAz1 } }), node('node3', { labels: rgIndia })]),
      [100, 100, 0],
    ));
  it('Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score', () =>
    assert.deepEqual(
      score(
        pod({ labels: S1, spec: { affinity: stayWithS2InRegion } }),
        ['node1', 'node1', 'node2', 'node3', 'node4', 'node5'].map((n) => pod({ nodeName: n, labels: S2 })),
        [node('node1', { labels: rgChina }), node('node2', { labels: rgIndia }), node('node3', { labels: rgChina }), node('node4', { labels: rgChina }), node('node5', { labels: rgIndia })],
      ),
      [100, 0, 100, 100, 0],
    ));
  it('Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry', () =>
    assert.deepEqual(
      score(pod({ labels: S2 }), [pod({ nodeName: 'node1', labels: S1, spec: { affinity: stayWithS1InRegion } }), pod({ nodeName: 'node2', labels: S2, spec: { affinity: stayWithS2InRegion } })], three()),
      [0, 100, 0],
    ));
  it('Affinity symmetry with namespace selector', () => {
    const nsSelector: Affinity = {
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 5, podAffinityTerm: { labelSelector: sel('security', 'In', ['S1']), topologyKey: 'region', namespaces: ['subteam2.team2'], namespaceSelector: sel('team', 'In', ['team1']) } },
        ],
      },
    };
    const ns: Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'subteam1.team1', labels: { team: 'team1' } } };
    assert.deepEqual(
      score(pod({ namespace: 'subteam1.team1', labels: S1 }), [pod({ nodeName: 'node1', labels: S1, spec: { affinity: nsSelector } }), pod({ nodeName: 'node2', labels: S2, spec: { affinity: stayWithS2InRegion } })], three(), [ns]),
      [100, 0, 0],
    );
  });
  it('Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry', () =>
    assert.deepEqual(
      score(pod({ labels: S1 }), [pod({ nodeName: 'node1', labels: S1, spec: { affinity: hardAffinity } }), pod({ nodeName: 'node2', labels: S2, spec: { affinity: hardAffinity } })], three()),
      [100, 100, 0],
    ));
  it('Anti Affinity: pod that does not match existing pods in node will get high score', () =>
    assert.deepEqual(
      score(pod({ labels: S1, spec: { affinity: awayFromS1InAz } }), [pod({ nodeName: 'node1', labels: S1 }), pod({ nodeName: 'node2', labels: S2 })], [node('node1', { labels: azAz1 }), node('node2', { labels: rgChina })]),
      [0, 100],
    ));
  it('Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others', () =>
    assert.deepEqual(
      score(pod({ labels: S1, spec: { affinity: awayFromS1InAz } }), [pod({ nodeName: 'node1', labels: S1 }), pod({ nodeName: 'node2', labels: S1 })], [node('node1', { labels: azAz1 }), node('node2', { labels: rgChina })]),
      [0, 100],
    ));
});

describe('InterPodAffinity: Filter (filtering_test.go)', () => {
  const required = (key: string, op: string, values: string[] | undefined, topologyKey: string, anti = false): Affinity => {
    const terms = { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: sel(key, op, values), topologyKey }] };
    return anti ? { podAntiAffinity: terms } : { podAffinity: terms };
  };
  const run = (p: Pod, existing: Pod[], nodeLabels: Record<string, string> = rgChina): ReturnType<typeof runFilter> => {
    const s = snapshot([node('node1', { labels: nodeLabels })], existing);
    return runFilter(new InterPodAffinity(handle({ snapshot: s })), p, s.list[0]!, s.list);
  };
  const affinityFail = { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match pod affinity rules"] };
  const antiFail = { code: 'Unschedulable', reasons: ["node(s) didn't match pod anti-affinity rules"] };
  const existingAntiFail = { code: 'Unschedulable', reasons: ["node(s) didn't satisfy existing pods anti-affinity rules"] };

  it('A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods', () => assert.equal(run(pod(), []), 'Success'));
  it('satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod', () =>
    assert.equal(run(pod({ spec: { affinity: required('service', 'In', ['securityscan', 'value2'], 'region') } }), [pod({ nodeName: 'node1', labels: { service: 'securityscan' } })]), 'Success'));
  it("Does not satisfy the PodAffinity with labelSelector because of diff Operator (and the pod does not match its own term)", () =>
    assert.deepEqual(run(pod({ labels: { service: 'securityscan' }, spec: { affinity: required('service', 'NotIn', ['securityscan'], 'region') } }), [pod({ nodeName: 'node1', labels: { service: 'securityscan' } })]), affinityFail));
  it('satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity when it matches itself and no pod matches yet', () =>
    assert.equal(run(pod({ labels: { service: 'securityscan' }, spec: { affinity: required('service', 'In', ['securityscan'], 'region') } }), []), 'Success'));
  it('affinity terms need the topology label on the node', () =>
    assert.deepEqual(run(pod({ labels: { service: 'securityscan' }, spec: { affinity: required('service', 'In', ['securityscan'], 'zone') } }), []), affinityFail));
  it("satisfies the PodAntiAffinity when no existing pod matches", () =>
    assert.equal(run(pod({ spec: { affinity: required('service', 'In', ['securityscan'], 'region', true) } }), [pod({ nodeName: 'node1', labels: { service: 'other' } })]), 'Success'));
  it("Doesn't satisfy the PodAntiAffinity because of a matching pod in the same topology", () =>
    assert.deepEqual(run(pod({ spec: { affinity: required('service', 'In', ['securityscan'], 'region', true) } }), [pod({ nodeName: 'node1', labels: { service: 'securityscan' } })]), antiFail));
  it("Doesn't satisfy the existing pods' anti-affinity (symmetry)", () =>
    assert.deepEqual(
      run(pod({ labels: { service: 'securityscan' } }), [pod({ nodeName: 'node1', labels: { app: 'x' }, spec: { affinity: required('service', 'In', ['securityscan'], 'region', true) } })]),
      existingAntiFail,
    ));
});
