/**
 * Every built-in property name through the manifest entry points: `kubesim validate` (YAML and
 * JSON files), `kubesim apply` (a cluster with controllers, kubelets and the scheduler, run until
 * settled) and the language server (diagnostics and hover on every line). As in http.test.ts, the
 * same input with each name's control (test/support/builtin-names.ts) must give the same output
 * byte for byte once the controls are written back.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MarkupContent } from 'vscode-languageserver';
import { runApply } from '../../../src/cli/apply';
import { runValidate } from '../../../src/cli/validate';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import { parseManifest } from '../../../src/engine/apiserver/decode';
import { hover } from '../../../src/server/hover';
import { MirrorCluster } from '../../../src/server/mirror/mirror-cluster';
import { unitAt } from '../../../src/server/units';
import { FileValidator } from '../../../src/server/validation/file-validator';
import { BUILTIN_NAMES, control, restoreNames } from '../../support/builtin-names';

/** Documents that put a name everywhere a manifest can hold one; `i` keeps object names apart. */
function yamlFor(n: string, i: number): string {
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${n}
  labels:
    ${n}: ${n}
  annotations:
    ${n}: ${n}
data:
  ${n}: ${n}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm-${i}
data:
  ${n}: ${n}
  "${n}": "${n}"
  base: &base {${n}: ${n}}
binaryData:
  ${n}: eA==
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: merged-${i}
  labels:
    <<: {${n}: x}
data:
  <<: [{${n}: a}, {${n}2: b}]
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: dep-${i}
spec:
  ${n}: 1
  selector:
    matchLabels: {${n}: x}
  template:
    metadata:
      labels: {${n}: x}
    spec:
      restartPolicy: ${n}
      nodeSelector: {${n}: ${n}}
      containers:
      - name: ${n}
        image: ${n}
        imagePullPolicy: ${n}
        env:
        - {name: ${n}, value: ${n}}
        resources:
          requests: {${n}: "1"}
---
apiVersion: v1
kind: Service
metadata:
  name: svc-${i}
spec:
  type: ${n}
  selector: {${n}: x}
  ports:
  - {name: ${n}, port: 80, protocol: ${n}}
---
apiVersion: v1
kind: ${n}
metadata:
  name: kind-${i}
---
apiVersion: ${n}/v1
kind: ConfigMap
metadata:
  name: group-${i}
`;
}

function jsonFor(n: string, i: number): string {
  return [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, labels: { [n]: n } }, data: { [n]: n } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `secret-${i}` }, type: n, data: { [n]: 'eA==' }, stringData: { [n]: n } },
  ]
    .map((d) => JSON.stringify(d, null, 2))
    .join('\n');
}

/** What a valid set applies: no Deployment (pod-template hashes are of the template's text). */
function applyable(n: string, i: number): string {
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm-${i}
  labels: {${n}: ${n}}
  annotations: {${n}: ${n}}
data:
  ${n}: ${n}
---
apiVersion: v1
kind: Pod
metadata:
  name: pod-${i}
  labels: {${n}: x}
spec:
  containers:
  - name: c
    image: nginx
    env:
    - name: ${n}
      valueFrom: {configMapKeyRef: {name: cm-${i}, key: ${n}}}
---
apiVersion: v1
kind: Service
metadata:
  name: svc-${i}
spec:
  selector: {${n}: x}
  ports:
  - {name: p, port: 80}
`;
}

async function captured(run: () => Promise<number>): Promise<string> {
  let out = '';
  const stdout = process.stdout.write.bind(process.stdout);
  const stderr = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string) => ((out += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((out += s), true)) as typeof process.stderr.write;
  try {
    const code = await run();
    return `${out}\nexit ${code}`;
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'kubesim-own-keys-'));
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const both = <T>(f: (name: string, i: number) => T): { named: T[]; controls: T[] } => ({
  named: BUILTIN_NAMES.map((n, i) => f(n, i)),
  controls: BUILTIN_NAMES.map((n, i) => f(control(n), i)),
});

describe('own keys: built-in property names through validate, apply and the language server', function () {
  this.timeout(120_000);

  it('parses each key and value of YAML and JSON manifests as written', () => {
    for (const [i, n] of BUILTIN_NAMES.entries()) {
      const [first, second] = parseManifest(yamlFor(n, i), 'x.yaml');
      assert.equal(JSON.stringify(first!.object), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, labels: { [n]: n }, annotations: { [n]: n } }, data: { [n]: n } }));
      assert.deepEqual(Object.keys((second!.object as { data: object }).data), [n, 'base']);
      const [json] = parseManifest(jsonFor(n, i), 'x.json');
      assert.ok(Object.hasOwn((json!.object as { data: object }).data, n), n);
    }
  });

  it('kubesim validate answers a name as it answers any other (text and JSON output)', async () => {
    const run = async (name: (n: string) => string, args: string[]) => {
      const yaml = write('all.yaml', BUILTIN_NAMES.map((n, i) => yamlFor(name(n), i)).join('---\n'));
      const json = write('all.json', BUILTIN_NAMES.map((n, i) => jsonFor(name(n), i)).join('\n'));
      return captured(() => runValidate([...args, yaml, json]));
    };
    for (const args of [[], ['--strict'], ['-o', 'json'], ['--strict', '-o', 'json']]) {
      const got = await run((n) => n, args);
      const want = restoreNames(await run(control, args));
      assert.equal(got, want, `kubesim validate ${args.join(' ')}`);
      assert.match(got, /invalid|"valid": false/);
    }
  });

  it('kubesim apply answers a name as it answers any other, through controllers and kubelets', async () => {
    const { named, controls } = both(applyable);
    const run = async (docs: string[]) => captured(() => runApply(['-f', write('apply.yaml', docs.join('---\n')), '--nodes', '1']));
    const got = await run(named);
    const want = restoreNames(await run(controls));
    assert.equal(got, want);
    assert.match(got, new RegExp(`configmap/cm-${BUILTIN_NAMES.indexOf('constructor')} created`));
    assert.doesNotMatch(got, /couldn't find key/);
    // Label keys may not start with "_": the others' pods run, with the key read from their ConfigMap.
    assert.equal((got.match(/1\/1 +Running/g) ?? []).length, BUILTIN_NAMES.filter((n) => !n.startsWith('_')).length, got.slice(-3000));
  });

  it('the language server: the same diagnostics and hovers for a name as for any other', async () => {
    const mirror = await MirrorCluster.create();
    try {
      const { named, controls } = both((n, i) => yamlFor(n, i));
      for (let i = 0; i < named.length; i++) {
        const answers: string[] = [];
        for (const text of [named[i]!, controls[i]!]) {
          const file = new FileValidator(`f${i}.yaml`, mirror);
          const diagnostics = await file.validate(text, { user: ADMIN_USER, fieldValidation: 'Strict' }, () => true);
          const units = file.analyze(text);
          const hovers = text.split('\n').flatMap((line, l) =>
            [line.search(/\S/), line.indexOf(':') - 1, line.length - 1].map((c) => {
              const position = { line: l, character: Math.max(0, c) };
              const unit = unitAt(units, position);
              const h = unit && hover(unit, position);
              return h ? (h.contents as MarkupContent).value : '';
            }),
          );
          file.dispose();
          answers.push(JSON.stringify({ diagnostics, hovers }));
        }
        assert.equal(answers[0], restoreNames(answers[1]!), BUILTIN_NAMES[i]);
        assert.match(answers[0]!, /must be a standard resource|Unsupported value/);
      }
    } finally {
      await mirror.close();
    }
  });
});
