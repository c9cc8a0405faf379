/** The gRPC codec's txn compares: each target's value read from the field its union names. */
import { strict as assert } from 'node:assert';
import { txnRequest } from '../../../src/etcd-grpc/codec';

describe('etcd-grpc codec: txn compares', () => {
  it('reads the value, and each numeric target as an int64', () => {
    const compare = (target: number, union: string, field: unknown) => txnRequest({ compare: [{ key: Buffer.from('k'), target, result: 0, target_union: union, [union]: field }] }).compare[0];
    assert.deepEqual(compare(3, 'value', Buffer.from('v')), { key: 'k', target: 'value', result: '=', value: 'v' });
    assert.equal(compare(0, 'version', '2')?.value, 2);
    assert.equal(compare(1, 'create_revision', '7')?.value, 7);
    assert.equal(compare(2, 'mod_revision', 9)?.value, 9);
    assert.equal(compare(4, 'lease', '0')?.value, 0);
    assert.equal(txnRequest({ compare: [{ key: Buffer.from('k'), target: 2, result: 1 }] }).compare[0]?.value, 0);
  });
});
