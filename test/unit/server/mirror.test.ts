import { strict as assert } from 'node:assert';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import type { JsonObject } from '../../../src/engine/api/types';
import { MirrorCluster } from '../../../src/server/mirror/mirror-cluster';

const configMap = (name: string, data: Record<string, string>, extra: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '41', creationTimestamp: '2025-01-01T00:00:00Z', ...extra },
  data,
});

describe('server: the mirror of the live cluster', function () {
  this.timeout(20_000);
  let mirror: MirrorCluster;
  beforeEach(async () => (mirror = await MirrorCluster.create()));
  afterEach(() => mirror.close());

  const get = async (name: string) => {
    const res = await mirror.server.handle({ verb: 'get', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name, user: ADMIN_USER });
    return res.code === 200 ? res.body : undefined;
  };

  it('starts as a fresh cluster: the system namespaces, nothing else of the user', async () => {
    const res = await mirror.server.handle({ verb: 'list', group: '', version: 'v1', resource: 'namespaces', user: ADMIN_USER });
    const names = (res.body.items as JsonObject[]).map((n) => (n.metadata as JsonObject).name);
    assert.deepEqual(names, ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  });

  it('applies ADDED, MODIFIED and DELETED events through its API server', async () => {
    await mirror.sync({ events: [{ type: 'ADDED', object: configMap('a', { x: '1' }) }] });
    assert.deepEqual((await get('a'))?.data, { x: '1' });
    await mirror.sync({ events: [{ type: 'MODIFIED', object: configMap('a', { x: '2' }) }] });
    assert.deepEqual((await get('a'))?.data, { x: '2' });
    // An object with finalizers goes at once all the same: the live cluster already removed it.
    await mirror.sync({ events: [{ type: 'MODIFIED', object: configMap('a', { x: '2' }, { finalizers: ['example.com/hold'] }) }] });
    await mirror.sync({ events: [{ type: 'DELETED', object: configMap('a', { x: '2' }) }] });
    assert.equal(await get('a'), undefined);
    assert.deepEqual(await mirror.state(), { applied: 4, rejected: [] });
  });

  it("keeps the live object's managedFields as they are (who owns what decides an apply), and none for an untracked one", async () => {
    const managedFields = [
      { manager: 'kubesim', operation: 'Apply', apiVersion: 'v1', time: '2025-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} } } },
      { manager: 'kubectl-edit', operation: 'Update', apiVersion: 'v1', time: '2025-01-01T00:01:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:y': {} } } },
    ];
    await mirror.sync({ events: [{ type: 'ADDED', object: configMap('a', { x: '1', y: '2' }, { managedFields }) }] });
    assert.deepEqual(((await get('a'))?.metadata as JsonObject).managedFields, managedFields);
    await mirror.sync({ events: [{ type: 'MODIFIED', object: configMap('a', { x: '1', y: '3' }, { managedFields }) }] });
    assert.deepEqual((await get('a'))?.data, { x: '1', y: '3' });
    assert.deepEqual(((await get('a'))?.metadata as JsonObject).managedFields, managedFields, "the mirror's own write leaves no entry");
    await mirror.sync({ events: [{ type: 'ADDED', object: configMap('b', { x: '1' }) }] });
    assert.equal(((await get('b'))?.metadata as JsonObject).managedFields, undefined);
    assert.deepEqual((await mirror.state()).rejected, []);
  });

  it('tracks what changed: per object, and a generation for objects admission reads', async () => {
    assert.equal(mirror.lastChange('/ConfigMap/default/a'), 0);
    await mirror.sync({ events: [{ type: 'ADDED', object: configMap('a', {}) }] });
    assert.equal(mirror.lastChange('/ConfigMap/default/a'), mirror.sequence);
    assert.equal(mirror.contextGeneration, 0);
    await mirror.sync({ events: [{ type: 'ADDED', object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } } }] });
    assert.equal(mirror.contextGeneration, 1);
  });

  it('a full listing replaces the content: what it lacks is removed, namespaces go first', async () => {
    await mirror.sync({ events: [{ type: 'ADDED', object: configMap('gone', {}) }] });
    const listing = [
      { type: 'ADDED' as const, object: { ...configMap('kept', { k: 'v' }), metadata: { name: 'kept', namespace: 'shop' } } },
      { type: 'ADDED' as const, object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } } },
      ...['default', 'kube-system', 'kube-public', 'kube-node-lease'].map((name) => ({ type: 'ADDED' as const, object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } })),
    ];
    await mirror.sync({ replace: true, events: listing });
    assert.equal(await get('gone'), undefined);
    const kept = await mirror.server.handle({ verb: 'get', group: '', version: 'v1', resource: 'configmaps', namespace: 'shop', name: 'kept', user: ADMIN_USER });
    assert.equal(kept.code, 200);
    assert.deepEqual((await mirror.state()).rejected, []);
  });

  it('a copy holds the mirror’s objects and is independent of it', async () => {
    await mirror.sync({ events: [{ type: 'ADDED', object: configMap('a', { x: '1' }) }] });
    const copy = await mirror.fork();
    const created = await copy.handle({ verb: 'create', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', user: ADMIN_USER, body: { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'only-in-copy' } } } });
    assert.equal(created.code, 201);
    const inCopy = await copy.handle({ verb: 'get', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'a', user: ADMIN_USER });
    assert.deepEqual(inCopy.body.data, { x: '1' });
    assert.equal(await get('only-in-copy'), undefined);
    await copy.close();
  });
});
