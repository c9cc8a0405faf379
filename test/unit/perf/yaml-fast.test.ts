/**
 * The fast YAML path (decode/yaml-fast.ts) either declines or gives exactly what the general
 * path (the yaml package, then the converter) gives: the same documents, nodes, spans, errors and
 * repeated keys. Checked on generated manifests in many layouts, on random edits of them (mostly
 * invalid YAML, which the fast path must leave alone), and on hand-picked edge cases.
 */
import assert from 'node:assert/strict';
import { fastYamlDocuments } from '../../../src/engine/apiserver/decode/yaml-fast';
import { generalYamlDocuments, parseYamlDocuments } from '../../../src/engine/apiserver/decode/yaml-parse';
import { MAX_DEPTH, MAX_NODES } from '../../../src/engine/apiserver/decode/limits';
import { seeded } from './seeded';

const limits = { maxDepth: MAX_DEPTH, maxNodes: MAX_NODES };

/** Whether the fast path took the text; fails when it took it and answered differently. */
function agrees(text: string): boolean {
  const fast = fastYamlDocuments(text, limits);
  if (fast === undefined) return false;
  assert.deepStrictEqual(fast, generalYamlDocuments(text, limits), `for ${JSON.stringify(text)}`);
  return true;
}

type Tree = string | Tree[] | Array<[string, Tree]> | { map: Array<[string, Tree]> };

const KEYS = ['a', 'b', 'name', 'app.kubernetes.io/name', 'x-y_z', '80', '1.5', 'true', 'on', 'yes', 'null', '"quoted key"', "'single'", 'A1', '0x1F', '1e3', 'name'];
const SCALARS = [
  'web', 'nginx:1.27', 'http://example.com:80/path', 'a:b', '100m', '128Mi', '1', '-1', '0', '007', '0x1F', '1e3', '1.5', '-2.5e+3', '.5',
  'yes', 'No', 'on', 'true', 'FALSE', '~', 'null', 'Null', '', '"quoted value"', "'single value'", '"with: colon"', "'it''s'", '"a\\"b"',
  'two words', '-c', '/', 'x-y', '.inf', '-.Inf', '.nan', 'a,b', '1_000', '+12', '0o17', '0b101', '12:30', '?x', 'a?b', 'echo 1',
];

function tree(next: (n: number) => number, depth: number): Tree {
  const r = next(10);
  if (depth >= 4 || r < 4) return SCALARS[next(SCALARS.length)]!;
  const size = next(4) + (r === 9 ? 0 : 1);
  if (r < 7) return { map: Array.from({ length: size }, () => [KEYS[next(KEYS.length)]!, tree(next, depth + 1)] as [string, Tree]) };
  return Array.from({ length: size }, () => tree(next, depth + 1));
}

const isScalar = (t: Tree): t is string => typeof t === 'string';
const isMap = (t: Tree): t is { map: Array<[string, Tree]> } => typeof t === 'object' && !Array.isArray(t);

/** Renders a tree as block YAML with random layout choices (indentation, flow leaves, indentless lists, spacing). */
function render(next: (n: number) => number, t: Tree, indent: number): string[] {
  const pad = (n: number) => ' '.repeat(n);
  const trail = () => (next(8) === 0 ? pad(next(3) + 1) : '');
  const step = next(3) === 0 ? 4 : 2;
  const flow = (v: Tree): string | undefined => {
    if (isScalar(v)) return v;
    if (isMap(v) && v.map.every(([, x]) => isScalar(x) && x !== '') && next(2) === 0) return `{${v.map.map(([k, x]) => `${k}: ${x as string}`).join(', ')}}`;
    if (Array.isArray(v) && v.every((x) => isScalar(x) && x !== '') && next(2) === 0) return `[${(v as string[]).join(', ')}]`;
    return undefined;
  };
  if (isMap(t)) {
    const lines: string[] = [];
    for (const [k, v] of t.map) {
      const inline = flow(v);
      if (inline !== undefined) lines.push(`${pad(indent)}${k}:${inline === '' ? '' : pad(1 + (next(6) === 0 ? 1 : 0)) + inline}${trail()}`);
      else {
        lines.push(`${pad(indent)}${k}:${trail()}`);
        const indentless = Array.isArray(v) && next(2) === 0;
        lines.push(...render(next, v, indentless ? indent : indent + step));
      }
      if (next(10) === 0) lines.push(next(2) === 0 ? '' : pad(next(6)));
    }
    if (t.map.length === 0) lines.push(`${pad(indent)}{}`);
    return lines;
  }
  if (Array.isArray(t)) {
    const lines: string[] = [];
    for (const v of t as Tree[]) {
      const inline = flow(v);
      if (inline !== undefined) lines.push(`${pad(indent)}-${inline === '' ? '' : ' ' + inline}${trail()}`);
      else if (isMap(v) && v.map.length > 0) {
        const [first, ...rest] = render(next, v, indent + 2);
        lines.push(`${pad(indent)}- ${first!.trimStart()}`, ...rest);
      } else {
        lines.push(`${pad(indent)}-`);
        lines.push(...render(next, v, indent + step));
      }
    }
    if (t.length === 0) lines.push(`${pad(indent)}[]`);
    return lines;
  }
  return [`${pad(indent)}${t}`];
}

