import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STORE_SNAPSHOT_FORMAT } from '../../../src/engine/store';
import { AutoSaver, SnapshotFile, SupersededError } from '../../../src/extension/persistence';
import { CLUSTER_SNAPSHOT_FORMAT, parseClusterSnapshot, serializeClusterSnapshot, snapshotJsonChunks, type ClusterSnapshot } from '../../../src/extension/snapshot';

const snapshot = (time: number): ClusterSnapshot => ({
  format: CLUSTER_SNAPSHOT_FORMAT,
  seed: 'kubesim',
  time,
  clock: { state: 'running', speed: 1 },
  nodes: [{ config: { name: 'kubesim-worker', internalIP: '172.18.0.3', podCIDR: '10.244.2.0/24' }, running: true }],
  store: { format: STORE_SNAPSHOT_FORMAT, revision: 1, compactRevision: -1, base: [], logStart: 2, log: [], nextLeaseId: 1, leases: [] },
});

describe('saved clusters', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kubesim-persist-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trip through the file, written whole (no temporary file left behind)', async () => {
    const file = new SnapshotFile(join(dir, 'storage', 'cluster.json'));
    assert.equal(await file.load(), undefined);
    await file.claim();
    await file.save(snapshot(1000));
    assert.deepEqual(await file.load(), snapshot(1000));
    assert.deepEqual(readdirSync(join(dir, 'storage')).sort(), ['cluster.json', 'cluster.json.owner']);
    await file.remove();
    assert.equal(await file.load(), undefined);
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
    assert.equal((await newer.load())!.time, 2);
  });

  it('refuse a file that is not a snapshot, saying why', async () => {
    const path = join(dir, 'cluster.json');
    writeFileSync(path, '{"format":"something-else"}');
    await assert.rejects(new SnapshotFile(path).load(), /not a KubeSim cluster snapshot \(expected format kubesim\/cluster-snapshot@1\)/);
    writeFileSync(path, '{"format":');
    await assert.rejects(new SnapshotFile(path).load(), /not a KubeSim cluster snapshot: /);
    assert.throws(() => parseClusterSnapshot(serializeClusterSnapshot({ ...snapshot(1), clock: { state: 'stopped' } } as unknown as ClusterSnapshot)), /cluster snapshot: bad clock state/);
    assert.throws(() => parseClusterSnapshot(JSON.stringify({ ...snapshot(1), store: { format: 'x' } })), /the store is not a kubesim\/store-snapshot@1 snapshot/);
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
