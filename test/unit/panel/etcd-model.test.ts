import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import { EtcdCluster, MODEL_LATENCY } from '../../../src/engine/store/etcdserver';
import { EtcdFeed, MAX_MESSAGES, type FeedTimers } from '../../../src/extension/panel/etcd-feed';
import { etcdActionsFor, type EtcdFrameMessage, type EtcdResetMessage } from '../../../src/protocol/etcd';
import { parseWebviewMessage } from '../../../src/protocol/panel';
import type { EtcdMessageRecord } from '../../../src/engine/trace/etcd';
import { CACHE_HEAD_H, CHART_FIELDS, chartAxis, EtcdModel, FLIGHT_WALL_MS, formatMicros, layoutEtcd, leaderOf, LIVE_LAG_MS, logWindow, RaftLens, watchCacheRows } from '../../../webview/model/etcd';
import { createCluster } from '../../../src/engine/cluster';
import type { WatchCacheView } from '../../../src/protocol/etcd';

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
  const pump = () => {
    for (const m of posted.splice(0)) {
      if (m.type === 'etcd.reset') model.reset(m.cluster, m.capacity);
      else model.add(m);
    }
  };
  /** The engine's message records: each 'sent' with its delivered or dropped record. */
  const flights = () => {
    const recs = cluster.messages.records().filter((r): r is EtcdMessageRecord => r.type === 'etcd.message');
    const out = new Map<number, { sent: EtcdMessageRecord; end?: EtcdMessageRecord }>();
    for (const r of recs) {
      if (r.event === 'sent') out.set(r.id, { sent: r });
      else if (r.cause !== undefined && out.has(r.cause)) out.get(r.cause)!.end = r;
    }
    return [...out.values()];
  };
  return {
    clock,
    cluster,
    feed,
    model,
    posted,
    timers,
    flights,
    /** Advances virtual time by `ms` and lets the feed post a frame. */
    async run(ms: number) {
      await clock.advance(ms);
      timers.fire();
      pump();
    },
    sync() {
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

  it('draws each message where its sent and delivered records put it at the instant drawn (RaftScope: (t - sent) / (delivered - sent))', async () => {
    const t = await setup();
    t.sync();
    await t.run(250);
    const hb = t.flights().find((f) => f.sent.msgType === 'MsgHeartbeat' && f.end?.event === 'delivered')!;
    assert.ok(hb, 'the leader sent heartbeats in 250 ms');
    const s = hb.sent.time;
    const d = hb.end!.time;
    assert.equal(d - s, MODEL_LATENCY.rttMs / 2, 'a hop takes half the modelled round trip');
    const mid = t.model.messagesAt(s + (d - s) / 2).find((m) => m.id === hb.sent.id);
    assert.ok(mid, 'in the air halfway through its flight');
    assert.equal(mid.state, 'flying');
    assert.equal(mid.from, t.cluster.leader()!.name);
    assert.equal(mid.to, hb.sent.to);
    assert.ok(Math.abs(mid.progress - 0.5) < 1e-9, `progress ${mid.progress}`);
    assert.deepEqual([mid.sentAt, mid.endAt], [s, d]);
    assert.equal(t.model.messagesAt(s - 0.001).some((m) => m.id === hb.sent.id), false, 'not before it was sent');
    assert.equal(t.model.messagesAt(d).some((m) => m.id === hb.sent.id), false, 'gone once delivered');
    // Replay: a minute later, the instant of that heartbeat still draws it.
    await t.run(60_000);
    assert.ok(t.model.messagesAt(s + (d - s) / 4).some((m) => m.id === hb.sent.id && Math.abs(m.progress - 0.25) < 1e-9), 'replayed at its virtual time');
    t.feed.dispose();
    t.cluster.close();
  });

  it('draws a message to a stopped member as dropped at the time of the drop, and a new leader with a higher term after the leader stops', async () => {
    const t = await setup();
    t.sync();
    await t.run(300);
    const old = leaderOf(t.model.latest()!.members)!;
    const stoppedAt = t.clock.now();
    t.cluster.stop(old.name);
    await t.run(50);
    const after = t.model.latest()!.members.find((m) => m.name === old.name)!;
    assert.equal(after.state, 'stopped');
    assert.deepEqual(etcdActionsFor(after).includes('start'), true);
    await t.run(3000);
    const frame = t.model.latest()!;
    const lead = leaderOf(frame.members);
    assert.ok(lead, 'a new leader is drawn');
    assert.notEqual(lead.name, old.name);
    assert.ok(lead.term > old.term, `new term ${lead.term} > ${old.term}`);
    // The followers' votes and pre-votes to the stopped member were dropped, as the stream recorded.
    const drop = t.flights().find((f) => f.end?.event === 'dropped' && f.sent.to === old.name && f.sent.time >= stoppedAt)!;
    assert.ok(drop, 'a message to the stopped member was dropped');
    const drawn = t.model.messagesAt(drop.end!.time).find((m) => m.id === drop.sent.id);
    assert.ok(drawn, 'drawn at the instant of its drop');
    assert.equal(drawn.state, 'dropped');
    assert.equal(drawn.reason, 'stopped');
    assert.equal(t.model.messagesAt(drop.end!.time + t.model.dropShownMs + 0.001).some((m) => m.id === drop.sent.id), false, 'and gone a hop later');
    // Replay: the frame before the stop still shows the old leader.
    const before = t.model.at(stoppedAt - 1)!;
    assert.equal(leaderOf(before.members)?.name, old.name);
    t.feed.dispose();
    t.cluster.close();
  });

  it('the lens stops at the timeline’s instant, steps record by record, plays a flight in slow motion and skips idle time', async () => {
    const t = await setup();
    t.sync();
    await t.run(400);
    const hb = t.flights().filter((f) => f.sent.msgType === 'MsgHeartbeat' && f.end)[1]!;
    const lens = new RaftLens();
    // Scrubbed to just before a heartbeat round: paused there.
    const base = hb.sent.time - 10;
    lens.follow(base, t.model);
    assert.equal(lens.time, base);
    assert.equal(lens.playing, false);
    assert.equal(lens.tick(16, t.model), false, 'paused: the lens stays put');
    // Next record: exactly the first send after the instant.
    lens.step(1, t.model);
    const firstAfter = t.flights().map((f) => f.sent.time).filter((x) => x > base).sort((a, b) => a - b)[0];
    assert.equal(lens.time, firstAfter);
    lens.step(-1, t.model);
    assert.ok(lens.time! < firstAfter!, 'and back');
    // Playing: while a message is in the air, one hop takes FLIGHT_WALL_MS of wall time.
    lens.follow(undefined, t.model);
    lens.follow(hb.sent.time, t.model);
    lens.toggle();
    assert.equal(lens.playing, true);
    lens.tick(FLIGHT_WALL_MS / 2, t.model);
    assert.ok(Math.abs(lens.time! - (hb.sent.time + MODEL_LATENCY.rttMs / 4)) < 1e-9, `halfway through the hop: ${formatMicros(lens.time!)}`);
    // Once nothing is in the air it jumps to the next record (a heartbeat interval is mostly idle).
    for (let i = 0; i < 50 && t.model.messagesAt(lens.time!).length > 0; i++) lens.tick(FLIGHT_WALL_MS / 4, t.model);
    const idleAt = lens.time!;
    lens.tick(16, t.model);
    assert.equal(lens.time, t.model.nextEvent(idleAt));
    assert.ok(lens.skippedMs > 0);
    t.feed.dispose();
    t.cluster.close();
  });

  it('live, the lens plays the newest round and never lags the cluster by more than LIVE_LAG_MS for long', async () => {
    const t = await setup();
    t.sync();
    await t.run(200);
    const lens = new RaftLens();
    lens.follow(undefined, t.model);
    assert.equal(lens.playing, true);
    assert.equal(lens.live, true);
    await t.run(5000);
    for (let i = 0; i < 40; i++) lens.tick(100, t.model);
    const head = t.model.latest()!.time;
    assert.ok(head - lens.time! <= LIVE_LAG_MS + 100, `lens at ${formatMicros(lens.time!)}, head at ${formatMicros(head)}`);
    t.feed.dispose();
    t.cluster.close();
  });

  it('with the instant latency model, an instant’s messages are drawn as sent and delivered in that instant', async () => {
    const clock = new Clock(Date.UTC(2025, 0, 1));
    const cluster = new EtcdCluster({ clock, random: new Random('etcd-view-instant'), members: 3, latency: { apiserverMs: 0, rttMs: 0, walFsyncMs: 0 } });
    const timers = manualTimers();
    const model = new EtcdModel();
    const feed = new EtcdFeed(cluster, () => clock.now(), (m) => (m.type === 'etcd.reset' ? model.reset(m.cluster, m.capacity) : model.add(m)), timers);
    feed.reset();
    await clock.advance(300);
    timers.fire();
    const hb = cluster.messages.records().find((r) => r.type === 'etcd.message' && r.event === 'sent' && r.msgType === 'MsgHeartbeat')!;
    const drawn = model.messagesAt(hb.time).find((m) => m.id === hb.id);
    assert.equal(drawn?.state, 'instant');
    assert.equal(model.messagesAt(hb.time + 0.001).some((m) => m.id === hb.id), false);
    feed.dispose();
    cluster.close();
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
    const watchers = t.model.series('watchers');
    assert.equal(watchers.reported, 'watchers' in status);
    if (watchers.reported) assert.equal(watchers.points[watchers.points.length - 1]!.value, t.cluster.status().reduce((n, m) => n + (m.state === 'running' ? m.watchers : 0), 0), 'the sum over the running members');
    t.feed.dispose();
    t.cluster.close();
  });

  it('carries the API server’s watch caches in each frame as watchCacheStatus() reports them, and charts its watchers beside etcd’s', async () => {
    const cluster = await createCluster({ seed: 'etcd-view-watch-cache' });
    // The controllers' informers are all watching by then.
    await cluster.advance(5000);
    const timers = manualTimers();
    const model = new EtcdModel();
    const feed = new EtcdFeed(cluster.etcd!, () => cluster.clock.now(), (m) => (m.type === 'etcd.reset' ? model.reset(m.cluster, m.capacity) : model.add(m)), timers, () => cluster.server.watchCacheStatus());
    feed.reset();
    const before = model.latest()!.watchCache!;
    assert.deepEqual(before, JSON.parse(JSON.stringify(cluster.server.watchCacheStatus())), 'the frame holds the engine’s figures, field for field');
    const pods = cluster.client().resource({ group: '', version: 'v1', resource: 'pods' }, 'default');
    // A watch served from the pods cache: one more API server watcher; etcd's watchers (one per cache) stay.
    const handle = await pods.watch({}, () => undefined);
    assert.equal(handle.response.code, 200);
    await pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await cluster.advance(200);
    timers.fire();
    const after = model.latest()!.watchCache!;
    assert.deepEqual(after, JSON.parse(JSON.stringify(cluster.server.watchCacheStatus())), 'read at the frame’s instant');
    const row = (wc: WatchCacheView, r: string) => wc.resources.find((x) => x.resource === r)!;
    assert.equal(row(after, 'pods').objects, row(before, 'pods').objects + 1);
    assert.ok(row(after, 'pods').resourceVersion > row(before, 'pods').resourceVersion, 'the pods cache saw the create');
    assert.ok(row(after, 'pods').watchers > row(before, 'pods').watchers, 'the watch is served by the pods cache');
    assert.equal(after.watchers, after.resources.reduce((n, r) => n + r.watchers, 0), 'the total is the sum over the caches');
    // The watch stopped: one watcher fewer in the next frame.
    handle.stop();
    await cluster.advance(100);
    timers.fire();
    assert.equal(row(model.latest()!.watchCache!, 'pods').watchers, row(after, 'pods').watchers - 1);
    const api = model.series('apiserverWatchers');
    const etcd = model.series('watchers');
    assert.ok(api.reported && etcd.reported);
    assert.equal(api.points[api.points.length - 1]!.value, model.latest()!.watchCache!.watchers);
    assert.equal(etcd.points[etcd.points.length - 1]!.value, etcd.points[0]!.value, 'a watch served from the cache opens no etcd watch');
    // The table's order: watchers first, then events; the cut says what it left out.
    const { rows, hidden } = watchCacheRows(after, 3);
    assert.equal(rows.length, 3);
    assert.ok(rows[0]!.watchers >= rows[1]!.watchers && rows[1]!.watchers >= rows[2]!.watchers);
    assert.equal(hidden.resources, after.resources.length - 3);
    assert.equal(hidden.objects + rows.reduce((n, r) => n + r.objects, 0), after.objects);
    assert.equal(hidden.watchers + rows.reduce((n, r) => n + r.watchers, 0), after.watchers);
    feed.dispose();
    await cluster.close();
  });

  it('without a watch cache reader a frame carries none, and its chart line is not reported', async () => {
    const t = await setup();
    t.sync();
    await t.run(200);
    assert.equal(t.model.latest()!.watchCache, undefined);
    assert.equal(t.model.series('apiserverWatchers').reported, false);
    t.feed.dispose();
    t.cluster.close();
  });

  it('bounds a burst of messages per frame and says how many it left out', async () => {
    const t = await setup();
    t.sync();
    await t.run(120_000);
    const frames = t.posted;
    assert.equal(frames.length, 0);
    const last = t.model.latest()!;
    assert.ok(last);
    assert.ok(t.model.droppedMessages > 0, 'two minutes of heartbeats and their responses exceed one frame');
    assert.ok(t.model.messageCounts().get('MsgHeartbeat')! <= 2 * MAX_MESSAGES);
    assert.ok(t.model.messagesFrom! > t.clock.now() - 120_000, 'the messages held begin after the hole the burst left');
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
      // The watch cache table under the logs' term key, above the charts, its rows inside its box.
      assert.ok(L.cache.y >= L.logs.y + n * L.logs.rowH + 20, 'below the term key');
      assert.ok(L.cache.y + L.cache.h <= L.charts[0]!.y, 'above the charts');
      assert.ok(CACHE_HEAD_H + L.cache.rows * L.cache.rowH <= L.cache.h);
      assert.equal(L.cache.x, L.logs.x);
      assert.equal(L.charts.length, CHART_FIELDS.length);
      const last = L.charts[L.charts.length - 1]!;
      assert.ok(last.x + last.w <= 1300);
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

describe('etcd charts: the shared time axis', () => {
  it('spans every series from the earliest report to the latest, so the cursor stands at one x in all charts', () => {
    const db = [{ time: 1000 }, { time: 17000 }];
    const latency = [{ time: 1200 }, { time: 11000 }];
    assert.deepEqual(chartAxis([db, latency], 5000), { t0: 1000, t1: 17000 });
  });
  it('reaches the instant drawn when it is past the last report (live: now)', () => {
    assert.deepEqual(chartAxis([[{ time: 1000 }, { time: 11000 }]], 16377), { t0: 1000, t1: 16377 });
  });
  it('has no axis with fewer than two reports, and never a zero-width one', () => {
    assert.equal(chartAxis([[{ time: 5 }], []], 5), undefined);
    assert.deepEqual(chartAxis([[{ time: 5 }], [{ time: 5 }]], 5), { t0: 5, t1: 6 });
  });
});
