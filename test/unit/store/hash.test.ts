/**
 * HashKV (src/engine/store/memory/hash.ts) against etcd 3.4.23: the hashes below are what
 * `etcdctl endpoint hashkv -w json` printed on Debian's etcd-server 3.4.23 (one member, a fresh
 * data directory) after each step of the same sequence, and the records are compared byte for
 * byte with protobufjs's encoding of etcd's own kv.proto.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { Clock } from '../../../src/engine/clock';
import { Crc32c, hashKV, marshalKeyValue, revisionKey } from '../../../src/engine/store/memory/hash';
import { Mvcc } from '../../../src/engine/store/memory/mvcc';
import { StoreError, type KeyValue } from '../../../src/engine/store/types';

function store(): Mvcc {
  const clock = new Clock(0);
  return new Mvcc({ clock, primaryLessor: true, onLeaseExpired: () => undefined });
}

const at = (m: Mvcc, rev = 0): [number, number, number] => {
  const r = hashKV(m.kv, rev);
  return [r.currentRevision, r.hash, r.compactRevision];
};

describe('HashKV as etcd 3.4.23 computes it', () => {
  it('CRC-32C: the check value of "123456789"', () => {
    assert.equal(new Crc32c().update(Buffer.from('123456789')).digest(), 0xe3069283);
  });

  it('a record as bbolt holds it: mvccpb.KeyValue as protobuf encodes it, and its revision key', () => {
    const etcd = join(__dirname, '../../../third_party/etcd');
    const root = new protobuf.Root();
    // Imports resolve as protoc's include path would: etcd's tree, then the stubs beside it.
    root.resolvePath = (_origin, target) => (existsSync(join(etcd, 'proto', target)) ? join(etcd, 'proto', target) : join(etcd, 'stubs', target));
    root.loadSync('etcd/mvcc/mvccpb/kv.proto');
    const KV = root.lookupType('mvccpb.KeyValue');
    const cases: KeyValue[] = [
      { key: '/registry/pods/default/p', value: '{"x":1}', createRevision: 3, modRevision: 3, version: 1, lease: 0 },
      { key: 'ü', value: 'ünï', createRevision: 300, modRevision: 70_000, version: 129, lease: 7_587_899_312_177 },
      { key: 'k', value: '', createRevision: 2, modRevision: 9, version: 4, lease: 1 },
    ];
    for (const kv of cases) {
      // proto3: a field at its default is not written (protobufjs writes what it is given).
      const expected = KV.encode(KV.fromObject({ key: Buffer.from(kv.key), createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version, ...(kv.value ? { value: Buffer.from(kv.value) } : {}), ...(kv.lease ? { lease: kv.lease } : {}) })).finish();
      assert.deepEqual(marshalKeyValue(kv), Buffer.from(expected), kv.key);
    }
    // A deletion is stored as its key alone.
    assert.deepEqual(marshalKeyValue({ key: 'a', value: '', createRevision: 0, modRevision: 5, version: 0, lease: 0 }), Buffer.from([0x0a, 0x01, 0x61]));
    assert.equal(revisionKey(5, 2, true).toString('hex'), '0000000000000005' + '5f' + '0000000000000002' + '74');
  });

  it('hashes each step as etcd 3.4.23 did: puts, a txn of three changes, a delete, compactions, a past revision', () => {
    const m = store();
    assert.deepEqual(at(m), [1, 1084519789, -1]);
    m.applyPut({ key: 'a', value: '1' });
    assert.deepEqual(at(m), [2, 2587454935, -1]);
    m.applyPut({ key: '/registry/pods/default/p', value: '{"x":1}' });
    m.applyPut({ key: 'a', value: '2' });
    assert.deepEqual(at(m), [4, 1091402311, -1]);
    m.applyTxn({ compare: [], success: [{ put: { key: 'b', value: '10' } }, { put: { key: 'c', value: '20' } }, { deleteRange: { key: 'a' } }], failure: [] });
    assert.deepEqual(at(m), [5, 3946821178, -1]);
    m.applyDeleteRange({ key: 'b' });
    assert.deepEqual(at(m), [6, 287394677, -1]);
    m.applyCompaction(5);
    assert.deepEqual(at(m), [6, 864208134, 5]);
    m.applyPut({ key: 'c', value: '21' });
    assert.deepEqual(at(m), [7, 2965873292, 5]);
    assert.deepEqual(at(m, 6), [7, 864208134, 5]);
    assert.deepEqual(at(m, 7), [7, 2965873292, 5]);
    m.applyPut({ key: 'ü', value: 'ünï' });
    assert.deepEqual(at(m), [8, 655763528, 5]);
    m.applyCompaction(8);
    assert.deepEqual(at(m), [8, 2703476068, 8]);
  });

  it("refuses a compacted or a future revision in etcd's words", () => {
    const m = store();
    m.applyPut({ key: 'a', value: '1' });
    m.applyPut({ key: 'a', value: '2' });
    m.applyCompaction(2);
    assert.throws(() => hashKV(m.kv, 2), (e: unknown) => e instanceof StoreError && e.message === 'etcdserver: mvcc: required revision has been compacted');
    assert.throws(() => hashKV(m.kv, 4), (e: unknown) => e instanceof StoreError && e.message === 'etcdserver: mvcc: required revision is a future revision');
    assert.equal(hashKV(m.kv, 3).currentRevision, 3);
  });
});
