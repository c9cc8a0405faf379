import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type { Diagnostic } from 'vscode-languageserver';
import { ADMIN_USER, ALL_AUTHENTICATED, type UserInfo } from '../../../src/engine/apiserver/authn/user';
import type { JsonObject } from '../../../src/engine/api/types';
import type { FieldValidation } from '../../../src/engine/apiserver/decode';
import { createValidationCluster, Validator } from '../../../src/engine/validator/validator';
import { parseApiVersion } from '../../../src/engine/api/types';
import { parseManifest } from '../../../src/engine/apiserver/decode';
import { MirrorCluster } from '../../../src/server/mirror/mirror-cluster';
import { FileValidator } from '../../../src/server/validation/file-validator';
import { WorkspaceCrds } from '../../../src/server/validation/workspace-crds';

const RFC1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const RFC1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

type Row = [line: number, char: number, endLine: number, endChar: number, severity: number, code: string, message: string];
const rows = (ds: Diagnostic[]): Row[] => ds.map((d) => [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.severity!, String(d.code ?? ''), d.message]);

const deployment = (selector: string, name = 'web') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  selector:
    matchLabels:
      app: ${selector}
  template:
    metadata:
      labels:
        app: ${selector}
    spec:
      containers:
        - name: web
          image: nginx:1.27
