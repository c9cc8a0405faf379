/**
 * The node lifecycle controller's planners (plan.ts). The zone cases follow upstream's
 * TestMonitorNodeHealthEvictPodsWithDisruption (pkg/controller/nodelifecycle/
 * node_lifecycle_controller_test.go): the zones' states after a first pass over the nodes
 * (expectedInitialStates) and after a second pass with the updated statuses
 * (expectedFollowingStates). The taint steps follow TestSwapUnreachableNotReadyTaints and
 * TestApplyNoExecuteTaints.
 */
import { strict as assert } from 'node:assert';
import { planDisruption, planTaintBasedEviction, type DisruptionPlan } from '../../../../src/engine/controllers/nodelifecycle/plan';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE } from '../../../../src/engine/controllers/nodelifecycle/taints';
import { DEFAULT_EVICTION_SETTINGS, type ZoneState } from '../../../../src/engine/controllers/nodelifecycle/zones';
import type { Node, NodeCondition } from '../../../../src/engine/controllers/util/types/node';

const ready = (status: string): NodeCondition => ({ type: 'Ready', status });
const U = ready('Unknown');
const T = ready('True');
const z1 = 'region1:\x00:zone1';
const z2 = 'region1:\x00:zone2';
const r2z2 = 'region2:\x00:zone2';

/** One pass: the zones' Ready conditions, applied to the states the previous pass left. */
function pass(previous: ReadonlyMap<string, ZoneState>, zones: Record<string, NodeCondition[]>): { plan: DisruptionPlan; states: Map<string, ZoneState> } {
  const plan = planDisruption(previous, new Map(Object.entries(zones)), DEFAULT_EVICTION_SETTINGS);
  const states = new Map(plan.zones);
  for (const c of plan.changes) states.set(c.zone, c.state);
  return { plan, states };
}

// [description, nodes' Ready by zone at first, after the update, expectedInitialStates, expectedFollowingStates]
const cases: [string, Record<string, NodeCondition[]>, Record<string, NodeCondition[]>, Record<string, ZoneState>, Record<string, ZoneState>][] = [
  ["Network Disruption: Only zone is down - eviction shouldn't take place.", { [z1]: [U, U] }, { [z1]: [U, U] }, { [z1]: 'FullDisruption' }, { [z1]: 'FullDisruption' }],
  ["Network Disruption: Both zones down - eviction shouldn't take place.", { [z1]: [U], [r2z2]: [U] }, { [z1]: [U], [r2z2]: [U] }, { [z1]: 'FullDisruption', [r2z2]: 'FullDisruption' }, { [z1]: 'FullDisruption', [r2z2]: 'FullDisruption' }],
  ['Network Disruption: One zone is down - eviction should take place.', { [z1]: [U], [z2]: [T] }, { [z1]: [U], [z2]: [T] }, { [z1]: 'FullDisruption', [z2]: 'Normal' }, { [z1]: 'FullDisruption', [z2]: 'Normal' }],
  ['Initially both zones down, one comes back - eviction should take place', { [z1]: [U], [z2]: [U] }, { [z1]: [U], [z2]: [T] }, { [z1]: 'FullDisruption', [z2]: 'FullDisruption' }, { [z1]: 'FullDisruption', [z2]: 'Normal' }],
  ['Zone is partially disrupted - eviction should take place.', { [z1]: [U, U, U, T, T] }, { [z1]: [U, U, U, T, T] }, { [z1]: 'PartialDisruption' }, { [z1]: 'PartialDisruption' }],
];

describe('controllers/nodelifecycle planDisruption (TestMonitorNodeHealthEvictPodsWithDisruption)', () => {
  for (const [description, first, second, initial, following] of cases) {
    it(description, () => {
      const a = pass(new Map(), first);
      assert.deepEqual(Object.fromEntries(a.states), initial, 'initial states');
      const b = pass(a.states, second);
      assert.deepEqual(Object.fromEntries(b.states), following, 'following states');
    });
  }

  it('every zone fully disrupted: master disruption mode stops all tainting, once', () => {
    const a = pass(new Map([[z1, 'Normal']]), { [z1]: [U, U] });
    assert.equal(a.plan.mode, 'allDisrupted');
    assert.deepEqual(a.plan.changes, [{ zone: z1, state: 'FullDisruption', qps: 0 }]);
    assert.equal(pass(a.states, { [z1]: [U, U] }).plan.mode, 'steady');
  });

  it('leaving master disruption sets every zone from its new state, at its rate', () => {
    const a = pass(new Map<string, ZoneState>([[z1, 'FullDisruption'], [z2, 'FullDisruption']]), { [z1]: [T], [z2]: [U, U, U, T] });
    assert.equal(a.plan.mode, 'recovered');
    assert.deepEqual(a.plan.changes, [
      { zone: z1, state: 'Normal', qps: DEFAULT_EVICTION_SETTINGS.evictionQps },
      { zone: z2, state: 'PartialDisruption', qps: 0 },
    ]);
  });

  it('a partially disrupted zone of a large cluster taints at the secondary rate; which zones without nodes go', () => {
    const big = Array.from({ length: 60 }, (_, i) => (i < 40 ? U : T));
    const a = pass(new Map<string, ZoneState>([[z1, 'Normal'], [z2, 'Normal']]), { [z1]: big, [r2z2]: [T] });
    assert.equal(a.plan.mode, 'changed');
    // r2z2 is new (Initial) and becomes Normal. z2 has no nodes any more but stays: zones are
    // dropped only while looking for one not fully disrupted, and z1 (Normal) ends that search.
    assert.deepEqual(a.plan.changes, [
      { zone: z1, state: 'PartialDisruption', qps: DEFAULT_EVICTION_SETTINGS.secondaryEvictionQps },
      { zone: r2z2, state: 'Normal', qps: DEFAULT_EVICTION_SETTINGS.evictionQps },
    ]);
    assert.deepEqual([...a.plan.zones.keys()], [z1, z2, r2z2]);
    const b = pass(new Map<string, ZoneState>([[z2, 'FullDisruption'], [z1, 'Normal']]), { [z1]: [T] });
    assert.deepEqual([...b.plan.zones.keys()], [z1], 'a zone without nodes before the first one not fully disrupted goes');
  });
});

describe('controllers/nodelifecycle planTaintBasedEviction', () => {
  const node = (...taints: (typeof NOT_READY_NO_EXECUTE)[]): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node0' }, spec: { taints } });
  it('TestSwapUnreachableNotReadyTaints: the other NoExecute taint is swapped at once', () => {
    assert.deepEqual(planTaintBasedEviction(node(UNREACHABLE_NO_EXECUTE), ready('False')), { kind: 'swap', add: NOT_READY_NO_EXECUTE, remove: UNREACHABLE_NO_EXECUTE });
    assert.deepEqual(planTaintBasedEviction(node(NOT_READY_NO_EXECUTE), U), { kind: 'swap', add: UNREACHABLE_NO_EXECUTE, remove: NOT_READY_NO_EXECUTE });
  });
  it('TestApplyNoExecuteTaints: a node not Ready without a taint is queued; Ready again is reachable', () => {
    assert.deepEqual(planTaintBasedEviction(node(), ready('False')), { kind: 'queue', status: 'False' });
    assert.deepEqual(planTaintBasedEviction(node(), U), { kind: 'queue', status: 'Unknown' });
    assert.deepEqual(planTaintBasedEviction(node(NOT_READY_NO_EXECUTE), T), { kind: 'reachable' });
  });
});
