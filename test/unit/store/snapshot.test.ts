import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import { createStore, STORE_SNAPSHOT_FORMAT, type Store, type StoreSnapshot, type WatchEvent } from '../../../src/engine/store';

/** A store that went through puts, deletes, txns, leases (one expired) and a compaction. */
async function busyStore(): Promise<{ clock: Clock; store: Store; leaseId: number }> {
  const clock = new Clock(1_000_000);
  const store = createStore({ backend: 'memory', clock });
  const random = new Random('snapshot');
  const { id: expiring } = await store.leaseGrant(5);
  await store.put({ key: '/registry/leases/gone', value: 'x', lease: expiring });
  for (let i = 0; i < 300; i++) {
    const key = `/registry/pods/default/p${random.int(40)}`;
    if (random.next() < 0.25) await store.deleteRange({ key });
    else await store.put({ key, value: JSON.stringify({ i }) });
    if (i === 150) await store.compact((await store.status()).revision - 20);
  }
  await store.txn({
    compare: [],
    success: [{ put: { key: '/registry/a', value: '1' } }, { put: { key: '/registry/b', value: '2' } }, { deleteRange: { key: '/registry/pods/default/p1' } }],
    failure: [],
  });
  await clock.advance(6000);
  const { id: leaseId } = await store.leaseGrant(60);
  await store.put({ key: '/registry/leases/node-1', value: 'renewed', lease: leaseId });
  await clock.advance(10_000);
  return { clock, store, leaseId };
}

async function restored(snapshot: StoreSnapshot, at: number): Promise<{ clock: Clock; store: Store }> {
  const clock = new Clock(at);
  // Through JSON, as the extension persists it.
  const store = createStore({ backend: 'memory', clock, restore: JSON.parse(JSON.stringify(snapshot)) as StoreSnapshot });
  return { clock, store };
}

async function rangeAll(store: Store, revision = 0) {
  return (await store.range({ key: '\0', rangeEnd: '\0', revision })).kvs;
}

async function replay(clock: Clock, store: Store, startRevision: number): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  const w = store.watch({ key: '\0', rangeEnd: '\0', startRevision, prevKv: true }, (r) => events.push(...r.events));
  await clock.settle();
  await w.cancel();
  return events;
}

describe('memory store snapshots', () => {
  it('restores every key, the history since the compaction, the revisions and the status', async () => {
    const a = await busyStore();
    const snapshot = a.store.snapshot!();
    assert.equal(snapshot.format, STORE_SNAPSHOT_FORMAT);
    const b = await restored(snapshot, a.clock.now());
    assert.deepEqual(await b.store.status(), await a.store.status());
    const { revision, compactRevision } = await a.store.status();
    for (let rev = compactRevision; rev <= revision; rev++) assert.deepEqual(await rangeAll(b.store, rev), await rangeAll(a.store, rev), `at revision ${rev}`);
    await assert.rejects(b.store.range({ key: '/registry/a', revision: compactRevision - 1 }), /required revision has been compacted/);
    assert.deepEqual(await replay(b.clock, b.store, compactRevision), await replay(a.clock, a.store, compactRevision));
  });

  it('continues as the original would: the same revisions, versions and lease expiry', async () => {
    const a = await busyStore();
    const b = await restored(a.store.snapshot!(), a.clock.now());
    for (const s of [a, b]) {
      await s.store.put({ key: '/registry/a', value: '3' });
      await s.store.deleteRange({ key: '/registry/b' });
      assert.deepEqual(await s.store.leaseGrant(30), { header: { revision: (await s.store.status()).revision }, id: 3, ttl: 30 });
    }
    assert.deepEqual(await rangeAll(b.store), await rangeAll(a.store));
    assert.deepEqual(await b.store.leaseTimeToLive(a.leaseId, true), await a.store.leaseTimeToLive(a.leaseId, true));
    // The lease has 50 s left in both: its key goes at the same instant, in the same revision.
    await a.clock.advance(50_000);
    await b.clock.advance(50_000);
    assert.deepEqual(await rangeAll(b.store), await rangeAll(a.store));
    assert.equal((await b.store.range({ key: '/registry/leases/node-1' })).count, 0);
    assert.deepEqual(await b.store.status(), await a.store.status());
  });

  it('restores a store that was never written (revision 1) and one compacted at its head', async () => {
    const clock = new Clock(0);
    const empty = createStore({ backend: 'memory', clock });
    const b = await restored(empty.snapshot!(), 0);
    assert.deepEqual(await b.store.status(), { revision: 1, compactRevision: 0, keys: 0 });
    assert.equal((await b.store.put({ key: 'k', value: 'v' })).header.revision, 2);

    await empty.put({ key: 'k', value: 'v1' });
    await empty.put({ key: 'k', value: 'v2' });
    await empty.deleteRange({ key: 'k' });
    await empty.put({ key: 'j', value: 'v' });
    await empty.compact(5);
    const c = await restored(empty.snapshot!(), 0);
    assert.deepEqual(await c.store.status(), await empty.status());
    assert.deepEqual(await rangeAll(c.store), await rangeAll(empty));
    assert.deepEqual(await replay(c.clock, c.store, 5), await replay(clock, empty, 5));
  });

  it('refuses what is not a snapshot, with the reason', () => {
    const clock = new Clock(0);
    const bad = (s: unknown) => () => createStore({ backend: 'memory', clock, restore: s as StoreSnapshot });
    assert.throws(bad({ format: 'x' }), /store snapshot: not a kubesim\/store-snapshot@1 snapshot/);
    const ok: StoreSnapshot = { format: STORE_SNAPSHOT_FORMAT, revision: 2, compactRevision: -1, base: [], logStart: 2, log: [[['k', 'v', 2, 2, 1, 0]]], nextLeaseId: 1, leases: [] };
    assert.doesNotThrow(bad(ok));
    assert.throws(bad({ ...ok, revision: 3 }), /the revision log does not end at the current revision/);
    assert.throws(bad({ ...ok, log: [[['k', 'v', 2, 3, 1, 0]]] }), /bad changes at revision 2/);
    assert.throws(() => createStore({ backend: 'etcd', clock, restore: ok }), /only be restored into the memory store/);
  });
});
