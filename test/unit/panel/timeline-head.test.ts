import { strict as assert } from 'node:assert';
import { SharedInformerFactory } from '../../../src/engine/client/informer';
import { createCluster } from '../../../src/engine/cluster';
import type { PanelRecord } from '../../../src/protocol/panel';
import { StateLog } from '../../../src/extension/panel/state-log';
import { StoreHead, timelineStatus } from '../../../webview/model/head';
import { StateHistory } from '../../../webview/model/history';

/**
 * The etcd tab's timeline said "Live · revision 192" while the members stood at 218: it named the
 * newest change of the kinds the pictures draw, and Lease renewals and Events (not drawn) had
 * moved the store on since. The timeline names the store's head, from the trace.
 */
describe('panel timeline: the revision it names is the store’s', function () {
  this.timeout(60_000);

  it('live: the store’s newest revision and its time, though no drawn kind changed since', async () => {
    const cluster = await createCluster({ seed: 'timeline-head' });
    const factory = new SharedInformerFactory({ client: cluster.client(), clock: cluster.clock, random: cluster.random.fork('timeline-head'), component: 'timeline-head' });
    const log = new StateLog({ factory, trace: cluster.trace, clock: cluster.clock, machines: cluster.nodes().map((node) => ({ node, running: true })) });
    factory.start();
    try {
      // Twenty seconds of an idle cluster: node Lease renewals every 10 s, nothing the map draws.
      await cluster.advance(20_000);
      const snap = log.snapshot();
      const history = new StateHistory();
      history.reset(snap.heldFrom, snap.heldFromTime, snap.capacity);
      history.add(snap.changes, snap.heldFrom, snap.heldFromTime);
      const head = new StoreHead();
      head.note(cluster.trace.records() as readonly PanelRecord[]);
      const etcdRevision = Math.max(...cluster.etcd!.status().map((m) => m.revision));
      assert.ok(history.latestRevision < etcdRevision, `the drawn kinds' newest change (${history.latestRevision}) lags the store (${etcdRevision}): the case of the bug`);
      const live = timelineStatus(history, head, undefined);
      assert.equal(live.revision, etcdRevision);
      assert.equal(live.latest, etcdRevision);
      assert.match(live.text, new RegExp(`^Live · revision ${etcdRevision} · `));
      assert.ok(live.time > history.latestTime, 'the time named is the head’s, not the last drawn change’s');
      // Replay at the last drawn change: that revision, "of" the store's head.
      const replay = timelineStatus(history, head, history.latestRevision);
      assert.equal(replay.revision, history.latestRevision);
      assert.match(replay.text, new RegExp(`^Replay · revision ${history.latestRevision} of ${etcdRevision} · `));
    } finally {
      log.stop();
      factory.shutdown();
      await cluster.close();
    }
  });

  it('a reset forgets the head; older or out-of-order records never move it back', () => {
    const head = new StoreHead();
    const rec = (id: number, revision: number, time: number) => ({ id, type: 'store.revision', time, revision }) as unknown as PanelRecord;
    head.note([rec(1, 5, 100), rec(2, 7, 200), rec(3, 6, 150)]);
    assert.deepEqual([head.revision, head.time], [7, 200]);
    head.reset();
    assert.deepEqual([head.revision, head.time], [0, 0]);
  });
});
