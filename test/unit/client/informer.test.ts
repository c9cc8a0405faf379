/**
 * SharedIndexInformer against a real API server on the memory store and the virtual clock:
 * list then watch, handlers, indexes, resync, and the relist after a 410 (a watch that restarts
 * from a compacted resourceVersion).
 */
import { strict as assert } from 'node:assert';
import { harness, type Harness } from '../apiserver/harness';
import { Client, componentUserAgent } from '../../../src/engine/client/client';
import { CONFIGMAPS, NAMESPACES, PODS, SERVICEACCOUNTS } from '../../../src/engine/client/resources';
import {
  DeletedFinalStateUnknown,
  NODE_NAME_INDEX,
  nodeNameIndexFunc,
  OWNER_UID_INDEX,
  ownerUidIndexFunc,
  SharedInformerFactory,
  type EventHandler,
} from '../../../src/engine/client/informer';
import { ADMIN_USER, controllerUser } from '../../../src/engine/apiserver/authn/user';
import { Random } from '../../../src/engine/random';
import { parseSelector } from '../../../src/engine/api/labels';
import type { KubeObject } from '../../../src/engine/api/types';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';

const cm = (name: string, labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels }, data: { v: name } });

async function setup(options: Parameters<typeof harness>[0] = {}): Promise<{ h: Harness; client: Client; factory: SharedInformerFactory; log: string[]; handler: EventHandler }> {
  const h = await harness(options);
  const client = new Client({ server: h.server, user: ADMIN_USER, userAgent: componentUserAgent('kube-controller-manager') });
  await client.resource(NAMESPACES).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  await client.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  const factory = new SharedInformerFactory({ client, clock: h.clock, random: new Random('informers'), component: 'kube-controller-manager' });
  const log: string[] = [];
  const name = (o: KubeObject): string => o.metadata.name ?? '';
  const handler: EventHandler = {
    onAdd: (o, initial) => log.push(`add ${name(o)}${initial ? ' (initial)' : ''}`),
    onUpdate: (a, b) => log.push(a === b ? `resync ${name(b)}` : `update ${name(b)}`),
    onDelete: (o) => log.push(o instanceof DeletedFinalStateUnknown ? `tombstone ${o.key}` : `delete ${name(o)}`),
  };
  return { h, client, factory, log, handler };
}

/** Starts the informers and drives the clock until their caches are filled. */
async function startAndSync(h: Harness, factory: SharedInformerFactory): Promise<void> {
  factory.start();
  const synced = factory.waitForCacheSync();
  await h.clock.settle();
  await synced;
}

function requests(h: Harness, resource: string): string[] {
  return h.server.trace
    .records()
    .filter((r): r is ApiRequestRecord => r.type === 'api.request' && r.resource === resource && (r.verb === 'list' || r.verb === 'watch'))
    .map((r) => `${r.verb} ${r.code}`);
}