`;

const liveDeployment: JsonObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', uid: 'b0c2', resourceVersion: '812', creationTimestamp: '2025-01-01T00:00:00Z', generation: 1 },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
  status: { replicas: 1, observedGeneration: 1 },
};

/** The object as a cluster holds it once the text is applied (managedFields and all), as the mirror is fed it. */
async function appliedObject(text: string): Promise<JsonObject> {
  const server = await createValidationCluster();
  try {
    const doc = parseManifest(text, 'live.yaml')[0]!;
    assert.equal((await new Validator(server, false, { apply: { fieldValidation: 'Strict' } }).validateDocument(doc)).valid, true);
    const obj = doc.object!;
    const meta = obj.metadata as JsonObject;
    const { group, version } = parseApiVersion(String(obj.apiVersion));
    const info = server.registry.byGvk(group, version, String(obj.kind))!;
    const res = await server.handle({ verb: 'get', group, version, resource: info.resource, namespace: info.namespaced ? String(meta.namespace ?? 'default') : undefined, name: String(meta.name), user: ADMIN_USER });
    return { ...res.body, apiVersion: obj.apiVersion!, kind: obj.kind! };
  } finally {
    await server.close();
  }
}

describe('server: diagnostics for a file', function () {
  this.timeout(20_000);
  let mirror: MirrorCluster;
  let file: FileValidator;
  const validate = (text: string, user: UserInfo = ADMIN_USER, fieldValidation: FieldValidation = 'Strict') => file.validate(text, { user, fieldValidation }, () => true);

  beforeEach(async () => {
    mirror = await MirrorCluster.create();
    file = new FileValidator('test.yaml', mirror);
  });
  afterEach(async () => {
    file.dispose();
    await mirror.close();
  });

  it('examples/broken.yaml: every field error, with apimachinery texts, on the offending node', async () => {
    assert.deepEqual(rows(await validate(readFileSync('examples/broken.yaml', 'utf8'))), [
      [6, 8, 6, 14, 1, 'Invalid value', `metadata.name: Invalid value: "My_Web": ${RFC1123}`],
      [8, 12, 8, 14, 1, 'Invalid value', 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
      [15, 8, 15, 20, 1, 'Invalid value', 'spec.template.metadata.labels: Invalid value: {"app":"website"}: `selector` does not match template `labels`'],
      [21, 29, 21, 34, 1, 'Invalid value', 'spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive'],
      [24, 14, 24, 22, 1, 'Invalid value', 'spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 500m'],
      [27, 16, 27, 23, 1, 'Invalid value', `spec.template.spec.containers[1].name: Invalid value: "Sidecar": ${RFC1123_LABEL}`],
      [40, 16, 40, 18, 1, 'Invalid value', 'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767'],
    ]);
  });

  it('an unknown field is an error on its key, as server-side apply refuses it; a duplicate key is a warning', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\ndata:\n  x: "1"\nbogus: true\n';
    for (const fieldValidation of ['Strict', 'Warn', 'Ignore'] as const) {
      assert.deepEqual(rows(await validate(text, ADMIN_USER, fieldValidation)), [
        [7, 0, 7, 5, 1, 'Unknown field', 'failed to create typed patch object (default/b; /v1, Kind=ConfigMap): .bogus: field not declared in schema'],
        [4, 2, 4, 6, 2, 'Duplicate field', 'duplicate field "metadata.name"'],
      ]);
    }
  });

  it('several schema errors: one diagnostic each, at its field', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  lables: {}\ndata:\n  x: 1\n';
    const head = 'failed to create typed patch object (default/a; /v1, Kind=ConfigMap): ';
    assert.deepEqual(rows(await validate(text)), [
      [6, 5, 6, 6, 1, 'Invalid value', `${head}.data.x: expected string, got &value.valueUnstructured{Value:1}`],
      [4, 2, 4, 8, 1, 'Unknown field', `${head}.metadata.lables: field not declared in schema`],
    ]);
  });

  it('a namespace that does not exist is an error on metadata.namespace; one defined above counts', async () => {
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: shop\n';
    assert.deepEqual(rows(await validate(cm)), [[4, 13, 4, 17, 1, 'NotFound', 'namespaces "shop" not found']]);
    assert.deepEqual(rows(await validate(`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\n${cm}`)), []);
    // Defined below it, it does not count: the documents are applied in order.
    assert.deepEqual(rows(await validate(`${cm}---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n`)), [[4, 13, 4, 17, 1, 'NotFound', 'namespaces "shop" not found']]);
  });

  it('revalidates only the documents an edit changed (or that depend on it)', async () => {
    const ns = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n';
    const cm = (n: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${n}\n  namespace: shop\ndata:\n  n: "${n}"\n`;
    const text = (edit: number) => [ns, ...[0, 1, 2, 3].map((i) => cm(i === 1 ? edit : i))].join('---\n');
    await validate(text(1));
    const validated: string[] = [];
    const original = Validator.prototype.validateDocument;
    Validator.prototype.validateDocument = function (doc) {
      validated.push(String((doc.object?.metadata as JsonObject | undefined)?.name));
      return original.call(this, doc);
    };
    try {
      assert.deepEqual(await validate(text(11)), []);
      assert.deepEqual(validated, ['cm-11']);
      // Renaming the namespace changes what every ConfigMap depends on.
      validated.length = 0;
      assert.equal((await validate(text(11).replace('  name: shop\n', '  name: shop2\n'))).length, 4);
      assert.deepEqual(validated, ['shop2', 'cm-0', 'cm-11', 'cm-2', 'cm-3']);
    } finally {
      Validator.prototype.validateDocument = original;
    }
  });

  it('an object that exists in the mirror is checked as the apply it gets: immutable fields', async () => {
    const live = await appliedObject(deployment('web'));
    await mirror.sync({ events: [{ type: 'ADDED', object: live }] });
    assert.deepEqual(rows(await validate(deployment('other'))), [[6, 4, 7, 16, 1, 'Invalid value', 'spec.selector: Invalid value: {"matchLabels":{"app":"other"}}: field is immutable']]);
    assert.deepEqual(rows(await validate(deployment('web'))), []);
    await mirror.sync({ events: [{ type: 'DELETED', object: live }] });
    assert.deepEqual(rows(await validate(deployment('other'))), []);
  });

  it('an object nobody applied yet: a changed field conflicts with before-first-apply, as Apply answers', async () => {
    await mirror.sync({ events: [{ type: 'ADDED', object: liveDeployment }] });
    assert.deepEqual(rows(await validate(deployment('web'))), []);
    const changed = deployment('web').replace('image: nginx:1.27', 'image: nginx:1.28');
    assert.deepEqual(rows(await validate(changed)), [[15, 17, 15, 27, 1, 'Conflict', 'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.template.spec.containers[name="web"].image']]);
  });

  it('a namespace terminating in the live cluster refuses new content', async () => {
    const terminating = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'old', deletionTimestamp: '2025-01-01T00:00:00Z' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } };
    await mirror.sync({ events: [{ type: 'ADDED', object: terminating }] });
    assert.deepEqual((await mirror.state()).rejected, []);
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: old\n';
    assert.deepEqual(rows(await validate(cm)), [[4, 13, 4, 16, 1, 'Forbidden', 'configmaps "a" is forbidden: unable to create new content in namespace old because it is being terminated']]);
  });

  it('RBAC applies to the current user; the error is on the kind', async () => {
    const jane: UserInfo = { username: 'jane', uid: '', groups: [ALL_AUTHENTICATED], extra: {} };
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
    assert.deepEqual(rows(await validate(cm, jane)), [[1, 0, 1, 15, 1, 'Forbidden', 'configmaps "a" is forbidden: User "jane" cannot patch resource "configmaps" in API group "" in the namespace "default"']]);
    assert.deepEqual(rows(await validate(cm)), []);
  });

  it('documents without apiVersion and kind are not Kubernetes objects and get nothing', async () => {
    assert.deepEqual(rows(await validate('name: ci\non: [push]\n---\nkind: Pod\n---\n- a\n')), []);
  });

  it('a YAML syntax error in a manifest is reported where it is', async () => {
    const d = await validate('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [a\n');
    assert.equal(d.length, 1);
    assert.match(d[0]!.message, /^error converting YAML to JSON: yaml: line \d+: /);
  });

  it('a CRD above a custom resource in the file is served for it: the resource is checked against its schema', async () => {
    const crd = readFileSync('test/kubectl/manifests/crontab-crd.yaml', 'utf8');
    const cr = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c\nspec:\n  cronSpec: "* * * * */5"\n  image: 42\n';
    const text = `${crd.trimEnd()}\n---\n${cr}`;
    const d = await validate(text);
    // The Apply command's answer (server-side apply): the typed patch does not fit the CRD's schema.
    assert.deepEqual(d.map((x) => x.message), ['failed to create typed patch object (default/c; stable.example.com/v1, Kind=CronTab): .spec.image: expected string, got &value.valueUnstructured{Value:42}']);
    // The resource depends on the CRD above it: a change to the CRD's schema is seen.
    const relaxed = text.replace(/image:\n(\s+)type: string/, 'image:\n$1type: integer');
    assert.notEqual(relaxed, text);
    assert.deepEqual(await validate(relaxed), []);
  });
  it('a CRD in another file of the workspace is served for the custom resources of this one', async () => {
    const crd = readFileSync('test/kubectl/manifests/crontab-crd.yaml', 'utf8');
    const cr = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c\nspec:\n  cronSpec: "* * * * */5"\n  image: 42\n';
    // alone, the kind is unknown, as on a cluster without the CRD
    assert.match((await validate(cr)).map((x) => x.message).join('\n'), /no matches for kind "CronTab" in version "stable.example.com\/v1"/);
    const workspace = new WorkspaceCrds();
    assert.equal(workspace.update('/ws/crds/crontab.yaml', crd), true);
    assert.equal(workspace.update('/ws/crds/crontab.yaml', crd), false, 'unchanged CRDs are no change');
    file.setPreamble(workspace.others('/ws/app/cron.yaml'));
    assert.deepEqual((await validate(cr)).map((x) => x.message), ['failed to create typed patch object (default/c; stable.example.com/v1, Kind=CronTab): .spec.image: expected string, got &value.valueUnstructured{Value:42}']);
    // the other file's CRD changes: the resource is checked against the new schema
    workspace.update('/ws/crds/crontab.yaml', crd.replace(/image:\n(\s+)type: string/, 'image:\n$1type: integer'));
    file.setPreamble(workspace.others('/ws/app/cron.yaml'));
    assert.deepEqual(await validate(cr), []);
    // the file's own CRDs are not its preamble
    assert.deepEqual(workspace.others('/ws/crds/crontab.yaml'), []);
  });
});
