import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import { EtcdCluster, MODEL_LATENCY } from '../../../src/engine/store/etcdserver';
import { EtcdFeed, MAX_MESSAGES, type FeedTimers } from '../../../src/extension/panel/etcd-feed';
import { etcdActionsFor, type EtcdFrameMessage, type EtcdResetMessage } from '../../../src/protocol/etcd';
import { parseWebviewMessage } from '../../../src/protocol/panel';
import { EtcdModel, FLIGHT_MS, layoutEtcd, leaderOf, logWindow } from '../../../webview/model/etcd';

function manualTimers(): FeedTimers & { fire(): void } {
  let fn: (() => void) | undefined;
  return {
    setInterval: (f) => {
      fn = f;
      return 1;
    },
    clearInterval: () => {
      fn = undefined;
    },
    fire: () => fn?.(),
  };
}

async function setup(members = 3) {
  const clock = new Clock(Date.UTC(2025, 0, 1));
  const cluster = new EtcdCluster({ clock, random: new Random('etcd-view-test'), members, latency: MODEL_LATENCY });
  const timers = manualTimers();
  const posted: (EtcdFrameMessage | EtcdResetMessage)[] = [];
  const feed = new EtcdFeed(cluster, () => clock.now(), (m) => posted.push(m), timers);
  const model = new EtcdModel();
  let wall = 0;
  const pump = () => {
    for (const m of posted.splice(0)) {
      if (m.type === 'etcd.reset') model.reset(m.cluster, m.capacity);
      else model.add(m, wall);
    }
  };
  return {
    clock,
    cluster,
    feed,
    model,
    posted,
    timers,
    /** Advances virtual time by `ms` and lets the feed post a frame, the webview take it at wall time `at`. */
    async run(ms: number, at = wall) {
      await clock.advance(ms);
      wall = at;
      timers.fire();
      pump();
    },
    sync(at = 0) {
      wall = at;
      feed.reset();
      pump();
    },
  };
}

