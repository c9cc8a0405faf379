import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { harness, type Harness } from './harness';
import { configMap, deployment, namespace } from './fixtures';

const meta = (o: JsonObject): JsonObject => o.metadata as JsonObject;
const apps = { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default' } as const;

describe('apiserver verbs', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
    await h.create(namespace('default'));
  });
  afterEach(() => h.close());

  it('create answers 201 with uid, creationTimestamp, generation and the etcd revision as resourceVersion', async () => {
    const res = await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    assert.equal(res.code, 201);
    const m = meta(res.body);
    assert.match(String(m.uid), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(m.creationTimestamp, '2025-01-01T00:00:00Z');
    assert.equal(m.generation, 1);
    const status = await h.store.status();
    assert.equal(m.resourceVersion, String(status.revision));
    assert.deepEqual(res.body.status, {});
    assert.deepEqual(Object.keys(m).slice(0, 6), ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp']);
  });

  it('stores under kube-apiserver keys and defaults on the way in', async () => {
    await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    const kv = (await h.store.range({ key: '/registry/deployments/default/web' })).kvs[0];
    assert.ok(kv, 'stored at /registry/deployments/default/web');
    const stored = JSON.parse(kv.value) as JsonObject;
    assert.equal((stored.metadata as JsonObject).resourceVersion, undefined);
    assert.equal((stored.spec as JsonObject).revisionHistoryLimit, 10);
  });

  it('AlreadyExists and NotFound carry kube-apiserver texts', async () => {
    await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    const again = await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    assert.equal(again.code, 409);
    assert.equal(again.body.reason, 'AlreadyExists');
    assert.equal(again.body.message, 'deployments.apps "web" already exists');
    const missing = await h.req({ ...apps, verb: 'get', name: 'nope' });
    assert.equal(missing.code, 404);
    assert.equal(missing.body.message, 'deployments.apps "nope" not found');
    assert.deepEqual(missing.body.details, { name: 'nope', group: 'apps', kind: 'deployments' });
  });

  it('an unknown resource is 404 "the server could not find the requested resource"', async () => {
    const res = await h.req({ verb: 'list', group: 'example.com', version: 'v1', resource: 'widgets' });
    assert.equal(res.code, 404);
    assert.equal(res.body.message, 'the server could not find the requested resource');
  });

  it('update with a stale resourceVersion is the optimistic-lock 409', async () => {
    const created = await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    const rv = String(meta(created.body).resourceVersion);
    const first = await h.req({ ...apps, verb: 'update', name: 'web', body: { object: { ...deployment('web', 3), metadata: { name: 'web', resourceVersion: rv } } } });
    assert.equal(first.code, 200);
    const stale = await h.req({ ...apps, verb: 'update', name: 'web', body: { object: { ...deployment('web', 4), metadata: { name: 'web', resourceVersion: rv } } } });
    assert.equal(stale.code, 409);
    assert.equal(stale.body.reason, 'Conflict');
    assert.equal(
      stale.body.message,
      'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('generation moves with spec changes only; a no-op update writes nothing', async () => {
    await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    const labelled = await h.req({ ...apps, verb: 'patch', patchType: 'merge', name: 'web', body: { object: { metadata: { labels: { a: 'b' } } } } });
    assert.equal(meta(labelled.body).generation, 1);
    const scaled = await h.req({ ...apps, verb: 'patch', patchType: 'merge', name: 'web', body: { object: { spec: { replicas: 5 } } } });
    assert.equal(meta(scaled.body).generation, 2);
    const before = (await h.store.status()).revision;
    const same = await h.req({ ...apps, verb: 'patch', patchType: 'merge', name: 'web', body: { object: { spec: { replicas: 5 } } } });
    assert.equal(same.code, 200);
    assert.equal((await h.store.status()).revision, before);
    assert.equal(meta(same.body).resourceVersion, meta(scaled.body).resourceVersion);
  });

  it('name mismatch between body and URL is a 400', async () => {
    await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    const res = await h.req({ ...apps, verb: 'update', name: 'web', body: { object: deployment('other') } });
    assert.equal(res.code, 400);
    assert.equal(res.body.message, 'the name of the object (other) does not match the name on the URL (web)');
  });

  it('generateName appends five characters of the name alphabet', async () => {
    const res = await h.req({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cfg-' } } } });
    assert.equal(res.code, 201);
    assert.match(String(meta(res.body).name), /^cfg-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(meta(res.body).generateName, 'cfg-');
  });

  it('dry run runs the pipeline and leaves the store unchanged', async () => {
    const before = await h.store.status();
    const ok = await h.req({ ...apps, verb: 'create', options: { dryRun: true }, body: { object: deployment('web') } });
    assert.equal(ok.code, 201);
    assert.equal(meta(ok.body).resourceVersion, undefined);
    assert.equal((meta(ok.body).uid as string).length, 36);
    const bad = await h.req({ ...apps, verb: 'create', options: { dryRun: true }, body: { object: deployment('web', -1) } });
    assert.equal(bad.code, 422);
    assert.equal(bad.body.message, 'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    assert.deepEqual(await h.store.status(), before);
    assert.equal((await h.req({ ...apps, verb: 'get', name: 'web' })).code, 404);
  });

  it('status writes ignore spec and spec writes ignore status', async () => {
    const created = await h.req({ ...apps, verb: 'create', body: { object: { ...deployment('web'), status: { replicas: 9 } } } });
    assert.deepEqual(created.body.status, {});
    const status = await h.req({ ...apps, verb: 'patch', patchType: 'merge', name: 'web', subresource: 'status', body: { object: { spec: { replicas: 7 }, status: { replicas: 2 } } } });
    assert.equal(status.code, 200);
    assert.deepEqual(status.body.status, { replicas: 2 });
    assert.equal((status.body.spec as JsonObject).replicas, 2);
    assert.equal(meta(status.body).generation, 1);
    const spec = await h.req({ ...apps, verb: 'patch', patchType: 'merge', name: 'web', body: { object: { spec: { replicas: 4 }, status: { replicas: 0 } } } });
    assert.deepEqual(spec.body.status, { replicas: 2 });
    assert.equal((spec.body.spec as JsonObject).replicas, 4);
  });

  it('status writes keep metadata changes except the ones the strategy resets (Deployment labels)', async () => {
    await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    const res = await h.req({
      ...apps,
      verb: 'patch',
      patchType: 'merge',
      name: 'web',
      subresource: 'status',
      body: { object: { metadata: { annotations: { 'deployment.kubernetes.io/revision': '1' }, labels: { tier: 'x' } }, status: { observedGeneration: 1 } } },
    });
    assert.equal(res.code, 200);
    assert.deepEqual(meta(res.body).annotations, { 'deployment.kubernetes.io/revision': '1' });
    assert.equal((meta(res.body).labels as JsonObject | undefined)?.tier, undefined);
    await h.req({ verb: 'create', resource: 'serviceaccounts', namespace: 'default', body: { object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } } } });
    const pod = await h.req({ verb: 'create', resource: 'pods', namespace: 'default', body: { object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    assert.equal(pod.code, 201);
    const podStatus = await h.req({
      verb: 'patch',
      patchType: 'merge',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      subresource: 'status',
      body: { object: { metadata: { labels: { a: 'c' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u' }] }, status: { phase: 'Running' } } },
    });
    assert.equal(podStatus.code, 200);
    assert.deepEqual(meta(podStatus.body).labels, { a: 'c' });
    assert.equal(meta(podStatus.body).ownerReferences, undefined);
  });

  it('list filters by label and field selectors and pages with kube-apiserver continue tokens', async () => {
    for (const [n, tier] of [['a', 'web'], ['b', 'db'], ['c', 'web'], ['d', 'web']] as const) {
      await h.req({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { object: configMap(n, {}, { tier }) } });
    }
    const web = await h.req({ verb: 'list', resource: 'configmaps', namespace: 'default', options: { labelSelector: 'tier=web' } });
    assert.deepEqual((web.body.items as JsonObject[]).map((i) => meta(i).name), ['a', 'c', 'd']);
    assert.equal(web.body.kind, 'ConfigMapList');
    const byName = await h.req({ verb: 'list', resource: 'configmaps', namespace: 'default', options: { fieldSelector: 'metadata.name=b' } });
    assert.deepEqual((byName.body.items as JsonObject[]).map((i) => meta(i).name), ['b']);
    const page1 = await h.req({ verb: 'list', resource: 'configmaps', namespace: 'default', options: { limit: 2 } });
    const m1 = page1.body.metadata as JsonObject;
    const rv = Number(m1.resourceVersion);
    assert.equal(m1.remainingItemCount, 2);
    assert.equal(
      Buffer.from(String(m1.continue), 'base64url').toString(),
      `{"v":"meta.k8s.io/v1","rv":${rv},"start":"default/b\\u0000"}`,
    );
    await h.req({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { object: configMap('e') } });
    const page2 = await h.req({ verb: 'list', resource: 'configmaps', namespace: 'default', options: { limit: 2, continue: String(m1.continue) } });
    assert.deepEqual((page2.body.items as JsonObject[]).map((i) => meta(i).name), ['c', 'd']);
    assert.equal((page2.body.metadata as JsonObject).resourceVersion, String(rv), 'later pages are read at the first page revision');
    const badField = await h.req({ verb: 'list', resource: 'configmaps', namespace: 'default', options: { fieldSelector: 'spec.foo=bar' } });
    assert.equal(badField.code, 400);
    assert.equal(badField.body.message, '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('delete answers with a Success Status for most kinds', async () => {
    const created = await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    const res = await h.req({ ...apps, verb: 'delete', name: 'web' });
    assert.equal(res.code, 200);
    assert.deepEqual(res.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'web', kind: 'deployments', group: 'apps', uid: meta(created.body).uid },
    });
    assert.equal((await h.req({ ...apps, verb: 'get', name: 'web' })).code, 404);
  });

  it('server-side apply creates, then reports conflicts with another manager', async () => {
    const apply = (manager: string, replicas: number, force?: boolean) =>
      h.req({ ...apps, verb: 'patch', patchType: 'apply', name: 'web', options: { fieldManager: manager, force }, body: { object: deployment('web', replicas) } });
    const created = await apply('kubectl', 2);
    assert.equal(created.code, 201);
    const entries = meta(created.body).managedFields as JsonObject[];
    assert.equal(entries[0]!.manager, 'kubectl');
    assert.equal(entries[0]!.operation, 'Apply');
    const conflict = await apply('helm', 3);
    assert.equal(conflict.code, 409);
    assert.match(String(conflict.body.message), /^Apply failed with 1 conflict: conflict with "kubectl": \.spec\.replicas/);
    const forced = await apply('helm', 3, true);
    assert.equal(forced.code, 200);
    assert.equal((forced.body.spec as JsonObject).replicas, 3);
  });

  it('scale reads and writes spec.replicas through an autoscaling/v1 Scale', async () => {
    await h.req({ ...apps, verb: 'create', body: { object: deployment('web') } });
    const scale = await h.req({ ...apps, verb: 'get', name: 'web', subresource: 'scale' });
    assert.equal(scale.body.kind, 'Scale');
    assert.deepEqual(scale.body.spec, { replicas: 2 });
    assert.deepEqual(scale.body.status, { replicas: 0, selector: 'app=web' });
    const patched = await h.req({ ...apps, verb: 'patch', patchType: 'merge', name: 'web', subresource: 'scale', body: { object: { spec: { replicas: 6 } } } });
    assert.equal(patched.code, 200);
    const dep = await h.req({ ...apps, verb: 'get', name: 'web' });
    assert.equal((dep.body.spec as JsonObject).replicas, 6);
    assert.equal(meta(dep.body).generation, 2);
    const negative = await h.req({ ...apps, verb: 'patch', patchType: 'merge', name: 'web', subresource: 'scale', body: { object: { spec: { replicas: -1 } } } });
    assert.equal(negative.code, 422);
    assert.equal(negative.body.message, 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('refuses what etcd would not store, and verbs a resource does not serve', async () => {
    const big = deployment('big');
    ((big.spec as JsonObject).template as { spec: { containers: JsonObject[] } }).spec.containers[0]!.args = ['x'.repeat(1.6 * 1024 * 1024)];
    const res = await h.req({ ...apps, verb: 'create', body: { object: big } });
    assert.equal(res.code, 500);
    assert.deepEqual(res.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: '', message: 'etcdserver: request is too large' });
    const dry = await h.req({ ...apps, verb: 'create', options: { dryRun: true }, body: { object: big } });
    assert.equal(dry.body.message, 'etcdserver: request is too large');
    const verb = await h.req({ verb: 'update', group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', name: 'x', body: { object: {} } });
    assert.equal(verb.code, 405);
    const noNs = await h.req({ ...apps, namespace: undefined, verb: 'get', name: 'web' });
    assert.equal(noNs.code, 400);
    assert.equal(noNs.body.message, 'Namespace parameter required.');
  });

  it('every request leaves a trace record with its stages', async () => {
    const res = await h.req({ ...apps, verb: 'create', body: { object: deployment('web', -1) } });
    const rec = h.server.trace.get(res.trace);
    assert.ok(rec && rec.type === 'api.request');
    assert.equal(rec.code, 422);
    assert.deepEqual(
      rec.stages.map((s) => `${s.stage}:${s.verdict}`),
      ['authentication:passed', 'authorization:passed', 'decode:passed', 'mutating-admission:passed', 'validation:rejected'],
    );
    assert.equal(rec.stages.at(-1)!.rule, 'spec.replicas');
  });
});
