/** The control-loop base: reconciles from informer events with causal reconcile records. */
import { strict as assert } from 'node:assert';
import { harness, type Harness } from '../apiserver/harness';
import { Client, componentUserAgent } from '../../../src/engine/client/client';
import { CONFIGMAPS, NAMESPACES } from '../../../src/engine/client/resources';
import { SharedInformerFactory, splitMetaNamespaceKey } from '../../../src/engine/client/informer';
import { Controller, requeueAfter, type SyncFunction } from '../../../src/engine/client/controller';
import { isNotFound } from '../../../src/engine/client/errors';
import { conflictError } from '../../../src/engine/api/status';
import { controllerUser } from '../../../src/engine/apiserver/authn/user';
import { Random } from '../../../src/engine/random';
import type { KubeObject } from '../../../src/engine/api/types';
import type { ReconcileRecord } from '../../../src/engine/trace/reconcile';
import type { RevisionRecord } from '../../../src/engine/trace/revision';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';

const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { v: name } });

async function setup(sync: SyncFunction, extra: { maxRetries?: number } = {}): Promise<{ h: Harness; admin: Client; loop: Controller; reconciles: () => ReconcileRecord[] }> {
  const h = await harness();
  const admin = new Client({ server: h.server, user: controllerUser('admin-controller'), userAgent: 'kubectl/v1.35.0' });
  await admin.resource(NAMESPACES).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const client = new Client({ server: h.server, user: controllerUser('copier-controller'), userAgent: componentUserAgent('kube-controller-manager', 'copier-controller') });
  const factory = new SharedInformerFactory({ client, clock: h.clock, random: new Random('t'), component: 'kube-controller-manager' });
  const informer = factory.informerFor(CONFIGMAPS);
  const loop = new Controller({ name: 'copier', client, clock: h.clock, trace: h.server.trace, sync, workers: 2, informers: [informer], ...extra });
  informer.addEventHandler(loop.handler((o) => (o.metadata.name?.startsWith('copy-') ? [] : [`${o.metadata.namespace}/${o.metadata.name}`])));
  factory.start();
  void loop.run();
  await h.clock.settle();
  const reconciles = (): ReconcileRecord[] => h.server.trace.records().filter((r): r is ReconcileRecord => r.type === 'controller.reconcile');
  return { h, admin, loop, reconciles };
}

/** Copies each ConfigMap to copy-<name>. */
const copier: SyncFunction = async (key, ctx) => {
  const { namespace, name } = splitMetaNamespaceKey(key);
  const cms = ctx.client.resource(CONFIGMAPS, namespace);
  try {
    const src = await cms.get(name);
    ctx.observe(`source at ${src.metadata.resourceVersion}`);
    await cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `copy-${name}` }, data: src.data as Record<string, string> });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
};

describe('client/controller', () => {
  it('records each reconcile with its trigger revision (caused by the etcd revision, caused by the request that wrote it) and the requests it sent (caused by the reconcile)', async () => {
    const { h, admin, reconciles } = await setup(copier);
    const created = await admin.resource(CONFIGMAPS, 'default').create(cm('a'));
    await h.clock.settle();
    const [r] = reconciles();
    assert.ok(r);
    const writer = h.server.trace.records().find((x): x is ApiRequestRecord => x.type === 'api.request' && x.verb === 'create' && x.name === 'a')!;
    const revision = h.server.trace.records().find((x): x is RevisionRecord => x.type === 'store.revision' && x.revision === writer.revision)!;
    assert.equal(revision.cause, writer.id);
    assert.equal(r.component, 'copier-controller');
    assert.equal(r.key, 'default/a');
    assert.equal(r.trigger, 'event');
    assert.equal(r.revision, Number(created.metadata.resourceVersion));
    assert.equal(r.cause, revision.id);
    assert.equal(r.observed, `source at ${created.metadata.resourceVersion}`);
    assert.equal(r.outcome, 'done');
    const sent = r.requests.map((id) => h.server.trace.get(id) as ApiRequestRecord);
    assert.deepEqual(sent.map((x) => `${x.verb} ${x.name} ${x.code}`), ['get a 200', 'create copy-a 201']);
    assert.deepEqual(sent.map((x) => x.cause), [r.id, r.id]);
    assert.deepEqual(sent.map((x) => x.user), ['system:serviceaccount:kube-system:copier-controller', 'system:serviceaccount:kube-system:copier-controller']);
    await h.close();
  });

  it('retries a failed sync with the rate limiter backoff (5 ms, 10 ms, ...), each retry caused by the failure', async () => {
    let failures = 2;
    const { h, admin, reconciles } = await setup(async () => {
      if (failures-- > 0) throw conflictError({ group: '', name: 'configmaps' }, 'x', 'the object has been modified; please apply your changes to the latest version and try again');
    });
    await admin.resource(CONFIGMAPS, 'default').create(cm('a'));
    const start = h.clock.now();
    await h.clock.settle();
    const rs = reconciles();
    assert.deepEqual(rs.map((r) => [r.trigger, r.outcome, r.backoffMs, r.retries, r.time - start]), [
      ['event', 'error', 5, 1, 0],
      ['retry', 'error', 10, 2, 5],
      ['retry', 'done', undefined, undefined, 15],
    ]);
    assert.equal(rs[0]!.error, 'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again');
    assert.equal(rs[1]!.cause, rs[0]!.id);
    assert.equal(rs[2]!.cause, rs[1]!.id);
    await h.close();
  });

  it('drops a key after maxRetries', async () => {
    const { h, admin, reconciles } = await setup(async () => {
      throw new Error('always failing');
    }, { maxRetries: 2 });
    await admin.resource(CONFIGMAPS, 'default').create(cm('a'));
    await h.clock.settle();
    assert.deepEqual(reconciles().map((r) => [r.outcome, r.retries, r.dropped]), [
      ['error', 1, undefined],
      ['error', 2, undefined],
      ['error', 2, true],
    ]);
    await h.close();
  });

  it('requeues after the delay a sync asks for', async () => {
    let first = true;
    const { h, admin, reconciles } = await setup(async () => {
      if (!first) return;
      first = false;
      return requeueAfter(30_000);
    });
    await admin.resource(CONFIGMAPS, 'default').create(cm('a'));
    const start = h.clock.now();
    await h.clock.settle();
    const rs = reconciles();
    assert.deepEqual(rs.map((r) => [r.trigger, r.outcome, r.requeueAfterMs, r.time - start]), [
      ['event', 'requeue-after', 30_000, 0],
      ['requeue', 'done', undefined, 30_000],
    ]);
    assert.equal(rs[1]!.cause, rs[0]!.id);
    await h.close();
  });

  it('a bug in sync (a TypeError) is not retried but reported to whoever drives the clock', async () => {
    const { h, admin } = await setup(async () => {
      const missing = undefined as unknown as { x: number };
      void missing.x;
    });
    await admin.resource(CONFIGMAPS, 'default').create(cm('a'));
    await assert.rejects(h.clock.settle(), /workqueue copier: worker failed.*TypeError/s);
    await h.close();
  });
});
