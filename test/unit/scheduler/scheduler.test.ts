import { strict as assert } from 'node:assert';
import { FakeCluster, makeNode, makePod } from './fake-host';
import type { SchedulingAttemptRecord } from '../../../src/engine/scheduler/record';

describe('scheduler: end to end on a fake API server', () => {
  it('binds a pod and reports Scheduled', async () => {
    const c = new FakeCluster();
    c.addNode(makeNode('node-1'));
    c.addPod(makePod('web-abc', { cpu: '100m' }));
    await c.clock.settle();
    assert.equal(c.nodeOf('web-abc'), 'node-1');
    assert.deepEqual(c.notes('Scheduled'), ['Successfully assigned default/web-abc to node-1']);
  });

  it('reports kube-scheduler 1.35 FailedScheduling text with the preemption part', async () => {
    const c = new FakeCluster();
    for (const n of ['node-1', 'node-2']) c.addNode(makeNode(n, { cpu: '1' }));
    for (const n of ['cp-1', 'cp-2', 'cp-3']) c.addNode(makeNode(n, { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }));
    c.addPod(makePod('big', { cpu: '2' }));
    await c.clock.settle();
    const msg =
      '0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.';
    assert.deepEqual(c.notes('FailedScheduling'), [msg]);
    const cond = c.pod('big').status?.conditions?.find((x) => x.type === 'PodScheduled');
    assert.equal(cond?.status, 'False');
    assert.equal(cond?.reason, 'Unschedulable');
    assert.equal(cond?.message, msg);
    const rec = c.records.find((r) => r.type === 'scheduler.attempt') as SchedulingAttemptRecord;
    assert.equal(rec.outcome, 'unschedulable');
    assert.equal(rec.message, msg);
    assert.deepEqual(rec.rejectionsByPlugin, { NodeResourcesFit: 2, TaintToleration: 3 });
  });
});
