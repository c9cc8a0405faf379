import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, promises as fsPromises, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../src/engine/clock';
import { STORE_SNAPSHOT_FORMAT } from '../../../src/engine/store';
import { TraceBuffer } from '../../../src/engine/trace/buffer';
import { AutoSaver, DamagedSnapshotError, SnapshotFile, SupersededError } from '../../../src/extension/persistence';
import { CLUSTER_SNAPSHOT_FORMAT, parseClusterSnapshot, serializeClusterSnapshot, snapshotJsonChunks, type ClusterSnapshot } from '../../../src/extension/snapshot';

const snapshot = (time: number): ClusterSnapshot => ({
  format: CLUSTER_SNAPSHOT_FORMAT,
  seed: 'kubesim',
  time,
  clock: { state: 'running', speed: 1 },
  nodes: [{ config: { name: 'kubesim-worker', internalIP: '172.18.0.3', podCIDR: '10.244.2.0/24' }, running: true }],
  store: { format: STORE_SNAPSHOT_FORMAT, revision: 1, compactRevision: -1, base: [], logStart: 2, log: [], nextLeaseId: 1, leases: [] },
});

/** A trace buffer holding records 1..n (record i at virtual time i). */
function traceOf(n: number, capacity = 100): TraceBuffer {
  let now = 0;
  const trace = new TraceBuffer({ clock: { now: () => now } as unknown as Clock, capacity });
  for (let i = 1; i <= n; i++) {
    now = i;
    trace.emit({ type: 'kube.event', component: 'test', reason: `r${i}` } as never);
  }
  return trace;
}
const ids = (records: readonly { id: number }[]) => records.map((r) => r.id);

