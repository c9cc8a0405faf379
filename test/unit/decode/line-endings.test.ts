/**
 * Files as kubectl cuts them (apimachinery's YAMLReader: lines end in "\n", a line starting with
 * `---` ends a document) and as go-yaml reads each piece (its first document only; a lone "\r"
 * is a line break; control characters refused; a byte order mark skipped at the start).
 */
import { strict as assert } from 'node:assert';
import { parseManifest } from '../../../src/engine/apiserver/decode';
import { decodeRequestBody } from '../../../src/engine/apiserver/decode/body';
import { StatusError } from '../../../src/engine/api/status';

const cm = (name: string, eol: string) => ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, 'data:', '  text: |', '    one', '    two', '  quoted: "a', '    b"', ''].join(eol);

describe('decode: line endings and document separators as kubectl and go-yaml read them', () => {
  it('a file with carriage returns only: one line to kubectl, so one document, read by go-yaml with "\\r" as a line break', () => {
    const text = cm('old-mac', '\r');
    const docs = parseManifest(text, 'mac.yaml');
    assert.equal(docs.length, 1);
    assert.deepEqual(docs[0]!.errors, []);
    assert.deepEqual(docs[0]!.object, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old-mac' }, data: { text: 'one\ntwo\n', quoted: 'a b' } });
    // Positions count a lone "\r" as a line end, as VS Code and go-yaml do.
    assert.deepEqual(docs[0]!.range.line, 1);
    assert.equal(docs[0]!.lines.position(text.indexOf('name:')).line, 4);
  });

  it('"\\r"-separated documents: kubectl sees one piece and go-yaml reads its first document only', () => {
    const text = cm('first', '\r') + '---\r' + cm('second', '\r');
    const docs = parseManifest(text, 'mac.yaml');
    assert.equal(docs.length, 1);
    assert.equal((docs[0]!.object!.metadata as { name: string }).name, 'first');
  });

  it('a "\\r"-only file that starts with ---: the whole file is the separator line, with content after it', () => {
    const text = '---\r' + cm('x', '\r');
    const [doc, ...rest] = parseManifest(text, 'mac.yaml');
    assert.equal(rest.length, 0);
    assert.equal(doc!.errors[0]!.kubectl, `error parsing mac.yaml: invalid Yaml document separator: ${cm('x', '\r').trim()}`);
  });

  it('CRLF and LF files read the same', () => {
    const lf = parseManifest(cm('a', '\n') + '---\n' + cm('b', '\n'));
    const crlf = parseManifest(cm('a', '\r\n') + '---\r\n' + cm('b', '\r\n'));
    assert.deepEqual(crlf.map((d) => d.object), lf.map((d) => d.object));
    assert.equal(lf.length, 2);
    assert.deepEqual(crlf.map((d) => d.range.line), lf.map((d) => d.range.line));
  });

  it('a separator line with content after it ends the file there, and loses the document being read', () => {
    const text = cm('a', '\n') + '---\n' + cm('b', '\n') + '--- extra\n' + cm('c', '\n');
    const docs = parseManifest(text, 'sep.yaml');
    assert.deepEqual(
      docs.map((d) => (d.object ? (d.object.metadata as { name: string }).name : d.errors[0]!.kubectl)),
      ['a', 'error parsing sep.yaml: invalid Yaml document separator: extra'],
    );
    assert.equal(docs[1]!.range.line, text.slice(0, text.indexOf('--- extra')).split('\n').length);
    // A comment is allowed after the separator; `----` is a separator with "-" after it.
    assert.equal(parseManifest(cm('a', '\n') + '--- # next\n' + cm('b', '\n')).length, 2);
    assert.equal(parseManifest(cm('a', '\n') + '----\n' + cm('b', '\n'), 'd.yaml')[0]!.errors[0]!.kubectl, 'error parsing d.yaml: invalid Yaml document separator: -');
  });

  it('after a document end marker (...), the rest of the piece is not read', () => {
    const docs = parseManifest(cm('a', '\n') + '...\n' + cm('b', '\n'));
    assert.equal(docs.length, 1);
    assert.equal((docs[0]!.object!.metadata as { name: string }).name, 'a');
  });

  it('a byte order mark at the start of the file or of a later document is skipped', () => {
    const docs = parseManifest('\ufeff' + cm('a', '\n') + '---\n\ufeff' + cm('b', '\n'));
    assert.deepEqual(docs.map((d) => [d.errors, (d.object?.metadata as { name: string }).name]), [[[], 'a'], [[], 'b']]);
  });

  it('control characters: go-yaml refuses them, with no line', () => {
    const docs = parseManifest(cm('a', '\n') + '---\n' + cm('b\u0007', '\n'), 'c.yaml');
    assert.equal(docs[0]!.errors.length, 0);
    assert.equal(docs[1]!.errors[0]!.kubectl, 'error parsing c.yaml: error converting YAML to JSON: yaml: control characters are not allowed');
  });

  it('a syntax error is reported with its own document and a line counted from that document, never line -1', () => {
    const docs = parseManifest('a: 1\n---\n]\n---\n]\n', 'e.yaml');
    assert.deepEqual(docs.map((d) => d.range.line), [1, 2, 4]);
    for (const d of docs.slice(1)) {
      assert.equal(d.errors.length, 1);
      assert.match(d.errors[0]!.message, /^error converting YAML to JSON: yaml: line 1: /);
    }
  });

  it('a YAML request body with carriage returns only decodes as go-yaml reads it', () => {
    const decoded = decodeRequestBody({ body: cm('body', '\r'), contentType: 'application/yaml', expected: { group: '', version: 'v1', kind: 'ConfigMap' } });
    assert.ok(!(decoded instanceof StatusError), String(decoded));
    assert.deepEqual(decoded.object.data, { quoted: 'a b', text: 'one\ntwo\n' });
    const control = decodeRequestBody({ body: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "\u0001"}\n', contentType: 'application/yaml', expected: { group: '', version: 'v1', kind: 'ConfigMap' } });
    assert.ok(control instanceof StatusError);
    assert.match(control.message, /yaml: control characters are not allowed/);
  });

  it('nesting far beyond the limit is refused before the YAML parser recurses into it (a fuzz find: a stack overflow)', () => {
    const block = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n' + Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 2)}k:`).join('\n') + ' 1\n';
    const seq = 'a:\n' + Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i * 2)}- `).join('\n') + 'x\n';
    for (const text of [block, seq, block + '---\n' + cm('after', '\n')]) {
      const docs = parseManifest(text, 'deep.yaml');
      assert.equal(docs[0]!.errors[0]!.message, 'error converting YAML to JSON: yaml: exceeded max depth of 256');
      if (text.includes('after')) assert.equal((docs[1]!.object!.metadata as { name: string }).name, 'after');
    }
    // (Under the 3 MiB a body may have.)
    const body = decodeRequestBody({ body: block.split('\n').slice(0, 1500).join('\n'), contentType: 'application/yaml', expected: { group: '', version: 'v1', kind: 'ConfigMap' } });
    assert.ok(body instanceof StatusError);
    assert.match(body.message, /yaml: exceeded max depth of 256/);
  });
});

