import { strict as assert } from 'node:assert';
import { FakeCluster, makeNode, makePod } from './fake-host';
import { filterPluginVerdicts, type BindingRecord, type SchedulingAttemptRecord } from '../../../src/engine/scheduler/record';

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

describe('scheduler: requeue on cluster events', () => {
  it('schedules an unschedulable pod once a node that fits is added', async () => {
    const c = new FakeCluster();
    c.addNode(makeNode('small', { cpu: '1' }));
    c.addPod(makePod('web', { cpu: '500m' }));
    c.addPod(makePod('big', { cpu: '2' }));
    await c.clock.settle();
    assert.equal(c.nodeOf('web'), 'small');
    assert.equal(c.nodeOf('big'), undefined);
    assert.deepEqual(c.notes('FailedScheduling'), [
      '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    ]);
    await c.clock.advance(60_000);
    c.addNode(makeNode('large', { cpu: '4' }));
    await c.clock.settle();
    assert.equal(c.nodeOf('big'), 'large');
    assert.deepEqual(c.notes('Scheduled'), ['Successfully assigned default/web to small', 'Successfully assigned default/big to large']);
  });

  it('counts an assumed pod before its binding is confirmed', async () => {
    const c = new FakeCluster();
    c.addNode(makeNode('n', { cpu: '1' }));
    c.addPod(makePod('a', { cpu: '600m' }));
    c.addPod(makePod('b', { cpu: '600m' }));
    await c.clock.settle();
    assert.equal(c.nodeOf('a'), 'n');
    assert.equal(c.nodeOf('b'), undefined);
    assert.match(c.notes('FailedScheduling')[0]!, /^0\/1 nodes are available: 1 Insufficient cpu\. /);
  });

  it('reports "no nodes available to schedule pods" with no nodes, retrying after backoff', async () => {
    const c = new FakeCluster();
    c.addPod(makePod('p'));
    // No plugin rejected the pod, so it is retried after backoff like an error: at 0, 1 s, 3 s.
    await c.clock.advance(3_500);
    assert.deepEqual(c.notes('FailedScheduling'), Array(3).fill('no nodes available to schedule pods'));
    assert.equal(c.pod('p').status?.conditions?.[0]?.reason, 'Unschedulable');
    c.addNode(makeNode('n'));
    await c.clock.settle();
    assert.equal(c.nodeOf('p'), 'n');
  });

  it('sorts the reasons of FitError as strings ("10 ..." before "2 ...")', async () => {
    const c = new FakeCluster();
    for (let i = 0; i < 10; i++) c.addNode(makeNode(`t${i}`, { taints: [{ key: 'k', effect: 'NoSchedule' }] }));
    c.addNode(makeNode('u1', { unschedulable: true }));
    c.addNode(makeNode('u2', { unschedulable: true }));
    c.addPod(makePod('p'));
    await c.clock.settle();
    assert.deepEqual(c.notes('FailedScheduling'), [
      '0/12 nodes are available: 10 node(s) had untolerated taint(s), 2 node(s) were unschedulable. no new claims to deallocate, preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.',
    ]);
  });

  it('reports a binding failure as a SchedulerError and retries after backoff', async () => {
    const c = new FakeCluster();
    let fail = true;
    const bind = c.bind.bind(c);
    c.bind = async (pod, node) => {
      if (fail) {
        fail = false;
        throw new Error('Internal error occurred: etcdserver: request timed out');
      }
      return bind(pod, node);
    };
    c.addNode(makeNode('n'));
    c.addPod(makePod('p'));
    await c.clock.settle();
    assert.deepEqual(c.notes('FailedScheduling'), ['running Bind plugin "DefaultBinder": Internal error occurred: etcdserver: request timed out']);
    const cond = c.pod('p').status?.conditions?.find((x) => x.type === 'PodScheduled');
    assert.equal(cond?.reason, 'SchedulerError');
    assert.equal(c.nodeOf('p'), 'n');
    const bindings = c.records.filter((r) => r.type === 'scheduler.binding').map((r) => (r as BindingRecord).outcome);
    assert.deepEqual(bindings, ['failed', 'bound']);
  });
});

describe('scheduler: preemption', () => {
  const fill = (c: FakeCluster): void => {
    c.addNode(makeNode('node-1', { cpu: '2' }));
    c.addPod(makePod('low-1', { cpu: '1', priority: 0, startTime: '2025-01-01T00:00:00Z' }));
    c.addPod(makePod('low-2', { cpu: '1', priority: 0, startTime: '2025-01-01T00:00:01Z' }));
  };

  it('evicts a lower-priority pod, nominates the node, then binds there', async () => {
    const c = new FakeCluster();
    fill(c);
    await c.clock.settle();
    c.addPod(makePod('high', { cpu: '1', priority: 1000 }));
    await c.clock.settle();
    assert.deepEqual(c.notes('FailedScheduling'), ['0/1 nodes are available: 1 Insufficient cpu.']);
    // The most important victim is reprieved first: low-1 started earlier, so low-2 goes.
    assert.deepEqual(c.notes('Preempted'), ['Preempted by pod uid-high on node node-1']);
    assert.equal(c.pods.has('default/low-2'), false);
    assert.equal(c.nodeOf('low-1'), 'node-1');
    assert.equal(c.nodeOf('high'), 'node-1');
    const attempt = c.records.find((r) => r.type === 'scheduler.attempt' && r.pod.name === 'high') as SchedulingAttemptRecord;
    assert.deepEqual(attempt.preemption, { nominatedNodeName: 'node-1', victims: ['default/low-2'], message: '' });
  });

  it('waits for a terminating victim and says so ("not eligible due to a terminating pod on the nominated node.")', async () => {
    const c = new FakeCluster({ deletionGraceMs: 30_000 });
    fill(c);
    await c.clock.settle();
    c.addPod(makePod('high', { cpu: '1', priority: 1000 }));
    await c.clock.advance(5_000);
    assert.equal(c.pod('high').status?.nominatedNodeName, 'node-1');
    assert.ok(c.pod('low-2').metadata.deletionTimestamp);
    const victimCondition = c.pod('low-2').status?.conditions?.find((x) => x.type === 'DisruptionTarget');
    assert.equal(victimCondition?.reason, 'PreemptionByScheduler');
    assert.equal(victimCondition?.message, 'default-scheduler: preempting to accommodate a higher priority pod');
    // A node that would fit but is tainted requeues the pod while the victim still terminates.
    c.addNode(makeNode('tainted', { cpu: '4', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }));
    await c.clock.advance(5_000);
    assert.deepEqual(c.notes('FailedScheduling'), [
      '0/1 nodes are available: 1 Insufficient cpu.',
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: not eligible due to a terminating pod on the nominated node.',
    ]);
    // The nomination stays (the second failure did not clear it), and the victim's deletion lets it in.
    assert.equal(c.pod('high').status?.nominatedNodeName, 'node-1');
    await c.clock.settle();
    assert.equal(c.nodeOf('high'), 'node-1');
  });

  it('does not preempt with preemptionPolicy Never', async () => {
    const c = new FakeCluster();
    fill(c);
    await c.clock.settle();
    c.addPod(makePod('high', { cpu: '1', priority: 1000, preemptionPolicy: 'Never' }));
    await c.clock.settle();
    assert.deepEqual(c.notes('FailedScheduling'), ['0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.']);
    assert.equal(c.notes('Preempted').length, 0);
  });

  it('finds no victims among pods of equal priority', async () => {
    const c = new FakeCluster();
    fill(c);
    await c.clock.settle();
    c.addPod(makePod('peer', { cpu: '1', priority: 0 }));
    await c.clock.settle();
    assert.deepEqual(c.notes('FailedScheduling'), [
      '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    ]);
  });

  it('prefers victims that do not violate a PodDisruptionBudget', async () => {
    const c = new FakeCluster();
    c.addNode(makeNode('a', { cpu: '1' }));
    c.addNode(makeNode('b', { cpu: '1' }));
    c.addPod(makePod('guarded', { cpu: '1', labels: { app: 'db' }, nodeName: 'a' }));
    c.addPod(makePod('free', { cpu: '1', labels: { app: 'web' }, nodeName: 'b' }));
    c.pdbs.push({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'db', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'db' } } }, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } });
    await c.clock.settle();
    c.addPod(makePod('high', { cpu: '1', priority: 10 }));
    await c.clock.settle();
    assert.equal(c.nodeOf('high'), 'b');
    assert.equal(c.pods.has('default/free'), false);
    assert.equal(c.nodeOf('guarded'), 'a');
  });
});