describe('client/informer', () => {
  it('lists, then watches from the list resourceVersion; handlers hear every change in order', async () => {
    const { h, client, factory, log, handler } = await setup();
    const cms = client.resource(CONFIGMAPS, 'default');
    await cms.create(cm('a'));
    await cms.create(cm('b'));
    const informer = factory.informerFor(CONFIGMAPS);
    const reg = informer.addEventHandler(handler);
    assert.ok(!informer.hasSynced());
    await startAndSync(h, factory);
    assert.ok(informer.hasSynced() && reg.hasSynced());
    assert.deepEqual(log, ['add a (initial)', 'add b (initial)']);

    const a = await cms.get('a');
    await cms.update({ ...a, data: { v: 'a2' } });
    await cms.create(cm('c'));
    await cms.delete('b');
    await h.clock.settle();
    assert.deepEqual(log.slice(2), ['update a', 'add c', 'delete b']);
    assert.deepEqual(informer.indexer.keys(), ['default/a', 'default/c']);
    assert.deepEqual(informer.indexer.getByName('default', 'a')?.data, { v: 'a2' });
    assert.ok(Object.isFrozen(informer.indexer.get('default/a')) && Object.isFrozen(informer.indexer.get('default/a')!.metadata), 'cached objects are shared and frozen');
    assert.equal(informer.lastSyncResourceVersion(), (await cms.list()).metadata.resourceVersion);

    const listRecord = h.server.trace.records().find((r): r is ApiRequestRecord => r.type === 'api.request' && r.verb === 'list' && r.resource === 'configmaps')!;
    assert.equal(listRecord.user, 'kubernetes-admin');
    assert.deepEqual(requests(h, 'configmaps').slice(0, 2), ['list 200', 'watch 200']);
    factory.shutdown();
    await h.close();
  });

  it('indexes by namespace and by registered index functions; lists through selectors', async () => {
    const { h, client, factory } = await setup();
    await client.resource(NAMESPACES).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    await client.resource(SERVICEACCOUNTS, 'other').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    const pods = client.resource(PODS);
    const pod = (ns: string, name: string, node: string | undefined, owner: string, app: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns, labels: { app }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: owner, controller: true }] },
      spec: { containers: [{ name: 'c', image: 'nginx' }], ...(node ? { nodeName: node } : {}) },
    });
    await pods.create(pod('default', 'p1', 'n1', 'u1', 'web'));
    await pods.create(pod('default', 'p2', 'n2', 'u1', 'db'));
    await pods.create(pod('other', 'p3', 'n1', 'u2', 'web'));
    await pods.create(pod('other', 'p4', undefined, 'u2', 'web'));
    const informer = factory.informerFor(PODS, {}, { [NODE_NAME_INDEX]: nodeNameIndexFunc, [OWNER_UID_INDEX]: ownerUidIndexFunc });
    await startAndSync(h, factory);
    const names = (objs: KubeObject[]): string[] => objs.map((o) => o.metadata.name ?? '').sort();
    assert.deepEqual(names(informer.indexer.byIndex(NODE_NAME_INDEX, 'n1')), ['p1', 'p3']);
    assert.deepEqual(names(informer.indexer.byIndex(OWNER_UID_INDEX, 'u2')), ['p3', 'p4']);
    assert.deepEqual(names(informer.indexer.listNamespace('other')), ['p3', 'p4']);
    const web = parseSelector('app=web');
    assert.ok(web.ok);
    assert.deepEqual(names(informer.indexer.listNamespace('default', web.value)), ['p1']);

    const p4 = informer.indexer.getByName('other', 'p4')!;
    await client.resource(PODS, 'other').bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p4' }, target: { kind: 'Node', name: 'n2' } } as KubeObject);
    await h.clock.settle();
    assert.notEqual(informer.indexer.getByName('other', 'p4'), p4);
    assert.deepEqual(names(informer.indexer.byIndex(NODE_NAME_INDEX, 'n2')), ['p2', 'p4'], 'the index follows the binding');
    factory.shutdown();
    await h.close();
  });

  it('a field-selector informer sees only its objects (a kubelet watching spec.nodeName)', async () => {
    const { h, client, factory, log, handler } = await setup();
    const pods = client.resource(PODS, 'default');
    const pod = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await pods.create(pod('mine'));
    await pods.create(pod('theirs'));
    const informer = factory.informerFor(PODS, { fieldSelector: 'spec.nodeName=n1' });
    informer.addEventHandler(handler);
    await startAndSync(h, factory);
    assert.deepEqual(log, []);
    await pods.bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'mine' }, target: { kind: 'Node', name: 'n1' } } as KubeObject);
    await pods.bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'theirs' }, target: { kind: 'Node', name: 'n2' } } as KubeObject);
    await h.clock.settle();
    assert.deepEqual(log, ['add mine']);
    assert.equal(factory.informerFor(PODS, { fieldSelector: 'spec.nodeName=n1' }), informer, 'one shared informer per resource and filter');
    factory.shutdown();
    await h.close();
  });

  it('resyncs: handlers hear update(obj, obj) for every cached object each period', async () => {
    const { h, client, factory, log, handler } = await setup();
    await client.resource(CONFIGMAPS, 'default').create(cm('a'));
    const informer = factory.informerFor(CONFIGMAPS);
    informer.addEventHandler(handler, { resyncPeriodMs: 30_000 });
    factory.start();
    await h.clock.settle();
    assert.deepEqual(log, ['add a (initial)']);
    await h.clock.advance(29_000);
    assert.equal(log.length, 1);
    await h.clock.advance(1_000);
    assert.deepEqual(log, ['add a (initial)', 'resync a']);
    await h.clock.advance(30_000);
    assert.deepEqual(log.slice(2), ['resync a']);
    factory.shutdown();
    await h.close();
  });

  it('a handler added after the start first hears the cached objects as initial adds', async () => {
    const { h, client, factory, log, handler } = await setup();
    await client.resource(CONFIGMAPS, 'default').create(cm('a'));
    const informer = factory.informerFor(CONFIGMAPS);
    await startAndSync(h, factory);
    const reg = informer.addEventHandler(handler);
    assert.ok(!reg.hasSynced());
    await client.resource(CONFIGMAPS, 'default').create(cm('b'));
    await h.clock.settle();
    assert.deepEqual(log, ['add a (initial)', 'add b']);
    assert.ok(reg.hasSynced());
    factory.shutdown();
    await h.close();
  });

  it('relists after 410 Expired: a watch restarted from a compacted resourceVersion; missed deletes arrive as tombstones', async () => {
    const { h, client, factory, log, handler } = await setup({ compactionIntervalMs: 0 });
    const cms = client.resource(CONFIGMAPS, 'default');
    await cms.create(cm('x1', { app: 'x' }));
    await cms.create(cm('x2', { app: 'x' }));
    const informer = factory.informerFor(CONFIGMAPS, { labelSelector: 'app=x' });
    informer.addEventHandler(handler);
    await startAndSync(h, factory);
    const timeout = h.clock.pending().find((t) => t.label.endsWith('watch timeout'))!;
    assert.ok(timeout.at - h.clock.now() >= 5 * 60_000 && timeout.at - h.clock.now() < 10 * 60_000, 'client-go watches last 5 to 10 minutes');
    await h.clock.advance(timeout.at - h.clock.now() - 1);

    // Writes the informer's selector does not see, then compacted away: its resourceVersion is now too old.
    const rv = Number(informer.lastSyncResourceVersion());
    await cms.create(cm('y1', { app: 'y' }));
    await h.clock.advance(0);
    await h.server.compact();
    await cms.create(cm('y2', { app: 'y' }));
    await h.clock.advance(0);
    assert.equal(await h.server.compact(), rv + 2);
    await h.clock.advance(1);
    const err = informer.lastError();
    assert.equal(err?.message, `too old resource version: ${rv} (${rv + 2})`);
    assert.equal((err as { code?: number }).code, 410);
    const relist = h.clock.pending().find((t) => t.label.endsWith(': relist'))!;
    const backoff = relist.at - h.clock.now();
    assert.ok(backoff >= 800 && backoff < 1600, `the Reflector's first backoff is 800 ms jittered up to 1.6 s, got ${backoff}`);

    // While the informer is disconnected, x2 goes and x3 comes.
    await cms.delete('x2');
    await cms.create(cm('x3', { app: 'x' }));
    await h.clock.settle();
    assert.deepEqual(log, ['add x1 (initial)', 'add x2 (initial)', 'tombstone default/x2', 'add x3']);
    assert.deepEqual(informer.indexer.keys(), ['default/x1', 'default/x3']);
    assert.equal(informer.lastError(), undefined);
    assert.deepEqual(requests(h, 'configmaps').slice(0, 5), ['list 200', 'watch 200', 'watch 200', 'list 200', 'watch 200']);

    const x1 = await cms.get('x1');
    await cms.update({ ...x1, data: { v: 'again' } });
    await h.clock.settle();
    assert.deepEqual(log.slice(4), ['update x1'], 'watching again after the relist');
    factory.shutdown();
    await h.close();
  });

  it('a refused list is retried after the Reflector backoff until it succeeds', async () => {
    let deny = true;
    const { h, handler } = await setup({
      authorizer: () => ({
        authorize: (a) => (deny && a.resource === 'configmaps' && a.verb === 'list' ? { decision: 'NoOpinion', reason: '' } : { decision: 'Allow', reason: 'test' }),
      }),
    });
    const client = new Client({ server: h.server, user: controllerUser('x-controller'), userAgent: componentUserAgent('kube-controller-manager') });
    const factory = new SharedInformerFactory({ client, clock: h.clock, random: new Random('informers'), component: 'kube-controller-manager' });
    const informer = factory.informerFor(CONFIGMAPS);
    informer.addEventHandler(handler);
    factory.start();
    await h.clock.advance(0);
    assert.ok(!informer.hasSynced());
    assert.equal(informer.lastError()?.message, 'configmaps is forbidden: User "system:serviceaccount:kube-system:x-controller" cannot list resource "configmaps" in API group "" at the cluster scope');
    const relist = h.clock.pending().find((t) => t.label === 'reflector configmaps (kube-controller-manager): relist');
    assert.ok(relist, 'a relist is pending (it keeps settle() from declaring the cluster quiet)');
    deny = false;
    await h.clock.settle();
    assert.ok(informer.hasSynced());
    assert.deepEqual(requests(h, 'configmaps'), ['list 403', 'list 200', 'watch 200']);
    factory.shutdown();
    await h.close();
  });
});
