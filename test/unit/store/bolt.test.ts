/**
 * The bbolt file model (src/engine/store/memory/bolt.ts) against what etcd 3.4.23 reports in
 * `etcdctl endpoint status -w json` for the same steps (measured on Debian's etcd-server 3.4.23,
 * one member, each put in its own 100 ms backend batch): dbSize and dbSizeInUse.
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { PAGE_SIZE, recordBytes } from '../../../src/engine/store/memory/bolt';
import { Mvcc } from '../../../src/engine/store/memory/mvcc';

function store(): { clock: Clock; mvcc: Mvcc } {
  const clock = new Clock(0);
  return { clock, mvcc: new Mvcc({ clock, primaryLessor: true, onLeaseExpired: () => undefined }) };
}

const V = 'a'.repeat(1000);

describe('bbolt file model', () => {
  it('a fresh member: 20480 bytes, 16384 in use (etcd 3.4.23)', () => {
    const { mvcc } = store();
    assert.equal(mvcc.dbSizeBytes, 20480);
    assert.equal(mvcc.dbSizeInUseBytes, 16384);
  });

  it('grows page by page as etcd 3.4.23 does, one commit per put', async () => {
    const { clock, mvcc } = store();
    // etcd 3.4.23, after every fifth put of a 1000-byte value to /registry/pods/default/pN.
    const real = [36864, 49152, 61440, 69632, 81920, 90112];
    const seen: number[] = [];
    for (let i = 1; i <= 30; i++) {
      mvcc.applyPut({ key: `/registry/pods/default/p${i}`, value: V });
      await clock.advance(150);
      if (i % 5 === 0) {
        seen.push(mvcc.dbSizeBytes);
        assert.equal(mvcc.dbSizeInUseBytes, mvcc.dbSizeBytes, 'the pages freed by one commit are reused by the next');
      }
    }
    assert.deepEqual(seen, real);
  });

  it('commits in 100 ms batches: writes within one batch do not show until it commits', async () => {
    const { clock, mvcc } = store();
    for (let i = 0; i < 20; i++) mvcc.applyPut({ key: `k${i}`, value: V });
    assert.equal(mvcc.dbSizeBytes, 20480, 'still the last committed size');
    await clock.advance(100);
    assert.ok(mvcc.dbSizeBytes > 20480 + 5 * PAGE_SIZE);
  });

  it('a compaction frees pages inside the file; only a defragmentation shrinks it (etcd 3.4.23: 106496 and 98304)', async () => {
    const { clock, mvcc } = store();
    for (let round = 0; round < 2; round++) {
      for (let i = 1; i <= 60; i++) {
        mvcc.applyPut({ key: `/registry/pods/default/p${i}`, value: V });
        await clock.advance(150);
      }
    }
    const before = mvcc.boltStats();
    mvcc.applyCompaction(mvcc.revision);
    await clock.advance(150);
    // One more commit releases the pages the compaction freed.
    mvcc.applyPut({ key: '/registry/pods/default/p1', value: V });
    await clock.advance(150);
    const after = mvcc.boltStats();
    assert.equal(after.sizeBytes, before.sizeBytes, 'the file does not shrink');
    assert.ok(after.sizeInUseBytes < before.sizeInUseBytes - 15 * PAGE_SIZE, `in use ${after.sizeInUseBytes} < ${before.sizeInUseBytes}`);
    assert.ok(after.freePages > 15);

    const { clock: c2, mvcc: m2 } = store();
    for (let i = 1; i <= 60; i++) {
      m2.applyPut({ key: `/registry/pods/default/p${i}`, value: V });
      await c2.advance(150);
    }
    m2.defragment();
    assert.equal(m2.dbSizeBytes, 106496);
    assert.equal(m2.dbSizeInUseBytes, 98304);
  });

  it('a fresh member defragmented: 20480 bytes, 12288 in use (etcd 3.4.23)', () => {
    const { mvcc } = store();
    mvcc.defragment();
    assert.equal(mvcc.dbSizeBytes, 20480);
    assert.equal(mvcc.dbSizeInUseBytes, 12288);
  });

  it('sizes a record as its leaf element: header, revision key and the marshalled mvccpb.KeyValue', () => {
    // 16 + 17 + (1+1+3 key "abc") + (1+1 create) + (1+1 mod) + (1+1 version) + (1+1+1 value "x")
    assert.equal(recordBytes({ key: 'abc', value: 'x', createRevision: 2, modRevision: 2, version: 1, lease: 0 }), 16 + 17 + 5 + 2 + 2 + 2 + 3);
    // A tombstone: revision key with 't', value with the key only.
    assert.equal(recordBytes({ key: 'abc', value: '', createRevision: 0, modRevision: 3, version: 0, lease: 0 }), 16 + 18 + 5);
  });
});
