/**
 * The quota recalculation (resource_quota_controller_test.go's TestSyncResourceQuota cases, in
 * substance): what each hard limit counts, the recalculated status, when it must be written,
 * and which updates give quota back.
 */
import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../../src/engine/api/types';
import { quotaV1Pod, updateNeedsReplenish } from '../../../../src/engine/controllers/resourcequota/replenish';
import { needsPriority, recalculatedStatus, resourcesCounting, statusNeedsUpdate, trackedResources, type ResourceQuota } from '../../../../src/engine/controllers/resourcequota/usage';

const NOW = Date.parse('2025-01-01T00:00:00Z');

function quota(hard: Record<string, string>, status?: ResourceQuota['status'], spec: object = {}): ResourceQuota {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'quota', namespace: 'testing' }, spec: { ...spec, hard }, ...(status ? { status } : {}) };
}

function pod(name: string, phase: string, requests: Record<string, string>, limits: Record<string, string> = {}, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'testing', ...extra },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests, limits } }] },
    status: { phase },
  };
}

const service = (name: string, type: string, ports = 1): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'testing' },
  spec: { type, ports: Array.from({ length: ports }, (_, i) => ({ port: 80 + i, nodePort: type === 'ClusterIP' ? undefined : 30000 + i })) },
});

const names = (q: ResourceQuota): string[] => trackedResources(q).map((gr) => `${gr.group}/${gr.resource}`).sort();