describe('scheduler: records and determinism', () => {
  it('records every filter verdict and score in full detail', async () => {
    const c = new FakeCluster();
    c.addNode(makeNode('a', { cpu: '4' }));
    c.addNode(makeNode('b', { cpu: '2' }));
    c.addNode(makeNode('t', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }));
    c.addPod(makePod('p', { cpu: '1', memory: '1Gi' }));
    await c.clock.settle();
    const r = c.records.find((x) => x.type === 'scheduler.attempt') as SchedulingAttemptRecord;
    assert.equal(r.outcome, 'scheduled');
    assert.equal(r.node, 'a');
    assert.deepEqual(r.filterPlugins, ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeResourcesFit']);
    assert.deepEqual(r.preFilterSkipped, ['NodeAffinity', 'NodePorts', 'VolumeBinding', 'PodTopologySpread', 'InterPodAffinity', 'DynamicResources']);
    assert.deepEqual(
      r.filters?.map((f) => [f.node, f.code, f.plugin]),
      [
        ['a', 'Success', ''],
        ['b', 'Success', ''],
        ['t', 'UnschedulableAndUnresolvable', 'TaintToleration'],
      ],
    );
    assert.deepEqual(filterPluginVerdicts(r, r.filters![2]!).map((v) => v.verdict), ['passed', 'passed', 'rejected', 'not run']);
    assert.deepEqual(r.scorePlugins, [
      { name: 'TaintToleration', weight: 3 },
      { name: 'NodeResourcesFit', weight: 1 },
      { name: 'NodeResourcesBalancedAllocation', weight: 1 },
      { name: 'ImageLocality', weight: 1 },
    ]);
    assert.deepEqual(r.preScoreSkipped, ['NodeAffinity', 'PodTopologySpread', 'InterPodAffinity']);
    // LeastAllocated: a: cpu (4000-1000)*100/4000 = 75, memory (16Gi-1Gi)*100/16Gi = 93 -> 84.
    const a = r.scores!.find((s) => s.node === 'a')!;
    assert.deepEqual(a.raw, [0, 84, 90, 0]);
    assert.deepEqual(a.normalized, [100, 84, 90, 0]);
    assert.deepEqual(a.weighted, [300, 84, 90, 0]);
    assert.equal(a.total, 474);
    assert.deepEqual(r.ranking.map((x) => x.node), ['a', 'b']);
  });

  it('gives the same placements for the same seed', async () => {
    const placements = async (seed: string): Promise<string[]> => {
      const c = new FakeCluster({ seed, detail: 'off' });
      for (let i = 0; i < 20; i++) c.addNode(makeNode(`n${i}`, { zone: `z${i % 3}` }));
      for (let i = 0; i < 60; i++) c.addPod(makePod(`p${i}`, { cpu: '100m' }));
      await c.clock.settle();
      return Array.from({ length: 60 }, (_, i) => c.nodeOf(`p${i}`)!);
    };
    const a = await placements('one');
    assert.deepEqual(await placements('one'), a);
    assert.notDeepEqual(await placements('two'), a);
  });

  it('searches nodes round robin from where the last cycle stopped', async () => {
    const c = new FakeCluster({ detail: 'summary' });
    for (let i = 0; i < 250; i++) c.addNode(makeNode(`n${i}`));
    await c.clock.settle();
    for (let i = 0; i < 3; i++) c.addPod(makePod(`p${i}`));
    await c.clock.settle();
    const attempts = c.records.filter((r) => r.type === 'scheduler.attempt') as SchedulingAttemptRecord[];
    // 250 nodes: 50 - 250/125 = 48% -> 120 nodes per cycle.
    assert.deepEqual(attempts.map((a) => [a.searchStart, a.numNodesToFind, a.evaluatedNodes]), [
      [0, 120, 120],
      [120, 120, 120],
      [240, 120, 120],
    ]);
    assert.equal(attempts[0]!.ranking.length, 3);
  });
});