describe('saved clusters', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kubesim-persist-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trip through the files, written whole (no temporary file left behind)', async () => {
    const file = new SnapshotFile(join(dir, 'storage', 'cluster.json'));
    assert.equal(await file.load(100), undefined);
    await file.claim();
    const trace = traceOf(5);
    await file.save(snapshot(1000), trace);
    const saved = await file.load(100);
    assert.deepEqual(saved?.snapshot, { ...snapshot(1000), trace: { next: 6 } });
    assert.deepEqual(saved?.trace, { next: 6, records: trace.records().map((r) => ({ ...r })) });
    assert.deepEqual(readdirSync(join(dir, 'storage')).sort(), ['cluster.json', 'cluster.json.owner', 'cluster.trace.jsonl']);
    await file.remove();
    assert.equal(await file.load(100), undefined);
    assert.deepEqual(readdirSync(join(dir, 'storage')).sort(), ['cluster.json.owner']);
  });

  it('belong to the session that claimed them last: an older one stops writing', async () => {
    const path = join(dir, 'cluster.json');
    const older = new SnapshotFile(path);
    const newer = new SnapshotFile(path);
    await older.claim();
    await older.save(snapshot(1));
    await newer.claim();
    await newer.save(snapshot(2));
    await assert.rejects(older.save(snapshot(3)), SupersededError);
    assert.equal((await newer.load(100))!.snapshot.time, 2);
  });

  it('a save that cannot be read is moved aside with a timestamp, never overwritten: truncated, garbage, not a snapshot', async () => {
    const path = join(dir, 'cluster.json');
    const good = serializeClusterSnapshot(snapshot(7));
    const cases: Array<[string, Buffer, RegExp]> = [
      ['truncated', Buffer.from(good.slice(0, Math.floor(good.length / 2))), /^not a KubeSim cluster snapshot: /],
      ['garbage', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)), /^not a KubeSim cluster snapshot: /],
      ['another format', Buffer.from('{"format":"something-else"}'), /^not a KubeSim cluster snapshot \(expected format kubesim\/cluster-snapshot@1\)$/],
    ];
    for (const [what, bytes, reason] of cases) {
      writeFileSync(path, bytes);
      writeFileSync(join(dir, 'cluster.trace.jsonl'), '{"id":1,"time":0,"type":"kube.event"}\n');
      const err = await new SnapshotFile(path).load(100).then(
        () => assert.fail(`${what}: loaded`),
        (e: unknown) => e,
      );
      assert.ok(err instanceof DamagedSnapshotError, `${what}: ${String(err)}`);
      assert.match(err.reason, reason, what);
      assert.match(err.movedTo, /cluster\.json\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z(-\d+)?$/);
      assert.equal(err.message, `the saved cluster could not be read (${err.reason}); it was moved to ${err.movedTo}`);
      assert.deepEqual(readFileSync(err.movedTo), bytes, `${what}: the damaged bytes are kept as they were`);
      assert.equal(existsSync(path), false);
      assert.ok(existsSync(`${err.movedTo.replace('cluster.json', 'cluster.trace.jsonl')}`), 'its trace goes aside with it');
      assert.equal(await new SnapshotFile(path).load(100), undefined, 'and the next start finds nothing to read');
    }
    // Not even a file: a folder in its place is moved aside too.
    mkdirSync(path);
    const folder = await new SnapshotFile(path).load(100).then(
      () => assert.fail('loaded a folder'),
      (e: unknown) => e,
    );
    assert.ok(folder instanceof DamagedSnapshotError);
    assert.match(folder.reason, /EISDIR/);
    assert.equal(existsSync(path), false);
    assert.ok(existsSync(folder.movedTo));
    assert.throws(() => parseClusterSnapshot(serializeClusterSnapshot({ ...snapshot(1), clock: { state: 'stopped' } } as unknown as ClusterSnapshot)), /cluster snapshot: bad clock state/);
    assert.throws(() => parseClusterSnapshot(JSON.stringify({ ...snapshot(1), store: { format: 'x' } })), /the store is not a kubesim\/store-snapshot@1 snapshot/);
    assert.throws(() => parseClusterSnapshot(JSON.stringify({ ...snapshot(1), trace: { next: 'x' } })), /cluster snapshot: bad trace position/);
  });

  it('the trace: saves append only what is new; the file is written anew past 1.5 buffers; a reload keeps the newest records', async () => {
    const path = join(dir, 'cluster.json');
    const file = new SnapshotFile(path);
    await file.claim();
    let now = 0;
    const trace = new TraceBuffer({ clock: { now: () => now } as unknown as Clock, capacity: 10 });
    const emit = (n: number) => {
      for (let i = 0; i < n; i++) {
        now++;
        trace.emit({ type: 'kube.event', component: 'test' } as never);
      }
    };
    const lines = () => readFileSync(join(dir, 'cluster.trace.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: number }).id);
    emit(4);
    await file.save(snapshot(1), trace);
    assert.deepEqual(lines(), [1, 2, 3, 4], 'the first save of a session writes the file anew');
    // A request's record: its id is taken when it starts, the record comes when it ends.
    const pending = trace.reserve();
    emit(2);
    await file.save(snapshot(2), trace);
    assert.deepEqual(lines(), [1, 2, 3, 4, 6, 7]);
    trace.emit({ type: 'kube.event', component: 'test' } as never, pending);
    emit(1);
    await file.save(snapshot(3), trace);
    assert.deepEqual(lines(), [1, 2, 3, 4, 6, 7, 5, 8], 'a record that came late is appended once it is there');
    await file.save(snapshot(4), trace);
    assert.deepEqual(lines(), [1, 2, 3, 4, 6, 7, 5, 8], 'nothing new, nothing written');
    emit(8);
    await file.save(snapshot(5), trace);
    assert.deepEqual(lines(), [7, 8, 9, 10, 11, 12, 13, 14, 15, 16], 'past 15 lines for a buffer of 10: the buffer\'s records only');
    const restored = await new SnapshotFile(path).load(10);
    assert.deepEqual(ids(restored!.trace.records), [7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    assert.equal(restored!.trace.next, 17);
    const smaller = await new SnapshotFile(path).load(4);
    assert.deepEqual(ids(smaller!.trace.records), [13, 14, 15, 16], 'a smaller kubesim.traceBufferSize keeps the newest');
  });

  it('the trace after a crash: a cut last line and the records of a save whose cluster file never came are dropped', async () => {
    const path = join(dir, 'cluster.json');
    const file = new SnapshotFile(path);
    await file.claim();
    const trace = traceOf(5);
    await file.save(snapshot(1), trace);
    const log = join(dir, 'cluster.trace.jsonl');
    const record = (id: number) => JSON.stringify({ id, time: id, type: 'kube.event', component: 'test' });
    // The next save appended 6 and 7, then was killed in the middle of 8, before cluster.json.
    appendFileSync(log, `${record(6)}\n${record(7)}\n${record(8).slice(0, 20)}`);
    const saved = await new SnapshotFile(path).load(100);
    assert.deepEqual(ids(saved!.trace.records), [1, 2, 3, 4, 5]);
    assert.equal(saved!.traceDamaged, undefined, 'an interrupted append is not damage');
    assert.deepEqual(readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: number }).id), [1, 2, 3, 4, 5], 'the file is made whole again');
    // A line in the middle that is not a record: the trace is moved aside, the cluster comes back.
    writeFileSync(log, `${record(1)}\nnot json\n${record(3)}\n`);
    const damaged = await new SnapshotFile(path).load(100);
    assert.equal(damaged!.snapshot.time, 1);
    assert.deepEqual(damaged!.trace, { next: 6, records: [] });
    assert.match(damaged!.traceDamaged!.message, /^the saved trace could not be read \(line 2: .*\); it was moved to .*cluster\.trace\.jsonl\.damaged-/);
    assert.equal(readFileSync(damaged!.traceDamaged!.movedTo, 'utf8'), `${record(1)}\nnot json\n${record(3)}\n`);
  });

  it('fsyncs the file before the rename and the folder after it', async () => {
    const calls: string[] = [];
    const promises = fsPromises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const probe = await fsPromises.open(join(dir, 'probe'), 'w');
    const handle = Object.getPrototypeOf(probe) as { sync: () => Promise<void>; close: () => Promise<void> };
    await probe.close();
    const originals = { open: promises.open!, rename: promises.rename!, sync: handle.sync };
    const paths = new WeakMap<object, string>();
    promises.open = async (...args: unknown[]) => {
      const h = (await originals.open(...args)) as object;
      paths.set(h, String(args[0]).replace(dir, '<dir>').replace(/\.\d+\.\d+\.tmp$/, '.<tmp>'));
      return h;
    };
    promises.rename = async (...args: unknown[]) => {
      calls.push(`rename ${String(args[0]).replace(dir, '<dir>').replace(/\.\d+\.\d+\.tmp$/, '.<tmp>')}`);
      return originals.rename(...args);
    };
    handle.sync = async function (this: object) {
      calls.push(`fsync ${paths.get(this) ?? '?'}`);
      return originals.sync.call(this);
    };
    try {
      const file = new SnapshotFile(join(dir, 'cluster.json'));
      await file.claim();
      await file.save(snapshot(1));
    } finally {
      promises.open = originals.open;
      promises.rename = originals.rename;
      handle.sync = originals.sync;
    }
    assert.deepEqual(calls, ['fsync <dir>/cluster.json.<tmp>', 'rename <dir>/cluster.json.<tmp>', 'fsync <dir>']);
  });

  it('the temporary files of an interrupted save go at the next start; one a live writer is still writing stays', async () => {
    const path = join(dir, 'cluster.json');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(join(dir, `cluster.json.${dead}.3.tmp`), 'x'.repeat(1000));
    writeFileSync(join(dir, `cluster.trace.jsonl.${dead}.1.tmp`), 'y');
    writeFileSync(join(dir, `cluster.json.${process.ppid}.1.tmp`), 'in progress');
    writeFileSync(join(dir, `cluster.json.${process.ppid}.2.tmp`), 'abandoned');
    const old = new Date(Date.now() - 11 * 60 * 1000);
    utimesSync(join(dir, `cluster.json.${process.ppid}.2.tmp`), old, old);
    writeFileSync(join(dir, `other.json.${dead}.1.tmp`), 'not ours');
    const removed = await new SnapshotFile(path).removeInterruptedWrites();
    assert.deepEqual(removed.map((r) => [r.file.replace(dir, '<dir>'), r.bytes]).sort(), [
      [`<dir>/cluster.json.${dead}.3.tmp`, 1000],
      [`<dir>/cluster.json.${process.ppid}.2.tmp`, 9],
      [`<dir>/cluster.trace.jsonl.${dead}.1.tmp`, 1],
    ].sort());
    assert.deepEqual(readdirSync(dir).sort(), [`cluster.json.${process.ppid}.1.tmp`, `other.json.${dead}.1.tmp`]);
  });

  it('coalesce changes into one write per interval, and write on flush only if something changed', async () => {
    const writes: number[] = [];
    let n = 0;
    const saver = new AutoSaver(async () => void writes.push(++n), 300, (err) => assert.fail(String(err)));
    for (let i = 0; i < 20; i++) saver.changed();
    assert.equal(writes.length, 0, 'nothing is written at once');
    while (writes.length === 0) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(writes.length, 1, 'twenty changes, one write');
    const before = writes.length;
    await saver.flush();
    assert.equal(writes.length, before, 'nothing changed since the last write');
    saver.changed();
    await saver.flush();
    assert.equal(writes.length, before + 1);
    await saver.dispose();
    saver.changed();
    await saver.flush();
    assert.equal(writes.length, before + 1, 'a disposed saver writes no more');
  });
});

describe('snapshot JSON in pieces', () => {
  it('joins to the same JSON as one stringify, however the records fall into pieces', () => {
    const s = snapshot(5);
    const kv = (key: string, rev: number): [string, string, number, number, number, number] => [key, '{"v":1}', rev, rev, 1, 0];
    s.store = { ...s.store, revision: 9, logStart: 4, base: [kv('/a', 2), kv('/b', 3)], log: [[kv('/c', 4)], [], [kv('/d', 6), kv('/e', 6)], [kv('/f', 7)], [kv('/g', 8)], [kv('/h', 9)]] };
    for (const per of [1, 2, 3, 100]) assert.deepEqual(JSON.parse([...snapshotJsonChunks(s, per)].join('')), JSON.parse(JSON.stringify(s)), `${per} per piece`);
    const empty = snapshot(1);
    assert.deepEqual(JSON.parse(serializeClusterSnapshot(empty)), JSON.parse(JSON.stringify(empty)));
  });
});