describe('controllers/resourcequota usage', () => {
  it('which resources each quota name counts', () => {
    const of = (name: string): string[] => resourcesCounting(name).map((gr) => `${gr.group}/${gr.resource}`);
    assert.deepEqual(of('pods'), ['/pods']);
    assert.deepEqual(of('requests.cpu'), ['/pods']);
    assert.deepEqual(of('limits.memory'), ['/pods']);
    assert.deepEqual(of('cpu'), ['/pods']);
    assert.deepEqual(of('services.nodeports'), ['/services']);
    assert.deepEqual(of('count/deployments.apps'), ['apps/deployments']);
    assert.deepEqual(of('count/configmaps'), ['/configmaps']);
    assert.deepEqual(of('configmaps'), ['/configmaps']);
    assert.deepEqual(of('gold.storageclass.storage.k8s.io/requests.storage'), ['/persistentvolumeclaims']);
    assert.deepEqual(of('bogus'), []);
    assert.deepEqual(names(quota({ 'requests.cpu': '1', secrets: '2', 'count/jobs.batch': '3' })), ['/pods', '/secrets', 'batch/jobs']);
  });

  it('TestSyncResourceQuota "pods": compute usage of running pods; a finished pod counts only toward count/pods', () => {
    const q = quota({ cpu: '3', memory: '100Gi', pods: '5', 'count/pods': '5' });
    const pods = [
      pod('pod-running', 'Running', { cpu: '100m', memory: '1Gi' }),
      pod('pod-running-2', 'Running', { cpu: '100m', memory: '1Gi' }),
      pod('pod-finished', 'Failed', { cpu: '100m', memory: '1Gi' }),
    ];
    const status = recalculatedStatus(q, new Map([['/pods', pods]]), NOW);
    assert.deepEqual(status, { hard: { 'count/pods': '5', cpu: '3', memory: '100Gi', pods: '5' }, used: { 'count/pods': '3', cpu: '200m', memory: '2Gi', pods: '2' } });
    assert.equal(statusNeedsUpdate(q, status), true, 'first sync');
    assert.equal(statusNeedsUpdate({ ...q, status }, status), false);
    assert.equal(statusNeedsUpdate({ ...q, status: { ...status, used: { ...status.used, cpu: '0.2' } } }, status), false, 'equal quantities written differently');
  });

  it('TestSyncResourceQuota "quota-spec-hard-updated": new hard limits are written with their usage', () => {
    const q = quota({ 'requests.cpu': '4', 'limits.cpu': '8' }, { hard: { 'requests.cpu': '3' }, used: { 'requests.cpu': '0' } });
    assert.equal(needsPriority(q), true);
    const status = recalculatedStatus(q, new Map([['/pods', [pod('p', 'Running', { cpu: '1' }, { cpu: '2' })]]]), NOW);
    assert.deepEqual(status, { hard: { 'limits.cpu': '8', 'requests.cpu': '4' }, used: { 'limits.cpu': '2', 'requests.cpu': '1' } });
    assert.equal(statusNeedsUpdate(q, status), true);
  });

  it('services: node ports and load balancers; an empty namespace uses zero', () => {
    const q = quota({ services: '10', 'services.nodeports': '5', 'services.loadbalancers': '2' });
    const used = recalculatedStatus(q, new Map([['/services', [service('a', 'ClusterIP'), service('b', 'NodePort', 2), service('c', 'LoadBalancer')]]]), NOW).used;
    assert.deepEqual(used, { services: '3', 'services.loadbalancers': '1', 'services.nodeports': '3' });
    assert.deepEqual(recalculatedStatus(q, new Map([['/services', []]]), NOW).used, { services: '0', 'services.loadbalancers': '0', 'services.nodeports': '0' });
  });

  it('scopes: a BestEffort quota counts only best-effort pods', () => {
    const q = quota({ pods: '5' }, undefined, { scopes: ['BestEffort'] });
    const used = recalculatedStatus(q, new Map([['/pods', [pod('be', 'Running', {}), pod('burstable', 'Running', { cpu: '1' })]]]), NOW).used;
    assert.deepEqual(used, { pods: '1' });
  });

  it('a name nothing counts (or a resource the server does not serve) keeps its old usage', () => {
    const q = quota({ bogus: '3', 'count/widgets.example.com': '2', configmaps: '4' }, { hard: {}, used: { bogus: '1' } });
    assert.deepEqual(recalculatedStatus(q, new Map([['/configmaps', []]]), NOW).used, { bogus: '1', configmaps: '0' });
  });

  it('needsPriority: limits without usage that can be computed', () => {
    assert.equal(needsPriority(quota({ pods: '1' }, { hard: { pods: '1' }, used: { pods: '0' } })), false);
    assert.equal(needsPriority(quota({ pods: '1' }, { hard: { pods: '1' }, used: {} })), true);
    assert.equal(needsPriority(quota({ bogus: '1' }, { hard: { bogus: '1' }, used: {} })), false);
    assert.equal(needsPriority(quota({ pods: '1' })), true);
  });

  it('QuotaV1Pod and the update filter: finished pods, pods stuck terminating, service types, storage requests', () => {
    assert.equal(quotaV1Pod(pod('p', 'Running', {}), NOW), true);
    assert.equal(quotaV1Pod(pod('p', 'Succeeded', {}), NOW), false);
    const stuck = pod('p', 'Running', {}, {}, { deletionTimestamp: '2024-12-31T23:59:00Z', deletionGracePeriodSeconds: 30 });
    assert.equal(quotaV1Pod(stuck, NOW), false);
    assert.equal(quotaV1Pod({ ...stuck, metadata: { ...stuck.metadata, deletionGracePeriodSeconds: 120 } }, NOW), true);
    const pods = { group: '', resource: 'pods' };
    assert.equal(updateNeedsReplenish(pods, pod('p', 'Running', {}), pod('p', 'Succeeded', {}), NOW), true);
    assert.equal(updateNeedsReplenish(pods, pod('p', 'Pending', {}), pod('p', 'Running', {}), NOW), false);
    const services = { group: '', resource: 'services' };
    assert.equal(updateNeedsReplenish(services, service('s', 'NodePort'), service('s', 'ClusterIP'), NOW), true);
    assert.equal(updateNeedsReplenish(services, service('s', 'ClusterIP'), service('s', 'ExternalName'), NOW), false);
    assert.equal(updateNeedsReplenish({ group: '', resource: 'configmaps' }, service('a', 'x'), service('a', 'y'), NOW), false);
  });
});
