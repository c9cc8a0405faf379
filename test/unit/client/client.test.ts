import { strict as assert } from 'node:assert';
import { harness, type Harness } from '../apiserver/harness';
import { Client, componentUserAgent } from '../../../src/engine/client/client';
import { CONFIGMAPS, NAMESPACES } from '../../../src/engine/client/resources';
import { isAlreadyExists, isConflict, isInvalid, isNotFound } from '../../../src/engine/client/errors';
import { deepCopy } from '../../../src/engine/client/clone';
import { controllerUser } from '../../../src/engine/apiserver/authn/user';
import { StatusError } from '../../../src/engine/api/status';
import type { KubeObject } from '../../../src/engine/api/types';

const cm = (name: string, data: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data });

async function setup(): Promise<{ h: Harness; client: Client }> {
  const h = await harness();
  const client = new Client({ server: h.server, user: controllerUser('deployment-controller'), userAgent: componentUserAgent('kube-controller-manager', 'deployment-controller') });
  await client.resource(NAMESPACES).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  return { h, client };
}

describe('client/client', () => {
  it('creates, gets, updates and deletes, throwing StatusErrors with kube-apiserver texts', async () => {
    const { h, client } = await setup();
    const cms = client.resource(CONFIGMAPS, 'default');
    const created = await cms.create(cm('a', { k: 'v' }));
    assert.equal(created.metadata.name, 'a');
    const got = await cms.get('a');
    assert.deepEqual(got.data, { k: 'v' });

    await assert.rejects(cms.get('missing'), (err: unknown) => {
      assert.ok(err instanceof StatusError && isNotFound(err));
      assert.equal(err.message, 'configmaps "missing" not found');
      return true;
    });
    await assert.rejects(cms.create(cm('a')), (err: unknown) => isAlreadyExists(err) && (err as Error).message === 'configmaps "a" already exists');

    const edited = deepCopy(got);
    (edited.data as Record<string, string>).k = 'w';
    const updated = await cms.update(edited);
    assert.notEqual(updated.metadata.resourceVersion, got.metadata.resourceVersion);
    await assert.rejects(cms.update(edited), (err: unknown) => {
      assert.ok(isConflict(err));
      assert.equal((err as Error).message, 'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again');
      return true;
    });
    await assert.rejects(cms.create({ ...cm('Bad_Name') }), (err: unknown) => isInvalid(err));

    await cms.delete('a');
    await assert.rejects(cms.get('a'), isNotFound);
    await h.close();
  });

  it('records the identity, User-Agent field manager and cause; a scoped client reports its requests', async () => {
    const { h, client } = await setup();
    const ids: number[] = [];
    const scoped = client.scoped(42, (id) => ids.push(id));
    // Data, so that the writer owns a field: an empty data map is not written and leaves no managedFields entry.
    const created = await scoped.resource(CONFIGMAPS, 'default').create(cm('b', { k: 'v' }));
    assert.equal(created.metadata.managedFields?.[0]?.manager, 'kube-controller-manager');
    assert.equal(ids.length, 1);
    const record = h.server.trace.get(ids[0]!);
    assert.ok(record && record.type === 'api.request');
    assert.equal(record.cause, 42);
    assert.equal(record.user, 'system:serviceaccount:kube-system:deployment-controller');
    assert.equal(record.verb, 'create');
    await h.close();
  });

  it('lists with selectors and limit/continue pages; patches and applies', async () => {
    const { h, client } = await setup();
    const cms = client.resource(CONFIGMAPS, 'default');
    for (const n of ['c1', 'c2', 'c3']) await cms.create({ ...cm(n), metadata: { name: n, labels: { app: n === 'c3' ? 'y' : 'x' } } });
    const page1 = await cms.list({ limit: 2 });
    assert.deepEqual(page1.items.map((o) => o.metadata.name), ['c1', 'c2']);
    assert.ok(page1.metadata.continue);
    const page2 = await cms.list({ limit: 2, continue: page1.metadata.continue });
    assert.deepEqual(page2.items.map((o) => o.metadata.name), ['c3']);
    const selected = await cms.list({ labelSelector: 'app=x' });
    assert.deepEqual(selected.items.map((o) => o.metadata.name), ['c1', 'c2']);

    const patched = await cms.patch('c1', 'merge', { data: { p: '1' } });
    assert.deepEqual(patched.data, { p: '1' });
    const applied = await cms.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c4', namespace: 'default' }, data: { a: '1' } }, { fieldManager: 'kubesim' });
    assert.equal(applied.metadata.managedFields?.[0]?.manager, 'kubesim');
    assert.equal(applied.metadata.managedFields?.[0]?.operation, 'Apply');

    await cms.deleteCollection({ labelSelector: 'app=x' });
    const rest = await cms.list();
    assert.deepEqual(rest.items.map((o) => o.metadata.name), ['c3', 'c4']);
    await h.close();
  });

  it('deletes with preconditions', async () => {
    const { h, client } = await setup();
    const cms = client.resource(CONFIGMAPS, 'default');
    await cms.create(cm('d'));
    await assert.rejects(cms.delete('d', { preconditions: { uid: 'other' } }), (err: unknown) => {
      assert.ok(isConflict(err));
      assert.match((err as Error).message, /^Operation cannot be fulfilled on ConfigMap "d": the UID in the precondition \(other\) does not match the UID in record \([0-9a-f-]{36}\)\. The object might have been deleted and then recreated$/);
      return true;
    });
    await h.close();
  });
});
