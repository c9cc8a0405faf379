/**
 * The resource quota controller against the API server and quota admission: a new quota's usage
 * is computed so admission can enforce it; usage admission charged comes back when objects are
 * deleted (outside admission) or pods finish; the 5-minute full recalculation repairs any drift.
 */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { ResourceQuotaController, RESOURCE_QUOTA_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/resourcequota/controller';
import { CONFIGMAPS, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import { isForbidden } from '../../../../src/engine/client/errors';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { ResourceQuota } from '../../../../src/engine/controllers/resourcequota/usage';

const QUOTAS = { group: '', version: 'v1', resource: 'resourcequotas' };

async function setup(): Promise<ControllerHarness> {
  const h = await controllerHarness();
  await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  h.start(new ResourceQuotaController(h.deps(RESOURCE_QUOTA_CONTROLLER_ACCOUNT), h.server.registry));
  return h;
}

const used = async (h: ControllerHarness): Promise<Record<string, string> | undefined> => (await h.admin.resource<ResourceQuota>(QUOTAS, 'default').get('compute')).status?.used;

const configMap = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });

describe('controllers/resourcequota scenario', () => {
  it('computes a new quota, gives back what deletions and finished pods free, and repairs drift every 5 minutes', async () => {
    const h = await setup();
    const quotas = h.admin.resource<ResourceQuota>(QUOTAS, 'default');
    await quotas.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute' }, spec: { hard: { pods: '3', 'requests.cpu': '1', configmaps: '2' } } });
    await h.clock.settle();
    const q = await quotas.get('compute');
    assert.deepEqual(q.status, { hard: { configmaps: '2', pods: '3', 'requests.cpu': '1' }, used: { configmaps: '0', pods: '0', 'requests.cpu': '0' } });

    const pods = h.admin.resource(PODS, 'default');
    await pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'work' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '500m' } } }] } });
    const configMaps = h.admin.resource(CONFIGMAPS, 'default');
    await configMaps.create(configMap('one'));
    await configMaps.create(configMap('two'));
    await h.clock.settle();
    assert.deepEqual(await used(h), { configmaps: '2', pods: '1', 'requests.cpu': '500m' }, 'charged by admission');
    await assert.rejects(configMaps.create(configMap('three')), (err: Error) => isForbidden(err) && err.message === 'configmaps "three" is forbidden: exceeded quota: compute, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');

    await configMaps.delete('one');
    await h.clock.settle();
    assert.deepEqual(await used(h), { configmaps: '1', pods: '1', 'requests.cpu': '500m' }, 'the deletion is given back');
    await configMaps.create(configMap('three'));

    const pod = deepCopy(await pods.get('work'));
    pod.status = { ...(pod.status as object), phase: 'Succeeded' };
    await pods.updateStatus(pod);
    await h.clock.settle();
    assert.deepEqual(await used(h), { configmaps: '2', pods: '0', 'requests.cpu': '0' }, 'a finished pod uses no compute quota');

    const drifted = deepCopy(await quotas.get('compute'));
    drifted.status = { hard: drifted.status?.hard, used: { configmaps: '2', pods: '3', 'requests.cpu': '1' } };
    await quotas.updateStatus(drifted);
    await h.clock.advance(60_000);
    assert.deepEqual(await used(h), { configmaps: '2', pods: '3', 'requests.cpu': '1' }, 'status writes do not trigger a recalculation');
    await h.clock.advance(5 * 60_000);
    assert.deepEqual(await used(h), { configmaps: '2', pods: '0', 'requests.cpu': '0' }, 'the periodic full recalculation');
    await h.close();
  });

  it('a quota naming a resource counts its objects; new hard limits are recalculated at once', async () => {
    const h = await setup();
    const configMaps = h.admin.resource(CONFIGMAPS, 'default');
    await configMaps.create(configMap('a'));
    await configMaps.create(configMap('b'));
    const quotas = h.admin.resource<ResourceQuota>(QUOTAS, 'default');
    await quotas.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute' }, spec: { hard: { 'count/configmaps': '5' } } });
    await h.clock.settle();
    assert.deepEqual(await used(h), { 'count/configmaps': '2' });
    const q = deepCopy(await quotas.get('compute'));
    q.spec = { hard: { 'count/configmaps': '5', 'count/secrets': '1' } };
    await quotas.update(q);
    await h.clock.settle();
    const after = await quotas.get('compute');
    assert.deepEqual(after.status, { hard: { 'count/configmaps': '5', 'count/secrets': '1' }, used: { 'count/configmaps': '2', 'count/secrets': '0' } });
    await h.close();
  });
});
