import { strict as assert } from 'node:assert';
import { splitDocuments } from '../../../src/server/validation/split';

describe('server: splitting a file into documents', () => {
  it('cuts on --- lines, keeping each piece with its first line', () => {
    const text = 'a: 1\n---\nb: 2\n--- # second\nc: 3\n';
    assert.deepEqual(splitDocuments(text), [
      { text: 'a: 1\n', line: 0 },
      { text: 'b: 2\n', line: 2 },
      { text: 'c: 3\n', line: 4 },
    ]);
  });

  it('handles CRLF line ends and a leading separator', () => {
    assert.deepEqual(splitDocuments('---\r\na: 1\r\n---\r\nb: 2'), [
      { text: '', line: 0 },
      { text: 'a: 1\r\n', line: 1 },
      { text: 'b: 2', line: 3 },
    ]);
  });

  it('leaves files with directives, end markers or content on a --- line whole', () => {
    for (const text of ['%YAML 1.2\n---\na: 1\n', 'a: 1\n...\n---\nb: 2\n', '--- !!map\na: 1\n---\nb: 2\n', '--- {a: 1}\n']) {
      assert.deepEqual(splitDocuments(text), [{ text, line: 0 }], text);
    }
  });

  it('does not cut on indented dashes or longer runs inside values', () => {
    const text = 'args:\n  - ---flag\ndata: |\n  ----\n';
    assert.deepEqual(splitDocuments(text), [{ text, line: 0 }]);
  });
});
