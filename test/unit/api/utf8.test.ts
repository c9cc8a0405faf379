import { strict as assert } from 'node:assert';
import { utf8Length } from '../../../src/engine/api/utf8';

describe('utf8Length', () => {
  const cases: [string, string, number][] = [
    ['empty', '', 0],
    ['ASCII', 'web-1', 5],
    ['two-byte', 'é', 2],
    ['three-byte', '€', 3],
    ['a surrogate pair is one four-byte code point', '😀', 4],
    ['a lone high surrogate encodes as U+FFFD', '\ud83d', 3],
    ['a lone low surrogate encodes as U+FFFD', '\ude00', 3],
    ['a high surrogate before a non-surrogate', '\ud83dx', 4],
    ['mixed', 'a€😀é', 1 + 3 + 4 + 2],
  ];
  for (const [name, s, want] of cases) {
    it(name, () => {
      assert.equal(utf8Length(s), want);
      // Node's encoder replaces lone surrogates the same way.
      assert.equal(utf8Length(s), Buffer.byteLength(s, 'utf8'));
    });
  }
});