describe('scheduler: PreFilter results in the FitError message', () => {
  const pinned = (name: string, nodes: string[]): ReturnType<typeof makePod> =>
    makePod(name, {
      spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: nodes }] }] } } } },
    });

  it('counts the nodes a PreFilter result excluded', async () => {
    const c = new FakeCluster();
    c.addNode(makeNode('node-1', { taints: [{ key: 'k', effect: 'NoSchedule' }] }));
    c.addNode(makeNode('node-2'));
    c.addNode(makeNode('node-3'));
    c.addPod(pinned('p', ['node-1']));
    await c.clock.settle();
    assert.deepEqual(c.notes('FailedScheduling'), [
      "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    ]);
  });

  it('reports a PreFilter rejection once, not per node', async () => {
    const c = new FakeCluster();
    c.addNode(makeNode('node-1'));
    c.addNode(makeNode('node-2'));
    c.addPod(makePod('p', { spec: { resourceClaims: [{ name: 'gpu' }] } }));
    await c.clock.settle();
    assert.deepEqual(c.notes('FailedScheduling'), [
      '0/2 nodes are available: resourceclaim "gpu" not found. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    ]);
  });
});

describe('scheduler: volumes (VolumeBinding, as far as kubesim has volumes)', () => {
  const withClaim = (name: string): ReturnType<typeof makePod> => makePod(name, { spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] } });

  it('reports a missing PersistentVolumeClaim', async () => {
    const c = new FakeCluster();
    c.addNode(makeNode('n'));
    c.addPod(withClaim('p'));
    await c.clock.settle();
    assert.deepEqual(c.notes('FailedScheduling'), [
      '0/1 nodes are available: persistentvolumeclaim "data" not found. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    ]);
  });

  it('reports an unbound claim with Immediate binding, and schedules once it is bound', async () => {
    const c = new FakeCluster();
    c.addNode(makeNode('n'));
    const pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: {} };
    c.pvcs.set('default/data', pvc);
    c.addPod(withClaim('p'));
    await c.clock.settle();
    assert.deepEqual(c.notes('FailedScheduling'), [
      '0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    ]);
    const bound = { ...pvc, spec: { volumeName: 'pv-1' } };
    c.pvcs.set('default/data', bound);
    c.scheduler.onUpdate('PersistentVolumeClaim', pvc, bound);
    await c.clock.settle();
    assert.equal(c.nodeOf('p'), 'n');
  });
});