describe('etcd view model', () => {
  it('draws the members as the engine reports them: leader, term, commit, applied, log tail', async () => {
    const t = await setup();
    t.sync();
    await t.run(500);
    const frame = t.model.latest()!;
    const status = t.cluster.status();
    assert.equal(frame.time, t.clock.now());
    assert.deepEqual(
      frame.members.map((m) => [m.name, m.role, m.term, m.commitIndex, m.appliedIndex, m.lastIndex, m.log.length]),
      status.map((s) => [s.name, s.role, s.term, s.commitIndex, s.appliedIndex, s.lastIndex, s.log.length]),
    );
    const lead = leaderOf(frame.members);
    assert.equal(lead?.name, t.cluster.leader()?.name);
    assert.ok(lead && lead.term >= 2, 'a bootstrapped cluster has a leader at term 2 or more');
    t.feed.dispose();
    t.cluster.close();
  });

  it('pairs each sent message with its delivery and plays it in slow motion, then lets it land', async () => {
    const t = await setup();
    t.sync(0);
    await t.run(250, 1000);
    const flying = t.model.inFlight(1000 + FLIGHT_MS / 2);
    assert.ok(flying.length > 0, 'heartbeats of the last 250 ms are drawn');
    const hb = flying.find((m) => m.msgType === 'MsgHeartbeat');
    assert.ok(hb, `a heartbeat in flight (got ${flying.map((m) => m.msgType).join(', ')})`);
    assert.equal(hb.from, t.cluster.leader()!.name);
    assert.ok(hb.progress > 0 && hb.progress <= 1);
    assert.equal(hb.dropped, false);
    assert.equal(t.model.inFlight(1000 + FLIGHT_MS + 400).length, 0, 'every message has landed after its flight');
    t.feed.dispose();
    t.cluster.close();
  });

  it('draws messages to a stopped member as dropped, and a new leader with a higher term after the leader stops', async () => {
    const t = await setup();
    t.sync(0);
    await t.run(300, 0);
    const old = leaderOf(t.model.latest()!.members)!;
    t.cluster.stop(old.name);
    await t.run(50, 5000);
    const after = t.model.latest()!.members.find((m) => m.name === old.name)!;
    assert.equal(after.state, 'stopped');
    assert.deepEqual(etcdActionsFor(after).includes('start'), true);
    // Followers' responses to the stopped leader are dropped as the message stream records them.
    await t.run(3000, 10_000);
    const frame = t.model.latest()!;
    const lead = leaderOf(frame.members);
    assert.ok(lead, 'a new leader is drawn');
    assert.notEqual(lead.name, old.name);
    assert.ok(lead.term > old.term, `new term ${lead.term} > ${old.term}`);
    const dropped = t.model.inFlight(10_000 + 100).filter((m) => m.dropped);
    const any = dropped.length > 0 || t.model.inFlight(10_000 + 100).length > 0;
    assert.ok(any, 'messages of the last frame are drawn');
    // Replay: the frame before the stop still shows the old leader.
    const before = t.model.at(t.clock.now() - 3040)!;
    assert.equal(leaderOf(before.members)?.name, old.name);
    t.feed.dispose();
    t.cluster.close();
  });

  it('charts only what the engine reports: db size always, the others when the status carries them', async () => {
    const t = await setup();
    t.sync();
    await t.run(200);
    await t.run(200);
    const db = t.model.series('dbSizeBytes');
    assert.equal(db.reported, true);
    assert.ok(db.reported && db.points.length >= 2 && db.points.every((p) => p.value > 0));
    const status = t.cluster.status()[0] as unknown as Record<string, unknown>;
    assert.equal(t.model.series('revisionsPerSecond').reported, 'revisionsPerSecond' in status);
    assert.equal(t.model.series('commitLatencyMs').reported, 'commitLatencyMs' in status);
    t.feed.dispose();
    t.cluster.close();
  });

  it('bounds a burst of messages per frame and says how many it left out', async () => {
    const t = await setup();
    t.sync();
    await t.run(20_000);
    const frames = t.posted;
    assert.equal(frames.length, 0);
    const last = t.model.latest()!;
    assert.ok(last);
    assert.ok(t.model.droppedMessages > 0, 'twenty seconds of heartbeats exceed one frame');
    assert.ok(t.model.messageCounts().get('MsgHeartbeat')! <= 2 * MAX_MESSAGES);
    t.feed.dispose();
    t.cluster.close();
  });

  it('lays out a ring, one log row per member and three charts inside the canvas', () => {
    for (const n of [1, 3, 5, 7]) {
      const names = Array.from({ length: n }, (_, i) => `etcd-${i}`);
      const L = layoutEtcd(names, 1300, 640);
      assert.equal(L.nodes.length, n);
      for (const node of L.nodes) {
        assert.ok(node.x - node.r >= 0 && node.x + node.r <= L.logs.x, `${node.name} inside the ring area`);
        assert.ok(node.y - node.r >= 0 && node.y + node.r <= L.charts[0]!.y, `${node.name} above the charts`);
      }
      assert.ok(L.logs.y + n * L.logs.rowH <= L.charts[0]!.y);
      assert.equal(L.charts.length, 3);
      assert.ok(L.charts[2]!.x + L.charts[2]!.w <= 1300);
    }
    const w = logWindow([{ lastIndex: 120 } as never, { lastIndex: 90 } as never], 50);
    assert.deepEqual(w, { from: 71, to: 120 });
  });

  it('validates the view\'s actions as it validates every webview message', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'etcdAction', action: 'stop', member: 'etcd-1' }), { ok: true, message: { type: 'etcdAction', action: 'stop', member: 'etcd-1' } });
    assert.equal(parseWebviewMessage({ type: 'etcdAction', action: 'rm -rf', member: 'etcd-1' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'etcdAction', action: 'stop', member: 'leader; x' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'etcdAction', action: 'stop', member: 'etcd-1', extra: 1 }).ok, false);
  });
});
