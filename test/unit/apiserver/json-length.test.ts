import assert from 'node:assert/strict';
import { jsonLengthBound } from '../../../src/engine/apiserver/storage/json-length';

describe('jsonLengthBound', () => {
  it('is never below the length of JSON.stringify', () => {
    const values: unknown[] = [
      { a: 'x', b: [1, -0.0000012345678901234567, true, null, undefined], c: { '\u2028"\\': 'é\ud83d\ude00\u0001' } },
      [-1.7976931348623157e308, Number.NaN, Infinity, 1e21, '', {}],
      { dropped: undefined, f: () => 1 },
      'plain',
      0,
    ];
    for (const v of values) assert.ok(jsonLengthBound(v, Infinity) >= (JSON.stringify(v) ?? '').length, JSON.stringify(v));
  });

  it('stops counting past the limit', () => {
    const big = { items: Array.from({ length: 10_000 }, (_, i) => ({ name: `item-${i}` })) };
    const bound = jsonLengthBound(big, 100);
    assert.ok(bound > 100 && bound < jsonLengthBound(big, Infinity), String(bound));
  });

  it('gives up on values that are not plain JSON', () => {
    assert.equal(jsonLengthBound({ when: new Date(0) }, Infinity), Infinity);
    assert.equal(jsonLengthBound({ n: 1n }, Infinity), Infinity);
    assert.equal(jsonLengthBound({ toJSON: () => 'x' }, Infinity), Infinity);
  });
});
