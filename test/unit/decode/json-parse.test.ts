import { strict as assert } from 'node:assert';
import { parseJson } from '../../../src/engine/apiserver/decode/json-parse';
import { toJsonValue } from '../../../src/engine/apiserver/decode/source';

function syntaxError(text: string, maxDepth = 256): string {
  const r = parseJson(text, maxDepth);
  assert.ok(!r.ok, `expected an error for ${text}`);
  return r.error.message;
}

describe('JSON parsing with Go encoding/json errors', () => {
  it('parses values, keeping repeated keys and number texts', () => {
    const r = parseJson('{"a": [1, 1.50, -0, 1e3, true, null, "x\\u00e9\\n"], "a": {}}', 10);
    assert.ok(r.ok);
    const { node } = r.value;
    assert.equal(node.kind, 'object');
    if (node.kind !== 'object') return;
    assert.deepEqual(node.entries.map((e) => e.key), ['a', 'a']);
    const list = node.entries[0]!.value;
    assert.ok(list.kind === 'array');
    assert.deepEqual(list.items.map((i) => (i.kind === 'number' ? i.text : i.kind)), ['1', '1.50', '-0', '1e3', 'bool', 'null', 'string']);
    assert.deepEqual(toJsonValue(node), { a: {} });
    assert.equal(toJsonValue(list.items[6]!), 'xé\n');
  });

  it('words syntax errors as Go does', () => {
    const cases: Array<[string, string]> = [
      ['', 'unexpected end of JSON input'],
      ['   ', 'unexpected end of JSON input'],
      ['{"a":1', 'unexpected end of JSON input'],
      ['{"a":1,}', `invalid character '}' looking for beginning of object key string`],
      ['{a:1}', `invalid character 'a' looking for beginning of object key string`],
      ['{"a" 1}', `invalid character '1' after object key`],
      ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
      ['[1 2]', `invalid character '2' after array element`],
      ['[1,]', `invalid character ']' looking for beginning of value`],
      ['{"a":1}x', `invalid character 'x' after top-level value`],
      ['01', `invalid character '1' after top-level value`],
      ['-', `invalid character ' ' in numeric literal`],
      ['-a', `invalid character 'a' in numeric literal`],
      ['1.', `invalid character ' ' after decimal point in numeric literal`],
      ['1.x', `invalid character 'x' after decimal point in numeric literal`],
      ['1e', `invalid character ' ' in exponent of numeric literal`],
      ['1e+x', `invalid character 'x' in exponent of numeric literal`],
      ['tru', `invalid character ' ' in literal true (expecting 'e')`],
      ['trUe', `invalid character 'U' in literal true (expecting 'u')`],
      ['nul', `invalid character ' ' in literal null (expecting 'l')`],
      ['fals', `invalid character ' ' in literal false (expecting 'e')`],
      ['"a\\x"', `invalid character 'x' in string escape code`],
      ['"\\u12g4"', `invalid character 'g' in \\u hexadecimal character escape`],
      ['"a\tb"', `invalid character '\\t' in string literal`],
      ['"abc', 'unexpected end of JSON input'],
      ["'a'", `invalid character '\\'' looking for beginning of value`],
      ['{"a":é}', `invalid character 'Ã' looking for beginning of value`],
      ['apiVersion: v1', `invalid character 'a' looking for beginning of value`],
    ];
    for (const [text, message] of cases) assert.equal(syntaxError(text), message, text);
  });

  it('bounds nesting without using the call stack', () => {
    assert.equal(syntaxError('['.repeat(5) + ']'.repeat(5), 4), `invalid character '[' exceeded max depth`);
    assert.equal(syntaxError('[{"a":'.repeat(200000)), `invalid character '[' exceeded max depth`);
    const ok = parseJson('['.repeat(256) + ']'.repeat(256), 256);
    assert.ok(ok.ok);
  });

  it('reads a stream of values for manifests', () => {
    const text = '{"a":1} {"b":2}\n';
    const first = parseJson(text, 10, 0, true);
    assert.ok(first.ok);
    const second = parseJson(text, 10, first.value.end, true);
    assert.ok(second.ok);
    assert.deepEqual(toJsonValue(second.value.node), { b: 2 });
    assert.equal(second.value.end, text.length);
  });
});
