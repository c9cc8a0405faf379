import { strict as assert } from 'node:assert';
import { parseYamlDocuments } from '../../../src/engine/apiserver/decode/yaml-parse';
import { toJsonValue } from '../../../src/engine/apiserver/decode/source';

const limits = { maxDepth: 256, maxNodes: 100_000 };

function one(text: string) {
  const docs = parseYamlDocuments(text, limits);
  assert.equal(docs.length, 1);
  return docs[0]!;
}

function value(text: string) {
  const d = one(text);
  assert.deepEqual(d.errors, []);
  assert.ok(d.node);
  return toJsonValue(d.node);
}

describe('YAML as go-yaml v2 and sigs.k8s.io/yaml read it', () => {
  it('resolves plain scalars with YAML 1.1 rules', () => {
    assert.deepEqual(
      value('a: yes\nb: "yes"\nc: on\nd: n\ne: 0777\nf: 0x1F\ng: 1e3\nh: 1.5e+3\ni: 08\nj: ~\nk:\nl: 1_000\nm: .5\nr: 2024-01-01\no: True\np: tRUE\nq: 1.\n'),
      { a: true, b: 'yes', c: true, d: false, e: 511, f: 31, g: '1e3', h: 1500, i: 8, j: null, k: null, l: 1000, m: 0.5, r: '2024-01-01', o: true, p: 'tRUE', q: '1.' },
    );
  });

  it('keeps the number text Go would send as JSON', () => {
    const d = one('a: 3.0\nb: 12345678901234567890\nc: -0.0\n');
    assert.ok(d.node?.kind === 'object');
    const texts = d.node.entries.map((e) => (e.value.kind === 'number' ? e.value.text : e.value.kind));
    assert.deepEqual(texts, ['3', '12345678901234567890', '-0']);
  });

  it('renders keys as sigs.k8s.io/yaml does', () => {
    assert.deepEqual(value('1: a\ntrue: b\ny: c\n1.5: d\n'), { '1': 'a', true: 'c', '1.5': 'd' });
  });

  it('honours explicit tags and rejects impossible ones', () => {
    assert.deepEqual(value('a: !!str 123\nb: !!int "7"\nc: !!float 1\nd: !!binary aGk=\ne: !custom 5\n'), { a: '123', b: 7, c: 1, d: 'hi', e: '5' });
    assert.equal(one('a: !!int abc\n').errors[0]?.message, 'yaml: cannot decode !!str `abc` as a !!int');
  });

  it('expands aliases and merge keys the v2 way', () => {
    assert.deepEqual(value('base: &b {p: 1, q: 2}\nuse: *b\nm:\n  <<: *b\n  q: 3\n'), { base: { p: 1, q: 2 }, use: { p: 1, q: 2 }, m: { p: 1, q: 3 } });
    assert.deepEqual(value('a: &a {k: 1}\nb: &b {k: 2, j: 2}\nc:\n  <<: [*a, *b]\n'), { a: { k: 1 }, b: { k: 2, j: 2 }, c: { k: 1, j: 2 } });
    assert.equal(one('a: &a [1]\nb:\n  <<: *a\n').errors[0]?.message, 'yaml: map merge requires map or sequence of maps as the value');
    assert.equal(one('a: &a [*a]\n').errors[0]?.message, "yaml: anchor 'a' value contains itself");
  });

  it('records repeated keys (merged ones too) with where their values start', () => {
    const d = one('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n');
    assert.deepEqual(toJsonValue(d.node!), { a: 3, b: { c: 2 } });
    assert.deepEqual(
      d.duplicates.map((x) => [x.path.join('.'), x.key, x.goKey, x.valueStart]),
      [
        ['b', 'c', '"c"', 20],
        ['', 'a', '"a"', 25],
      ],
    );
    assert.deepEqual(one('x: &x {k: 1}\ny:\n  k: 0\n  <<: *x\n').duplicates.map((x) => x.key), ['k']);
  });

  it('splits documents and keeps empty ones empty', () => {
    const docs = parseYamlDocuments('---\n# nothing\n---\na: 1\n---\n', limits);
    assert.equal(docs.length, 3);
    assert.equal(docs[0]!.node?.kind, 'null');
    assert.deepEqual(toJsonValue(docs[1]!.node!), { a: 1 });
  });

  it('reports syntax errors with their offsets instead of throwing', () => {
    const d = one('a:\n\tb: 1\n');
    assert.equal(d.errors[0]?.message, 'Tabs are not allowed as indentation');
    assert.equal(d.errors[0]?.start, 3);
    assert.equal(one('a: b: c\n').errors[0]?.message, 'Nested mappings are not allowed in compact mappings');
    assert.equal(one('a: [1, 2\n').node, undefined);
  });

  it('refuses nesting deeper than the bound before composing it', () => {
    for (const text of ['a: ' + '['.repeat(300) + ']'.repeat(300), '- '.repeat(100000) + 'x', '{a: '.repeat(50000)]) {
      const docs = parseYamlDocuments(text, limits);
      assert.equal(docs[0]?.errors[0]?.message, 'yaml: exceeded max depth of 256', text.slice(0, 10));
    }
    const viaAlias = parseYamlDocuments('a: &a ' + '['.repeat(200) + ']'.repeat(200) + '\nb: ' + '['.repeat(100) + '*a' + ']'.repeat(100) + '\n', limits);
    assert.equal(viaAlias[0]?.errors[0]?.message, 'yaml: exceeded max depth of 256');
  });

  it('stops alias bombs', () => {
    const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [name, prev] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e'], ['g', 'f']]) {
      lol.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    // Expanded, this document has 9^7 (4.8M) nodes; the bound stops it well before (a hang or an
    // out-of-memory would fail the test by mocha's timeout).
    const d = one(lol.join('\n') + '\n');
    assert.equal(d.errors[0]?.message, 'yaml: document contains excessive aliasing');
  });

  it('turns .inf into the JSON conversion error', () => {
    assert.equal(one('a: .inf\n').errors[0]?.message, 'json: unsupported value: +Inf');
  });
});