function manifest(seed: number): string {
  const next = seeded(seed);
  const docs: string[] = [];
  const count = next(4) + 1;
  for (let d = 0; d < count; d++) {
    const body = tree(next, 1);
    const t: Tree = next(8) === 0 ? tree(next, 0) : { map: [['apiVersion', 'v1'], ['kind', 'ConfigMap'], ...(isMap(body) ? body.map : [['data', body] as [string, Tree]])] };
    docs.push(render(next, t, next(10) === 0 ? 2 : 0).join('\n'));
  }
  const lead = next(3) === 0 ? '---\n' : next(5) === 0 ? '\n\n' : '';
  const sep = () => ['---\n', '\n---\n', '---\n\n', '---\n---\n'][next(4)]!;
  let text = lead + docs.map((d) => d + '\n').join(sep());
  if (next(4) === 0) text = text.replace(/\n+$/, '');
  if (next(6) === 0) text += '---\n';
  return text;
}

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: frontend}
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web, tier: frontend}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        args: ["--port=8080", "--verbose"]
        ports:
        - {name: http, containerPort: 80}
        env:
        - name: MODE
          value: production
        - name: SLOT
          value: "1"
        resources:
          requests: {cpu: 100m, memory: 128Mi}
        readinessProbe:
          httpGet: {path: /, port: http}
      volumes:
      - name: data
        emptyDir: {}
`;

describe('perf: the fast YAML path', () => {
  it('takes typical manifests and reads them as the general path does', () => {
    assert.ok(agrees(DEPLOYMENT));
    assert.ok(agrees([DEPLOYMENT, DEPLOYMENT.replace('web', 'other')].join('---\n')));
    assert.ok(agrees('apiVersion: v1\nkind: List\nitems:\n  - kind: Pod\n    spec:\n      containers:\n        - name: a\n'));
  });

  it('reads generated manifests in many layouts as the general path does, and takes many of them', () => {
    let taken = 0;
    const total = 3000;
    for (let seed = 1; seed <= total; seed++) if (agrees(manifest(seed))) taken++;
    // Many generated texts use what the fast path leaves alone (escapes, .inf, null keys): a quarter is plenty.
    assert.ok(taken > total / 4, `took ${taken} of ${total}`);
  });

  it('declines or agrees on random edits of manifests (mostly invalid YAML)', () => {
    const next = seeded(99);
    const pieces = [' ', '  ', '\n', '-', '- ', ':', ': ', '{', '}', '[', ']', ',', '"', "'", '---', '...', 'x', '0', '?', '%', '@'];
    for (let n = 0; n < 4000; n++) {
      let text = n % 2 === 0 ? DEPLOYMENT : manifest(n);
      for (let k = next(3) + 1; k > 0; k--) {
        const at = next(text.length + 1);
        const cut = next(3);
        text = text.slice(0, at) + (next(3) === 0 ? '' : pieces[next(pieces.length)]!) + text.slice(at + cut);
      }
      agrees(text);
    }
  });

  it('handles the edge cases of documents and scalars as the general path does', () => {
    const cases = [
      '', '\n', '\n\n', '---', '---\n', '--- \n', '---\n---\n', 'a: 1', 'a: 1\n---', '\n\na: 1\n', '  a: 1\n  b: 2\n', 'a:\n', 'a:   \nb: 1\n',
      'a:\n  b:\n', 'a:\n\n\n  b: 1\n\n', '- a\n- b\n', '- a: 1\n  b: 2\n- c\n', 'a:\n- 1\n- 2\nb: 3\n', 'a: 1\na: 2\n', 'a: {x: 1, x: 2}\n',
      '1: a\n1.0: b\n"1": c\ntrue: d\nyes: e\n', '~: 1\n', 'null: 1\n', '.inf: 1\n', 'a: .inf\n', 'a: b: c\n', 'a: [1, 2,]\n', 'a: [1, [2]]\n',
      'a: {b: {c: 1}}\n', 'a: "x" y\n', "a: 'x'\n", "a: 'x''y'\n", 'a: "unterminated\n', 'a:\n  b: 1\n c: 2\n', 'a:\n    b: 1\n  c: 2\n',
      '- - a\n', '-\n  a: 1\n', '- \n', 'a: -\n', 'a: - b\n', 'a: x\n  y\n', 'a:\n  x\n', 'a:\n  x\nb: 1\n', 'key: value:\n', 'a: 1 \n  \nb: 2',
      '<<: {a: 1}\n', 'a: {<<: 1}\n', '"<<": 1\n', 'a: {"k": v, \'q\': "w"}\n', 'a: {b: }\n', 'a: {b}\n', 'a: []\nb: {}\n', '[a, b]\n', '{a: 1}\n',
      'plain scalar\n', '"quoted"\n', 'a: b\n...\n', '%YAML 1.2\n---\na: 1\n', 'a: 1\n--- b: 2\n', 'a:\n- b\n  - c\n', 'a: x:y\nb: "x: y"\n',
    ];
    for (const c of cases) agrees(c);
    // Repeated keys in mappings below and above the size where the fast path switches to a set.
    for (const size of [5, 16, 17, 30]) {
      const keys = Array.from({ length: size }, (_, i) => `k${i}: ${i}`);
      const text = ['1: one', ...keys, '"1": string one', 'k3: again', `k${size - 1}: again`, '1: again', 'true: t', '"true": s', 'true: t2'].join('\n') + '\n';
      assert.ok(agrees(text));
      assert.ok(agrees(`m: {${[...keys.slice(0, 3), ...keys.slice(3)].join(', ')}}\n`));
    }
  });

  it('is what parseYamlDocuments answers with whenever it applies', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const text = manifest(seed);
      assert.deepStrictEqual(parseYamlDocuments(text, limits), generalYamlDocuments(text, limits));
    }
  });
});
