/** varintSize: the bytes of a protobuf varint, as etcd's size checks and the backend's byte counts take it. */
import { strict as assert } from 'node:assert';
import { varintSize } from '../../../src/engine/store/varint';

describe('store varintSize', () => {
  it('takes seven bits a byte, and ten bytes for a negative int64', () => {
    assert.deepEqual([0, 1, 127, 128, 16_383, 16_384, 2 ** 31, Number.MAX_SAFE_INTEGER].map(varintSize), [1, 1, 1, 2, 2, 3, 5, 8]);
    assert.equal(varintSize(-1), 10);
  });
});
