import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import type { Pod } from '../../../src/engine/scheduler/api';
import { EVENTS } from '../../../src/engine/scheduler/framework/events';
import { Framework } from '../../../src/engine/scheduler/framework/runtime';
import { NodeResourcesFit } from '../../../src/engine/scheduler/plugins/node-resources-fit';
import { PrioritySort } from '../../../src/engine/scheduler/plugins/priority-sort';
import { SchedulingGates } from '../../../src/engine/scheduler/plugins/scheduling-gates';
import { SchedulingQueue } from '../../../src/engine/scheduler/queue/scheduling-queue';
import { makeNode, makePod } from './fake-host';

function setup(): { clock: Clock; q: SchedulingQueue; pods: Map<string, Pod>; ready: number[] } {
  const clock = new Clock(0);
  const fw = new Framework(
    [
      { plugin: new SchedulingGates(), weight: 0 },
      { plugin: new PrioritySort(), weight: 0 },
      { plugin: new NodeResourcesFit(), weight: 1 },
    ],
    { nominatedPodsForNode: () => [], empty: () => true },
  );
  const pods = new Map<string, Pod>();
  const ready: number[] = [];
  const q = new SchedulingQueue(fw, clock, (ns, name) => pods.get(`${ns}/${name}`), () => ready.push(clock.now()));
  return { clock, q, pods, ready };
}

const add = (s: ReturnType<typeof setup>, pod: Pod): void => {
  s.pods.set(`${pod.metadata.namespace}/${pod.metadata.name}`, pod);
  s.q.add(pod);
};

/** Pops a pod and hands it back as rejected by NodeResourcesFit. */
function failByFit(s: ReturnType<typeof setup>): string {
  const p = s.q.pop()!;
  p.unschedulablePlugins.add('NodeResourcesFit');
  s.q.addUnschedulableIfNotPresent(p);
  return p.key;
}

describe('scheduling queue', () => {
  it('pops by priority, then by the time pods entered the queue (PrioritySort)', async () => {
    const s = setup();
    add(s, makePod('low', { priority: 0 }));
    await s.clock.advance(10);
    add(s, makePod('high', { priority: 100 }));
    add(s, makePod('mid-1', { priority: 10 }));
    await s.clock.advance(10);
    add(s, makePod('mid-2', { priority: 10 }));
    assert.deepEqual([1, 2, 3, 4].map(() => s.q.pop()!.pod.metadata.name), ['high', 'mid-1', 'mid-2', 'low']);
  });

  it('backs off 1 s, 2 s, 4 s, 8 s, then 10 s per attempt', () => {
    const s = setup();
    add(s, makePod('p'));
    const p = s.q.pop()!;
    const durations: number[] = [];
    for (let attempts = 1; attempts <= 6; attempts++) {
      p.attempts = attempts;
      durations.push(s.q.backoffDuration(p));
    }
    assert.deepEqual(durations, [1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('keeps a rejected pod in the unschedulable pool until an event its rejecting plugin cares about', () => {
    const s = setup();
    add(s, makePod('p', { cpu: '1' }));
    failByFit(s);
    assert.deepEqual(s.q.pendingPods().unschedulablePods, ['default/p']);
    // A node too small for the pod: NodeResourcesFit's hint says skip.
    s.q.moveAllToActiveOrBackoffQueue(EVENTS.NodeAdd, undefined, makeNode('tiny', { cpu: '500m' }));
    assert.deepEqual(s.q.pendingPods().unschedulablePods, ['default/p']);
    // A big enough node: requeued, still backing off (1 s) -> backoffQ.
    s.q.moveAllToActiveOrBackoffQueue(EVENTS.NodeAdd, undefined, makeNode('big', { cpu: '4' }));
    assert.deepEqual(s.q.pendingPods(), { activeQ: [], backoffQ: ['default/p'], unschedulablePods: [] });
  });

  it('moves completed backoffs to activeQ on the 1 s flush', async () => {
    const s = setup();
    add(s, makePod('p', { cpu: '1' }));
    add(s, makePod('q', { cpu: '1' }));
    failByFit(s);
    s.q.moveAllToActiveOrBackoffQueue(EVENTS.NodeAdd, undefined, makeNode('big'));
    assert.deepEqual(s.q.pendingPods().backoffQ, ['default/p']);
    await s.clock.advance(999);
    assert.deepEqual(s.q.pendingPods().backoffQ, ['default/p']);
    await s.clock.advance(1);
    const pending = s.q.pendingPods();
    assert.deepEqual([pending.activeQ.sort(), pending.backoffQ], [['default/p', 'default/q'], []]);
  });

  it('pops from the backoff heap when the active queue is empty (SchedulerPopFromBackoffQ)', () => {
    const s = setup();
    add(s, makePod('p', { cpu: '1' }));
    failByFit(s);
    s.q.moveAllToActiveOrBackoffQueue(EVENTS.NodeAdd, undefined, makeNode('big'));
    assert.equal(s.q.pop()?.key, 'default/p');
  });

  it('retries pods that failed with an error after backoff, without any event', async () => {
    const s = setup();
    add(s, makePod('p'));
    const p = s.q.pop()!;
    s.q.addUnschedulableIfNotPresent(p);
    assert.deepEqual(s.q.pendingPods().backoffQ, ['default/p']);
    // Errored pods are not popped early.
    assert.equal(s.q.pop(), undefined);
    await s.clock.advance(1000);
    assert.deepEqual(s.q.pendingPods().activeQ, ['default/p']);
  });

  it('flushes pods unschedulable for more than 5 minutes (checked every 30 s)', async () => {
    const s = setup();
    add(s, makePod('p', { cpu: '1' }));
    failByFit(s);
    await s.clock.advance(300_000);
    assert.deepEqual(s.q.pendingPods().unschedulablePods, ['default/p']);
    await s.clock.advance(30_000);
    assert.deepEqual(s.q.pendingPods().activeQ, ['default/p']);
  });

  it('holds gated pods (SchedulingGates) until their gates are removed', () => {
    const s = setup();
    const gated = makePod('g', { spec: { schedulingGates: [{ name: 'example.com/wait' }] } });
    add(s, gated);
    assert.deepEqual(s.q.pendingPods().unschedulablePods, ['default/g']);
    assert.equal(s.q.pop(), undefined);
    const ungated = { ...gated, metadata: { ...gated.metadata, resourceVersion: '2' }, spec: { ...gated.spec, schedulingGates: [] } };
    s.pods.set('default/g', ungated);
    s.q.update(gated, ungated);
    assert.deepEqual(s.q.pendingPods().activeQ, ['default/g']);
  });
});
