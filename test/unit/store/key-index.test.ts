/** generationStart: where a key's generation alive at a revision begins (compaction and the hash's kept records use it). */
import { strict as assert } from 'node:assert';
import { generationStart, tombstone } from '../../../src/engine/store/memory/key-index';
import type { KeyValue } from '../../../src/engine/store/types';

const put = (modRevision: number, createRevision: number): KeyValue => ({ key: 'k', value: 'v', createRevision, modRevision, version: 1, lease: 0 });

describe('store/memory key-index generationStart', () => {
  // k put at 2 and 3, deleted at 4, put again at 6, deleted at 8.
  const records = [put(2, 2), put(3, 2), tombstone('k', 4), put(6, 6), tombstone('k', 8)];

  it('starts after the last tombstone at or before the revision', () => {
    assert.equal(generationStart(records, 1), 0);
    assert.equal(generationStart(records, 3), 0);
    assert.equal(generationStart(records, 4), 3);
    assert.equal(generationStart(records, 7), 3);
  });

  it('is past the end when the key was deleted at or before the revision and not written since', () => {
    assert.equal(generationStart(records, 8), records.length);
    assert.equal(generationStart(records, 100), records.length);
    assert.equal(generationStart([], 5), 0);
  });
});
