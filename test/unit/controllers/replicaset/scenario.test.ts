/**
 * The ReplicaSet controller against the API server: slow-start creation stopped by a quota,
 * with its events and the ReplicaFailure condition carried to the Deployment, and scale-down
 * choosing the pods upstream's ranking chooses.
 */
import { strict as assert } from 'node:assert';
import { PODS, REPLICASETS } from '../../../../src/engine/client/resources';
import type { Deployment } from '../../../../src/engine/controllers/deployment/types';
import type { Pod, ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';
import type { ApiRequestRecord } from '../../../../src/engine/trace/apiserver';
import type { ReconcileRecord } from '../../../../src/engine/trace/reconcile';
import { Cluster } from './cluster';

const QUOTAS = { group: '', version: 'v1', resource: 'resourcequotas' };

function web(replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  };
}

describe('controllers/replicaset: scenarios', function () {
  this.timeout(60_000);

  it('creates pods in slow-start batches; a quota stops the batch, with FailedCreate and ReplicaFailure', async () => {
    const c = await Cluster.start();
    const quotas = c.h.admin.resource(QUOTAS, 'default');
    const q = await quotas.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default' }, spec: { hard: { pods: '2' } } });
    await quotas.updateStatus({ ...q, status: { hard: { pods: '2' }, used: { pods: '0' } } });
    await c.deployments.create(web(5));
    // The first sync only: its retries come 5 ms later.
    await c.h.clock.advance(1);

    const rs = await c.rsAt('1');
    const first = c.h.trace.records().find((r): r is ReconcileRecord => r.type === 'controller.reconcile' && r.component === 'replicaset-controller')!;
    const sent = first.requests.map((id) => c.h.trace.get(id) as ApiRequestRecord).map((r) => `${r.verb} ${r.resource} ${r.code}`);
    // Batches of 1 and 2: the second stops at the quota; the two pods never tried are not attempted.
    assert.deepEqual(sent, ['create pods 201', 'create pods 201', 'create pods 403', 'update replicasets 200']);
    assert.equal(first.outcome, 'error');
    const events = await c.events();
    const created = events.filter((e) => e.startsWith('SuccessfulCreate'));
    assert.equal(created.length, 2);
    const failed = events.filter((e) => e.startsWith('FailedCreate'));
    assert.match(failed[0]!, /^FailedCreate: Error creating: pods "web-[4-9bcdf]+-[a-z0-9]+" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2$/);
    const failure = rs.status?.conditions?.find((x) => x.type === 'ReplicaFailure');
    assert.deepEqual([failure?.status, failure?.reason, failure?.message], ['True', 'FailedCreate', failed[0]!.replace('FailedCreate: Error creating: ', '')]);
    assert.equal(rs.status?.replicas, 2);

    const d = await c.deployments.get('web');
    const dFailure = d.status?.conditions?.find((x) => x.type === 'ReplicaFailure');
    assert.deepEqual([dFailure?.status, dFailure?.reason, dFailure?.message], [failure?.status, failure?.reason, failure?.message]);

    // More room: the retries (with backoff) create the rest and the condition goes away.
    const current = await quotas.get('q');
    await quotas.update({ ...current, spec: { hard: { pods: '10' } } });
    const fresh = await quotas.get('q');
    await quotas.updateStatus({ ...fresh, status: { hard: { pods: '10' }, used: (fresh.status as { used: Record<string, string> }).used } });
    await c.h.clock.advance(120_000);
    const after = await c.rsAt('1');
    assert.equal(after.status?.replicas, 5);
    assert.equal(after.status?.conditions, undefined);
    assert.equal((await c.deployments.get('web')).status?.conditions?.find((x) => x.type === 'ReplicaFailure'), undefined);
    await c.close();
  });

  it('scales down the pods upstream ranks first: those sharing a node with most of the Deployment’s pods', async () => {
    const c = await Cluster.start({ nodes: ['node-a', 'node-b', 'node-c'] });
    await c.deployments.create(web(4));
    await c.settle();
    const onA = (await c.pods()).filter((p) => p.spec?.nodeName === 'node-a').map((p) => p.metadata.name);
    assert.equal(onA.length, 2);
    const d = structuredClone(await c.deployments.get('web'));
    d.spec.replicas = 3;
    await c.deployments.update(d);
    await c.settle();
    const deleted = (await c.events('SuccessfulDelete')).map((e) => e.replace('SuccessfulDelete: Deleted pod: ', ''));
    assert.equal(deleted.length, 1);
    assert.ok(onA.includes(deleted[0]), `${deleted[0]} is not on node-a`);
    const pods: Pod[] = await c.pods();
    assert.deepEqual(pods.map((p) => p.spec?.nodeName).sort(), ['node-a', 'node-b', 'node-c']);
    const rs: ReplicaSet = (await c.h.admin.resource<ReplicaSet>(REPLICASETS, 'default').list()).items[0]!;
    assert.equal(rs.spec.replicas, 3);
    assert.equal((await c.h.admin.resource<Pod>(PODS, 'default').list()).items.length, 3);
    await c.close();
  });
});
