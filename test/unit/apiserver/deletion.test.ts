import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { harness, type Harness } from './harness';
import { configMap, deployment, namespace, pod, serviceAccount } from './fixtures';

const meta = (o: JsonObject): JsonObject => o.metadata as JsonObject;
const pods = { resource: 'pods', namespace: 'default' } as const;

describe('apiserver deletion', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
    await h.create(namespace('default'));
    await h.create(serviceAccount('default'), 'default');
  });
  afterEach(() => h.close());

  it('a scheduled pod is deleted gracefully: deletionTimestamp = now + grace, then gone at grace 0', async () => {
    await h.req({ ...pods, verb: 'create', body: { object: pod('p', { nodeName: 'node-1' }) } });
    const first = await h.req({ ...pods, verb: 'delete', name: 'p' });
    assert.equal(first.code, 200);
    assert.equal(first.body.kind, 'Pod', 'pods answer DELETE with the object');
    assert.equal(meta(first.body).deletionTimestamp, '2025-01-01T00:00:30Z');
    assert.equal(meta(first.body).deletionGracePeriodSeconds, 30);
    assert.equal(meta(first.body).generation, 2);
    const still = await h.req({ ...pods, verb: 'get', name: 'p' });
    assert.equal(still.code, 200);
    const again = await h.req({ ...pods, verb: 'delete', name: 'p' });
    assert.equal(meta(again.body).deletionTimestamp, '2025-01-01T00:00:30Z', 'a second DELETE does not extend the grace period');
    const now = await h.req({ ...pods, verb: 'delete', name: 'p', options: { gracePeriodSeconds: 0 } });
    assert.equal(now.code, 200);
    assert.equal((await h.req({ ...pods, verb: 'get', name: 'p' })).code, 404);
  });

  it('an unscheduled pod is deleted at once', async () => {
    await h.req({ ...pods, verb: 'create', body: { object: pod('p') } });
    await h.req({ ...pods, verb: 'delete', name: 'p' });
    assert.equal((await h.req({ ...pods, verb: 'get', name: 'p' })).code, 404);
  });

  it('finalizers keep the object, marked as deleting, until the last one is removed', async () => {
    const cm = { ...configMap('c'), metadata: { name: 'c', finalizers: ['example.com/hold'] } };
    await h.req({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { object: cm } });
    const del = await h.req({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'c' });
    assert.equal(del.code, 200);
    assert.equal(meta(del.body).deletionTimestamp, '2025-01-01T00:00:00Z');
    assert.equal(meta(del.body).deletionGracePeriodSeconds, 0);
    const removed = await h.req({ verb: 'patch', patchType: 'merge', resource: 'configmaps', namespace: 'default', name: 'c', body: { object: { metadata: { finalizers: null } } } });
    assert.equal(removed.code, 200);
    assert.equal((await h.req({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'c' })).code, 404);
  });

  it('propagation policies set the orphan and foregroundDeletion finalizers', async () => {
    const apps = { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default' } as const;
    await h.req({ ...apps, verb: 'create', body: { object: deployment('a') } });
    await h.req({ ...apps, verb: 'create', body: { object: deployment('b') } });
    const orphan = await h.req({ ...apps, verb: 'delete', name: 'a', options: { propagationPolicy: 'Orphan' } });
    assert.deepEqual(meta(orphan.body).finalizers, ['orphan']);
    assert.equal(meta(orphan.body).deletionGracePeriodSeconds, 0);
    const fg = await h.req({ ...apps, verb: 'delete', name: 'b', body: { object: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' } } });
    assert.deepEqual(meta(fg.body).finalizers, ['foregroundDeletion']);
    const bad = await h.req({ ...apps, verb: 'delete', name: 'b', options: { propagationPolicy: 'Sideways' as 'Orphan' } });
    assert.equal(bad.code, 422);
    assert.equal(
      bad.body.message,
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
  });

  it('delete preconditions name the mismatch', async () => {
    const created = await h.req({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { object: configMap('c') } });
    const uid = await h.req({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'c', options: { preconditions: { uid: 'x' } } });
    assert.equal(uid.code, 409);
    assert.equal(
      uid.body.message,
      `Operation cannot be fulfilled on ConfigMap "c": the UID in the precondition (x) does not match the UID in record (${String(meta(created.body).uid)}). The object might have been deleted and then recreated`,
    );
    const rv = await h.req({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'c', options: { preconditions: { resourceVersion: '1' } } });
    assert.equal(
      rv.body.message,
      `Operation cannot be fulfilled on ConfigMap "c": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${String(meta(created.body).resourceVersion)}). The object might have been modified`,
    );
  });

  it('dry-run delete keeps the object', async () => {
    await h.req({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { object: configMap('c') } });
    const before = await h.store.status();
    const res = await h.req({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'c', options: { dryRun: true } });
    assert.equal(res.code, 200);
    assert.deepEqual(await h.store.status(), before);
  });

  it('namespace delete preconditions use the namespace registry\'s own texts', async () => {
    const created = await h.create(namespace('pre'));
    const uid = await h.req({ verb: 'delete', resource: 'namespaces', name: 'pre', options: { preconditions: { uid: 'x' } } });
    assert.equal(uid.code, 409);
    assert.equal(uid.body.message, `Operation cannot be fulfilled on namespaces "pre": Precondition failed: UID in precondition: x, UID in object meta: ${String(meta(created).uid)}`);
    const rv = await h.req({ verb: 'delete', resource: 'namespaces', name: 'pre', options: { preconditions: { resourceVersion: '1' } } });
    assert.equal(rv.code, 409);
    assert.equal(rv.body.message, `Operation cannot be fulfilled on namespaces "pre": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${String(meta(created).resourceVersion)}`);
    assert.deepEqual((await h.req({ verb: 'get', resource: 'namespaces', name: 'pre' })).body.status, { phase: 'Active' });
  });

  it('namespaces terminate first and go once spec.finalizers is empty; system namespaces stay', async () => {
    await h.create(namespace('team'));
    const del = await h.req({ verb: 'delete', resource: 'namespaces', name: 'team' });
    assert.equal(del.code, 200);
    assert.deepEqual(del.body.status, { phase: 'Terminating' });
    assert.deepEqual(del.body.spec, { finalizers: ['kubernetes'] });
    const blocked = await h.req({ verb: 'create', resource: 'configmaps', namespace: 'team', body: { object: configMap('c') } });
    assert.equal(blocked.code, 403);
    assert.equal(blocked.body.message, 'configmaps "c" is forbidden: unable to create new content in namespace team because it is being terminated');
    assert.deepEqual((blocked.body.details as JsonObject).causes, [
      { reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' },
    ]);
    const fin = await h.req({ verb: 'update', resource: 'namespaces', name: 'team', subresource: 'finalize', body: { object: { ...del.body, spec: { finalizers: [] } } } });
    assert.equal(fin.code, 200);
    await h.req({ verb: 'delete', resource: 'namespaces', name: 'team' });
    assert.equal((await h.req({ verb: 'get', resource: 'namespaces', name: 'team' })).code, 404);
    const immortal = await h.req({ verb: 'delete', resource: 'namespaces', name: 'default' });
    assert.equal(immortal.code, 403);
    assert.equal(immortal.body.message, 'namespaces "default" is forbidden: this namespace may not be deleted');
  });
});
