/**
 * Step to next change over a real cluster: each step stops at a write, a reconcile that acted, a
 * scheduling decision or a kubelet's step, never at a heartbeat, and a cluster with nothing to
 * do runs its heartbeats up to the horizon and says so.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createCluster, type Cluster } from '../../../src/engine/cluster';
import { applyManifestText } from '../../../src/engine/kubectl/apply';
import { isChange, stepToNextChange } from '../../../src/engine/step';
import { isEvent, isHeartbeat } from '../../../src/engine/timeline/noise';
import type { TraceRecord } from '../../../src/engine/trace/types';

const WEB = readFileSync('examples/web.yaml', 'utf8');

function what(r: TraceRecord): string {
  switch (r.type) {
    case 'store.revision':
      return `write ${r.resource}`;
    case 'controller.reconcile':
      return `reconcile ${r.controller}`;
    case 'scheduler.attempt':
    case 'scheduler.binding':
      return 'scheduler';
    case 'kubelet.action':
      return `kubelet ${r.action}`;
    default:
      return r.type;
  }
}

describe('Step to next change', () => {
  let cluster: Cluster;
  beforeEach(async () => {
    cluster = await createCluster({ seed: 'step' });
    await cluster.settle();
    // metrics-server's APIService turns Available once it has scraped (a change 15-20 s in):
    // the tests start from a cluster past its start-up
    await cluster.advance(20_000);
    await cluster.settle();
  });
  afterEach(() => cluster.close());

  it('walks an apply change by change and never stops at a heartbeat', async () => {
    await applyManifestText(cluster.client(), 'web.yaml', WEB);
    const lookup = (id: number) => cluster.trace.get(id);
    const firsts: string[] = [];
    let steps = 0;
    for (let i = 0; ; i++) {
      const r = await stepToNextChange(cluster.clock, cluster.trace);
      if (r.stopped !== 'change') {
        assert.equal(r.stopped, 'horizon', 'the apply played out: only heartbeats are left');
        break;
      }
      assert.ok(i < 500, 'the apply plays out in a bounded number of steps');
      steps++;
      for (const c of r.changes) {
        assert.ok(isChange(c, lookup), `${what(c)} is a change`);
        assert.ok(!isHeartbeat(c, lookup) && !isEvent(c), `${what(c)} is not a heartbeat or an Event write`);
      }
      firsts.push(...r.changes.map(what));
    }
    assert.ok(steps >= 20, `the apply takes many steps, not one jump: ${steps}`);
    // The story of the apply, in the order the steps met it.
    const order = ['reconcile deployment', 'reconcile replicaset', 'scheduler', 'kubelet pod-admitted', 'kubelet sandbox-created', 'kubelet image-pulled', 'kubelet container-started'];
    let at = -1;
    for (const step of order) {
      const next = firsts.indexOf(step, at + 1);
      assert.ok(next > at, `"${step}" comes after the step before it: ${firsts.join(', ')}`);
      at = next;
    }
  });

  it('runs a quiet cluster\'s heartbeats up to the horizon and stops there', async () => {
    const start = cluster.clock.now();
    const first = cluster.trace.next;
    const r = await stepToNextChange(cluster.clock, cluster.trace, { maxMs: 60_000 });
    assert.equal(r.stopped, 'horizon');
    assert.deepEqual(r.changes, []);
    assert.ok(cluster.clock.now() - start <= 60_000 && r.timers > 0, 'the heartbeats ran, time stayed within the horizon');
    const leases = cluster.trace.since(first).filter((x) => x.type === 'store.revision' && x.resource === 'leases');
    assert.ok(leases.length > 0, 'Lease renewals happened on the way');
  });

  it('stops at the node lifecycle controller marking a stopped node Unknown', async () => {
    cluster.stopNode('kubesim-worker');
    const start = cluster.clock.now();
    const first = await stepToNextChange(cluster.clock, cluster.trace);
    assert.equal(first.stopped, 'change');
    assert.ok(cluster.clock.now() - start >= 40_000, 'after the node monitor grace period (40s)');
    // The reconcile's record comes out when it ends, after its Node write is committed and
    // answered; the step stops at the first of the two, so the other may be the next step's.
    const isNodeWrite = (c: TraceRecord): boolean => c.type === 'store.revision' && c.resource === 'nodes';
    const acted = (cs: readonly TraceRecord[]): boolean => cs.map(what).includes('reconcile node-lifecycle');
    let changes = first.changes;
    if (!acted(changes) || !changes.some(isNodeWrite)) changes = [...changes, ...(await stepToNextChange(cluster.clock, cluster.trace)).changes];
    assert.ok(acted(changes), `the controller noticed the silence and acted: ${changes.map(what).join(', ')}`);
    const change = changes.find((c) => c.type === 'store.revision' && c.resource === 'nodes');
    assert.ok(change && change.type === 'store.revision', `then its Node write: ${changes.map(what).join(', ')}`);
    assert.equal(change.name, 'kubesim-worker');
    assert.equal(change.conditions?.Ready, 'Unknown', 'the write says the Ready condition became Unknown');
  });
});
