import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runValidate } from '../../../src/cli/validate';
import type { DocumentReport } from '../../../src/engine/validator/validator';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string) => ((stdout += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((stderr += s), true)) as typeof process.stderr.write;
  try {
    return { code: await runValidate(argv), stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'kubesim-validate-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const GOOD = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
`;

const BAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: -1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        bogus: true
`;

describe('kubesim validate', function () {
  this.timeout(30_000);

  it('exits 0 when every document is valid', async () => {
    const r = await run([file('good.yaml', GOOD)]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '1 document, 0 invalid\n');
  });

  it('reports each document as JSON with apimachinery types and YAML positions', async () => {
    const p = file('mixed.yaml', `${GOOD}---\n${BAD}`);
    const r = await run(['--output', 'json', p]);
    assert.equal(r.code, 1);
    const reports = JSON.parse(r.stdout) as DocumentReport[];
    assert.equal(reports.length, 2);
    assert.deepEqual(Object.keys(reports[1]!), ['file', 'index', 'line', 'apiVersion', 'kind', 'namespace', 'name', 'valid', 'errors', 'warnings']);
    assert.deepEqual(reports[0], {
      file: p,
      index: 0,
      line: 1,
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: '',
      name: 'settings',
      valid: true,
      errors: [],
      warnings: [],
    });
    const bad = reports[1]!;
    assert.equal(bad.index, 1);
    assert.equal(bad.line, 8);
    assert.equal(bad.valid, false);
    assert.deepEqual(bad.errors, [
      {
        field: 'spec.replicas',
        type: 'Invalid value',
        detail: 'must be greater than or equal to 0',
        message: 'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        line: 13,
        column: 13,
      },
    ]);
    assert.deepEqual(bad.warnings, [{ message: 'unknown field "spec.template.spec.containers[0].bogus"', line: 25, column: 9 }]);
  });

  it('prints kubectl texts with file:line:column prefixes', async () => {
    const p = file('bad.yaml', BAD);
    const r = await run([p]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      `${p}:18:9: Warning: unknown field "spec.template.spec.containers[0].bogus"\n` +
        `${p}:6:13: The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n` +
        '1 document, 1 invalid\n',
    );
  });

  it('--strict refuses unknown fields, pointing at the key', async () => {
    const r = await run(['--strict', '-o', 'json', file('strict.yaml', BAD.replace('replicas: -1', 'replicas: 1'))]);
    assert.equal(r.code, 1);
    const [report] = JSON.parse(r.stdout) as DocumentReport[];
    assert.deepEqual(report!.errors, [
      {
        field: 'spec.template.spec.containers[0].bogus',
        type: 'Unknown field',
        detail: 'unknown field "spec.template.spec.containers[0].bogus"',
        message: 'unknown field "spec.template.spec.containers[0].bogus"',
        line: 18,
        column: 9,
      },
    ]);
  });

  it('documents given earlier exist for later ones: a namespace, then what lives in it', async () => {
    const cm = GOOD.replace('  name: settings', '  name: settings\n  namespace: team');
    const missing = await run([file('missing-ns.yaml', cm)]);
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /Error from server \(NotFound\): error when creating ".*missing-ns\.yaml": namespaces "team" not found\n/);
    const withNs = await run([file('with-ns.yaml', `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n---\n${cm}`)]);
    assert.equal(withNs.code, 0, withNs.stdout);
  });

  it('a CRD earlier in the set is established and served: the custom resources after it are checked against its schema', async () => {
    const crd = readFileSync('test/kubectl/manifests/crontab-crd.yaml', 'utf8');
    const cr = (name: string, image: string) =>
      `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\nspec:\n  cronSpec: "* * * * */5"\n  image: ${image}\n`;
    const folder = join(dir, 'crd-folder');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '1-crd.yaml'), crd);
    writeFileSync(join(folder, '2-ok.yaml'), cr('ok', 'my-awesome-cron-image'));
    writeFileSync(join(folder, '3-bad.yaml'), cr('bad', '42'));
    const r = await run(['-o', 'json', folder]);
    const reports = JSON.parse(r.stdout) as DocumentReport[];
    assert.deepEqual(reports.map((x) => [x.kind, x.name, x.valid]), [['CustomResourceDefinition', 'crontabs.stable.example.com', true], ['CronTab', 'ok', true], ['CronTab', 'bad', false]]);
    assert.equal(reports[2]!.errors[0]!.message, 'spec.image: Invalid value: "integer": spec.image in body must be of type string: "integer"');
    // Before its CRD, a custom resource has no kind to be checked as.
    const before = await run(['-o', 'json', join(folder, '2-ok.yaml'), join(folder, '1-crd.yaml')]);
    assert.deepEqual((JSON.parse(before.stdout) as DocumentReport[]).map((x) => x.valid), [false, true]);
  });

  it('a quota earlier in the set is in force for what follows', async () => {
    const quota = `apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\nspec:\n  hard:\n    configmaps: "1"\n`;
    const cms = [1, 2].map((i) => GOOD.replace('name: settings', `name: c${i}`)).join('---\n');
    const r = await run(['-o', 'json', file('quota.yaml', `${quota}---\n${cms}`)]);
    const reports = JSON.parse(r.stdout) as DocumentReport[];
    assert.deepEqual(reports.map((x) => x.valid), [true, true, false]);
    assert.equal(reports[2]!.errors[0]!.message, 'configmaps "c2" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=1, limited: configmaps=1');
  });

  it('reports unknown kinds and YAML syntax errors without stopping', async () => {
    const r = await run(['-o', 'json', file('odd.yaml', `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n---\na: [1, 2\n`)]);
    assert.equal(r.code, 1);
    const reports = JSON.parse(r.stdout) as DocumentReport[];
    assert.equal(reports[0]!.errors[0]!.message, 'no matches for kind "Widget" in version "example.com/v1"');
    assert.equal(reports[0]!.errors[0]!.line, 2);
    assert.equal(reports[1]!.valid, false);
    assert.match(reports[1]!.errors[0]!.message, /^error converting YAML to JSON: yaml: line \d+: /);
  });

  it('points Go type errors at the value, list indexes included', async () => {
    const wrong = BAD.replace('replicas: -1', 'replicas: 1').replace('        bogus: true\n', '        ports:\n        - containerPort: "80"\n');
    const r = await run(['-o', 'json', file('types.yaml', wrong)]);
    const [report] = JSON.parse(r.stdout) as DocumentReport[];
    assert.deepEqual(report!.errors.map((e) => [e.field, e.type, e.line, e.column]), [['spec.template.spec.containers[0].ports[0].containerPort', 'Invalid value', 19, 26]]);
    assert.equal(
      report!.errors[0]!.message,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
    );
  });

  it('walks folders and exits 2 on usage errors', async () => {
    const sub = join(dir, 'folder');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'a.yaml'), GOOD);
    writeFileSync(join(sub, 'notes.txt'), 'not a manifest');
    const ok = await run([sub]);
    assert.equal(ok.code, 0);
    assert.equal((await run([])).code, 2);
    assert.equal((await run(['--output', 'xml', sub])).code, 2);
    const missing = await run([join(dir, 'nope.yaml')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^error: the path ".*nope\.yaml" does not exist\n/);
    const bare = join(dir, 'bare');
    mkdirSync(bare);
    const none = await run([bare]);
    assert.equal(none.code, 2);
    assert.equal(none.stderr, `error: error reading [${bare}]: recognized file extensions are [.json .yaml .yml]\n`);
  });
});
