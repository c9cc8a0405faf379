import { strict as assert } from 'node:assert';
import { failedOverlapsCompleted, validateIndexesFormat } from '../../../../src/engine/apiserver/validation/batch/indexes';

describe('Indexed Job index lists', () => {
  it('counts the indexes of well-formed lists', () => {
    assert.equal(validateIndexesFormat('', 5), 0);
    assert.equal(validateIndexesFormat('0,2-4', 5), 4);
  });

  it('reports upstream parse errors', () => {
    assert.equal(validateIndexesFormat('0-2-3', 5), `the fragment "0-2-3" violates the requirement that an index interval can have at most two parts separated by '-'`);
    assert.equal(validateIndexesFormat('1,a', 5), 'cannot convert string to integer for index: "a"');
    assert.equal(validateIndexesFormat('1,7', 5), 'too large index: "7"');
    assert.equal(validateIndexesFormat('3,1', 5), 'non-increasing order, previous: 3, current: 1');
    assert.equal(validateIndexesFormat('3-1', 5), 'non-increasing order, previous: 3, current: 1');
  });

  it('finds the first index both failed and completed', () => {
    assert.equal(failedOverlapsCompleted('0-2,5', '3-4', 10), undefined);
    assert.equal(failedOverlapsCompleted('0-2,5', '4-6', 10), 'failedIndexes and completedIndexes overlap at index: 5');
  });
});
