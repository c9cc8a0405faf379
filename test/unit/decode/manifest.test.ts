import { strict as assert } from 'node:assert';
import { parseManifest, positionOf, positions } from '../../../src/engine/apiserver/decode';

const deployment = `# a web server
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
    app.kubernetes.io/name: web
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
        - containerPort: 443
`;

describe('manifests', () => {
  it('splits documents, skips empty ones and keeps what kubectl would send', () => {
    const docs = parseManifest(`---\n# nothing\n---\n${deployment}---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\n---\n`, 'web.yaml');
    assert.equal(docs.length, 2);
    assert.deepEqual(docs.map((d) => [d.index, d.fileName, d.object?.kind]), [
      [0, 'web.yaml', 'Deployment'],
      [1, 'web.yaml', 'Service'],
    ]);
    assert.deepEqual(docs[0]!.object?.spec, {
      replicas: 3,
      template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }, { containerPort: 443 }] }] } },
    });
    assert.equal(docs[1]!.range.line, 22);
  });

  it('points at fields named by apimachinery field paths', () => {
    const [d] = parseManifest(deployment);
    assert.ok(d);
    assert.deepEqual(positionOf(d, 'spec.template.spec.containers[0].ports[1].containerPort'), {
      key: { line: 18, column: 11, endLine: 18, endColumn: 24 },
      value: { line: 18, column: 26, endLine: 18, endColumn: 29 },
      exact: true,
    });
    assert.deepEqual(positionOf(d, 'metadata.labels[app.kubernetes.io/name]')?.key, { line: 8, column: 5, endLine: 8, endColumn: 27 });
    assert.deepEqual(positionOf(d, 'metadata.labels[app]')?.value, { line: 7, column: 10, endLine: 7, endColumn: 13 });
    assert.deepEqual(positionOf(d, 'metadata.labels.app.kubernetes.io/name'), { ...positionOf(d, 'metadata.labels[app.kubernetes.io/name]'), exact: true });
    assert.equal(positionOf(d, 'metadata.labels.app.kubernetes.io/name')?.value.line, 8);
    assert.deepEqual(positionOf(d, 'spec.template.spec.containers[0]')?.value.line, 14);
    const missing = positionOf(d, 'spec.selector.matchLabels');
    assert.equal(missing?.exact, false);
    assert.deepEqual(missing?.key, { line: 9, column: 1, endLine: 9, endColumn: 5 });
    assert.equal(positionOf(d, 'spec.template.spec.containers[5]')?.exact, false);
    const all = positions(d);
    assert.deepEqual(all.get('/metadata/labels/app.kubernetes.io~1name')?.value, { line: 8, column: 29, endLine: 8, endColumn: 32 });
    assert.deepEqual(all.get('')?.value.line, 2);
  });

  it('keeps the last of repeated keys and lists the repeats', () => {
    const [d] = parseManifest('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\ndata:\n  k: "1"\n  k: "2"\n');
    assert.deepEqual(d?.object, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: '2' } });
    assert.deepEqual(d?.duplicates, [
      { path: 'metadata.name', range: { line: 5, column: 3, endLine: 5, endColumn: 7 } },
      { path: 'data.k', range: { line: 8, column: 3, endLine: 8, endColumn: 4 } },
    ]);
    assert.equal(positionOf(d!, 'metadata.name')?.value.line, 5);
  });

  it('runs kubectl’s checks on apiVersion and kind', () => {
    const stop = 'if you choose to ignore these errors, turn validation off with --validate=false';
    const check = (text: string) => parseManifest(text, 'x.yaml')[0]?.errors.map((e) => e.kubectl);
    assert.deepEqual(check('kind: Pod\n'), [`error validating "x.yaml": error validating data: apiVersion not set; ${stop}`]);
    assert.deepEqual(check('metadata: {name: x}\n'), [`error validating "x.yaml": error validating data: [apiVersion not set, kind not set]; ${stop}`]);
    assert.deepEqual(check('apiVersion: 1\nkind: true\n'), [`error validating "x.yaml": error validating data: [apiVersion isn't string type, kind isn't string type]; ${stop}`]);
    assert.deepEqual(check('- a\n- b\n'), [`error validating "x.yaml": error validating data: invalid object to validate; ${stop}`]);
    assert.deepEqual(check('just text\n'), [`error validating "x.yaml": error validating data: invalid object to validate; ${stop}`]);
    assert.deepEqual(check('apiVersion: a/b/c\nkind: X\n'), [`error validating "x.yaml": error validating data: unexpected GroupVersion string: a/b/c; ${stop}`]);
    assert.equal(parseManifest('apiVersion: v1\nkind: Pod\n')[0]?.object?.kind, 'Pod');
  });

  it('reports YAML syntax errors at their place, with go-yaml’s per-document line', () => {
    const docs = parseManifest('apiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: ConfigMap\ndata:\n\tkey: value\n', 'bad.yaml');
    assert.equal(docs.length, 2);
    assert.equal(docs[0]!.errors.length, 0);
    const [error] = docs[1]!.errors;
    assert.equal(error?.message, 'error converting YAML to JSON: yaml: line 4: Tabs are not allowed as indentation');
    assert.equal(error?.kubectl, 'error parsing bad.yaml: error converting YAML to JSON: yaml: line 4: Tabs are not allowed as indentation');
    assert.deepEqual(error?.range, { line: 7, column: 1, endLine: 7, endColumn: 2 });
    assert.equal(docs[1]!.object, undefined);
  });

  it('bounds nesting and aliases per document, and the rest of the file still reads', () => {
    const deep = 'apiVersion: v1\nkind: ConfigMap\ndata: ' + '['.repeat(300) + ']'.repeat(300) + '\n---\napiVersion: v1\nkind: Pod\n';
    const docs = parseManifest(deep);
    assert.equal(docs[0]!.errors[0]?.message, 'error converting YAML to JSON: yaml: exceeded max depth of 256');
    assert.equal(docs[1]!.object?.kind, 'Pod');
    const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) lol.push(`a${i}: &a${i} [${Array(9).fill(i === 1 ? '*a' : `*a${i - 1}`).join(',')}]`);
    assert.equal(parseManifest(lol.join('\n'))[0]!.errors[0]?.message, 'error converting YAML to JSON: yaml: document contains excessive aliasing');
  });

  it('rejects objects etcd could not store', () => {
    const big = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  blob: ${'x'.repeat(1.5 * 1024 * 1024)}\n`;
    const [d] = parseManifest(big);
    assert.deepEqual(d?.errors.map((e) => [e.message, e.kubectl]), [['etcdserver: request is too large', 'Error from server: etcdserver: request is too large']]);
  });

  it('reads JSON files, one object or a stream', () => {
    const docs = parseManifest('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}\n{"apiVersion":"v1","kind":"Service"}', 'x.json');
    assert.deepEqual(docs.map((d) => d.object?.kind), ['Pod', 'Service']);
    assert.deepEqual(positionOf(docs[0]!, 'metadata.name')?.value, { line: 1, column: 52, endLine: 1, endColumn: 55 });
    const bad = parseManifest('{"apiVersion":"v1",}', 'bad.json');
    assert.deepEqual(bad[0]?.errors.map((e) => e.kubectl), ['error parsing bad.json: json: offset 20: invalid character \'}\' looking for beginning of object key string']);
    const wide = parseManifest('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"é"},}', 'utf.json');
    assert.deepEqual(wide[0]?.errors.map((e) => e.kubectl), ['error parsing utf.json: json: offset 64: invalid character \'}\' looking for beginning of object key string']);
    const truncated = parseManifest('{"apiVersion":"v1","kind":"ConfigMap"}\n{"apiVersion":"v1",', 'two.json');
    assert.deepEqual(truncated.flatMap((d) => d.errors.map((e) => e.kubectl)), ['error parsing two.json: unexpected EOF']);
  });
});

describe('manifests without kubectl validation (--validate=false)', () => {
  it('fails only what an unstructured decode fails', () => {
    const check = (text: string) => parseManifest(text, 'x.yaml', { validate: false })[0]?.errors.map((e) => e.kubectl);
    assert.deepEqual(check('metadata: {name: x}\napiVersion: v1\n'), [`unable to decode "x.yaml": Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"x"}}'`]);
    assert.deepEqual(check('- a\n'), ['unable to decode "x.yaml": json: cannot unmarshal array into Go value of type unstructured.detector']);
    assert.deepEqual(check('kind: Pod\n'), []);
  });
});
