/** Garbage collection against the API server: background, foreground, orphan and dangling owners. */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { GarbageCollector, GARBAGE_COLLECTOR_ACCOUNT } from '../../../../src/engine/controllers/garbagecollector/collector';
import { CONFIGMAPS, EVENTS, PODS, REPLICASETS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { isNotFound } from '../../../../src/engine/client/errors';
import type { KubeObject, OwnerReference } from '../../../../src/engine/api/types';

async function setup(): Promise<ControllerHarness> {
  const h = await controllerHarness();
  await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  h.start(new GarbageCollector(h.deps(GARBAGE_COLLECTOR_ACCOUNT), h.server.registry));
  await h.clock.settle();
  return h;
}

const ref = (owner: KubeObject, block = true): OwnerReference => ({
  apiVersion: owner.apiVersion,
  kind: owner.kind,
  name: owner.metadata.name ?? '',
  uid: owner.metadata.uid ?? '',
  controller: true,
  blockOwnerDeletion: block,
});

async function replicaSet(h: ControllerHarness, name: string): Promise<KubeObject> {
  return h.admin.resource(REPLICASETS, 'default').create({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: { replicas: 0, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  });
}

async function pod(h: ControllerHarness, name: string, owner: KubeObject): Promise<KubeObject> {
  return h.admin.resource(PODS, 'default').create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: owner.metadata.name ?? '' }, ownerReferences: [ref(owner)] },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] },
  });
}

async function exists(h: ControllerHarness, gvr: typeof PODS, name: string): Promise<KubeObject | undefined> {
  try {
    return await h.admin.resource(gvr, 'default').get(name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

describe('controllers/garbagecollector scenario', () => {
  it('background: dependents of a deleted owner are deleted after it is gone', async () => {
    const h = await setup();
    const rs = await replicaSet(h, 'web');
    await pod(h, 'web-1', rs);
    await pod(h, 'web-2', rs);
    await h.clock.settle();
    await h.admin.resource(REPLICASETS, 'default').delete('web');
    await h.clock.settle();
    const p1 = await exists(h, PODS, 'web-1');
    assert.ok(p1?.metadata.deletionTimestamp, 'pods are deleted (gracefully)');
    const deletes = h.trace.records().filter((r) => r.type === 'api.request' && r.verb === 'delete' && r.resource === 'pods');
    assert.deepEqual(deletes.map((r) => r.type === 'api.request' && [r.user, r.name, r.code]), [
      ['system:serviceaccount:kube-system:generic-garbage-collector', 'web-1', 200],
      ['system:serviceaccount:kube-system:generic-garbage-collector', 'web-2', 200],
    ]);
    await h.close();
  });

  it('foreground: the owner keeps its finalizer until blocking dependents are gone', async () => {
    const h = await setup();
    const rs = await replicaSet(h, 'web');
    await pod(h, 'web-1', rs);
    await h.clock.settle();
    await h.admin.resource(REPLICASETS, 'default').delete('web', { propagationPolicy: 'Foreground' });
    await h.clock.settle();
    const owner = await exists(h, REPLICASETS, 'web');
    assert.deepEqual(owner?.metadata.finalizers, ['foregroundDeletion']);
    assert.ok(owner?.metadata.deletionTimestamp);
    assert.ok((await exists(h, PODS, 'web-1'))?.metadata.deletionTimestamp, 'the pod is terminating');
    // The kubelet confirms the pod's termination.
    await h.admin.resource(PODS, 'default').delete('web-1', { gracePeriodSeconds: 0 });
    await h.clock.settle();
    assert.equal(await exists(h, REPLICASETS, 'web'), undefined);
    const patches = h.trace.records().filter((r) => r.type === 'api.request' && r.verb === 'patch' && r.resource === 'replicasets');
    assert.deepEqual(patches.map((r) => r.type === 'api.request' && [r.user, r.code]), [['system:serviceaccount:kube-system:generic-garbage-collector', 200]]);
    await h.close();
  });

  it('orphan: dependents lose their reference to the owner and stay', async () => {
    const h = await setup();
    const owner = await h.admin.resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } });
    await h.admin.resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'child', ownerReferences: [ref(owner, false)] } });
    await h.clock.settle();
    await h.admin.resource(CONFIGMAPS, 'default').delete('owner', { propagationPolicy: 'Orphan' });
    await h.clock.settle();
    assert.equal(await exists(h, CONFIGMAPS, 'owner'), undefined);
    const child = await exists(h, CONFIGMAPS, 'child');
    assert.ok(child);
    assert.equal((child.metadata.ownerReferences ?? []).length, 0);
    await h.close();
  });

  it('dangling: a dependent whose owner never existed is deleted; a live owner keeps its dependent', async () => {
    const h = await setup();
    const live = await h.admin.resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'live' } });
    await h.admin.resource(CONFIGMAPS, 'default').create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'orphaned', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'no-such-uid' }] },
    });
    await h.admin.resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept', ownerReferences: [ref(live, false)] } });
    await h.clock.settle();
    assert.equal(await exists(h, CONFIGMAPS, 'orphaned'), undefined);
    assert.ok(await exists(h, CONFIGMAPS, 'kept'));
    await h.close();
  });

  it('an owner reference to the uid of an object in another namespace is reported and treated as dangling', async () => {
    const h = await setup();
    const other = await h.admin.resource(CONFIGMAPS, 'kube-public').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } });
    await h.admin.resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cross', ownerReferences: [ref(other, false)] } });
    await h.clock.settle();
    assert.equal(await exists(h, CONFIGMAPS, 'cross'), undefined);
    const events = (await h.admin.resource(EVENTS, 'default').list()).items as (KubeObject & { reason: string; message: string; source: { component: string } })[];
    assert.deepEqual(
      events.map((e) => [e.reason, e.message, e.source.component]),
      [['OwnerRefInvalidNamespace', `ownerRef [v1/ConfigMap, namespace: default, name: owner, uid: ${other.metadata.uid}] does not resolve to a parent with matching namespace`, 'garbage-collector-controller']],
    );
    await h.close();
  });
});
