/**
 * ResourceQuota's evaluators and admission against upstream's rules (pkg/quota/v1/evaluator/core
 * and k8s.io/apiserver's resourcequota CheckRequest).
 */
import { strict as assert } from 'node:assert';
import type { JsonObject, KubeObject } from '../../../src/engine/api/types';
import { evaluatorFor } from '../../../src/engine/apiserver/admission/resourcequota/evaluators';
import { computeQuotaStatus } from '../../../src/engine/apiserver/admission/resourcequota/plugin';
import { quotaV1Pod } from '../../../src/engine/apiserver/admission/resourcequota/pods';
import { toJson } from '../../../src/engine/apiserver/admission/resourcequota/resources';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import { harness, type Harness } from './harness';
import { namespace } from './fixtures';

const NOW = Date.parse('2025-01-01T00:10:00Z');
const pods = evaluatorFor('', 'pods');
const services = evaluatorFor('', 'services');
const claims = evaluatorFor('', 'persistentvolumeclaims');

function pod(spec: JsonObject, meta: JsonObject = {}, status: JsonObject = { phase: 'Running' }): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', ...meta }, spec, status } as KubeObject;
}
const container = (name: string, requests: JsonObject = {}, limits: JsonObject = {}, extra: JsonObject = {}): JsonObject => ({ name, image: 'nginx', resources: { requests, limits }, ...extra });
const quota = (spec: JsonObject): KubeObject => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns' }, spec }) as KubeObject;

describe('resource quota: pod evaluator', () => {
  it('stops charging a pod stuck terminating past its grace period, but counts it in count/pods', () => {
    // kube-apiserver sets deletionTimestamp to the deletion time plus the grace period.
    const stuck = pod({ containers: [container('c', { cpu: '1' })] }, { deletionTimestamp: '2025-01-01T00:05:00Z', deletionGracePeriodSeconds: 30 });
    assert.equal(quotaV1Pod(stuck, Date.parse('2025-01-01T00:05:30Z')), true, 'not after deletion + grace yet');
    assert.equal(quotaV1Pod(stuck, Date.parse('2025-01-01T00:05:30.001Z')), false);
    assert.deepEqual(toJson(pods.usage(stuck, NOW)), { 'count/pods': '1' });
    const terminating = pod({ containers: [container('c', { cpu: '1' })] }, { deletionTimestamp: '2025-01-01T00:10:20Z', deletionGracePeriodSeconds: 30 });
    assert.deepEqual(toJson(pods.usage(terminating, NOW)), { 'count/pods': '1', cpu: '1', pods: '1', 'requests.cpu': '1' });
    const finished = pod({ containers: [container('c', { cpu: '1' })] }, {}, { phase: 'Succeeded' });
    assert.deepEqual(toJson(pods.usage(finished, NOW)), { 'count/pods': '1' });
  });

  it('the quota status a controller computes leaves the stuck pod out', () => {
    const q = quota({ hard: { pods: '5', 'count/pods': '5', 'requests.cpu': '4' } });
    const running = pod({ containers: [container('c', { cpu: '500m' })] });
    const stuck = pod({ containers: [container('c', { cpu: '1' })] }, { name: 'stuck', deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 });
    const status = computeQuotaStatus(q, new Map([['/pods', [running, stuck]]]), NOW);
    assert.deepEqual(status.used, { 'count/pods': '2', pods: '1', 'requests.cpu': '500m' });
  });

  it('counts only cpu, memory and ephemeral-storage limits, hugepages both ways, extended resources as requests.<name>', () => {
    const p = pod({
      containers: [
        container(
          'c',
          { cpu: '250m', memory: '64Mi', 'ephemeral-storage': '1Gi', 'hugepages-2Mi': '4Mi', 'example.com/gpu': '1', storage: '5Gi' },
          { cpu: '500m', memory: '128Mi', 'hugepages-2Mi': '4Mi', 'example.com/gpu': '1' },
        ),
      ],
    });
    assert.deepEqual(toJson(pods.usage(p, NOW)), {
      'count/pods': '1',
      cpu: '250m',
      'ephemeral-storage': '1Gi',
      'hugepages-2Mi': '4Mi',
      'limits.cpu': '500m',
      'limits.memory': '128Mi',
      memory: '64Mi',
      pods: '1',
      'requests.cpu': '250m',
      'requests.ephemeral-storage': '1Gi',
      'requests.example.com/gpu': '1',
      'requests.hugepages-2Mi': '4Mi',
      'requests.memory': '64Mi',
    });
    assert.equal(pods.matchesResource('requests.example.com/gpu'), true);
    assert.equal(pods.matchesResource('requests.storage'), false, 'claims count requests.storage');
    assert.equal(pods.matchesResource('limits.example.com/gpu'), false, 'no overcommit of extended resources');
  });

  it('adds sidecars to the containers, takes the larger init container, pod-level resources and overhead', () => {
    const p = pod({
      initContainers: [container('init', { cpu: '2' }), container('sidecar', { cpu: '100m' }, {}, { restartPolicy: 'Always' })],
      containers: [container('c', { cpu: '500m', memory: '1Gi' })],
      overhead: { cpu: '10m' },
    });
    assert.equal(toJson(pods.usage(p, NOW))['requests.cpu'], '2010m');
    const podLevel = pod({ resources: { requests: { memory: '2Gi' } }, containers: [container('c', { cpu: '500m', memory: '1Gi' })] });
    assert.equal(toJson(pods.usage(podLevel, NOW))['requests.memory'], '2Gi');
  });

  it('requires each container to state cpu and memory a quota limits', () => {
    const p = pod({ initContainers: [container('init')], containers: [container('a', { cpu: '1' }), container('b', {}, { memory: '1Gi' })] });
    assert.equal(
      pods.constraints(['cpu', 'limits.memory', 'pods', 'requests.ephemeral-storage'], p),
      'must specify cpu for: b,init; limits.memory for: a,init',
    );
  });

  it('matches scopes as upstream: Terminating needs activeDeadlineSeconds >= 0, PriorityClass as a label selector, cross-namespace affinity', () => {
    const scoped = (scopes: string[]) => quota({ hard: { pods: '1' }, scopes });
    const selected = (scopeName: string, operator: string, values: string[] = []) =>
      quota({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName, operator, values }] } });
    assert.equal(pods.matchesScopes(scoped(['Terminating']), pod({ activeDeadlineSeconds: 0, containers: [] })), true);
    assert.equal(pods.matchesScopes(scoped(['NotTerminating']), pod({ containers: [] })), true);
    const high = pod({ priorityClassName: 'high', containers: [] });
    const none = pod({ containers: [] });
    assert.equal(pods.matchesScopes(selected('PriorityClass', 'In', ['high']), high), true);
    assert.equal(pods.matchesScopes(selected('PriorityClass', 'In', ['']), none), false, 'In needs the label');
    assert.equal(pods.matchesScopes(selected('PriorityClass', 'NotIn', ['high']), none), true);
    assert.equal(pods.matchesScopes(selected('PriorityClass', 'DoesNotExist'), high), false);
    const affinity = pod({ affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone', namespaceSelector: {} } }] } }, containers: [] });
    assert.equal(pods.matchesScopes(scoped(['CrossNamespacePodAffinity']), affinity), true);
    assert.equal(pods.matchesScopes(scoped(['CrossNamespacePodAffinity']), none), false);
    assert.equal(pods.matchesScopes(scoped(['BestEffort']), pod({ containers: [] }, {}, { qosClass: 'Burstable' })), false, 'the recorded QoS class');
  });
});

describe('resource quota: service and claim evaluators', () => {
  const svc = (spec: JsonObject): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'ns' }, spec }) as KubeObject;
  const pvc = (spec: JsonObject, meta: JsonObject = {}, status: JsonObject = {}): KubeObject =>
    ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'ns', ...meta }, spec, status }) as KubeObject;

  it('a Service uses zero node ports and load balancers unless its type has them', () => {
    assert.deepEqual(toJson(services.usage(svc({ type: 'ClusterIP', ports: [{ port: 80 }] }), NOW)), {
      'count/services': '1',
      services: '1',
      'services.loadbalancers': '0',
      'services.nodeports': '0',
    });
    const lb = svc({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80, nodePort: 30080 }, { port: 443 }] });
    assert.equal(toJson(services.usage(lb, NOW))['services.nodeports'], '1');
    assert.equal(services.matchesScopes(quota({ hard: { services: '1' }, scopes: ['BestEffort'] }), lb), false, 'services have no scopes');
  });

  it('a claim is charged per storage class (the beta annotation first), its request rounded up to bytes or its expansion', () => {
    const c = pvc({ storageClassName: 'fast', resources: { requests: { storage: '1500m' } } }, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'gold' } });
    assert.deepEqual(toJson(claims.usage(c, NOW)), {
      'count/persistentvolumeclaims': '1',
      'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'gold.storageclass.storage.k8s.io/requests.storage': '2',
      persistentvolumeclaims: '1',
      'requests.storage': '2',
    });
    const expanded = pvc({ resources: { requests: { storage: '1Gi' } } }, {}, { allocatedResources: { storage: '2Gi' } });
    assert.equal(toJson(claims.usage(expanded, NOW))['requests.storage'], '2Gi');
    assert.equal(claims.matchesResource('gold.storageclass.storage.k8s.io/requests.storage'), true);
    assert.equal(claims.matchesResource('gold.storageclass.storage.k8s.io/limits.storage'), false);
    const vac = quota({ hard: { persistentvolumeclaims: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'VolumeAttributesClass', operator: 'In', values: ['silver'] }] } });
    assert.equal(claims.matchesScopes(vac, pvc({ volumeAttributesClassName: 'silver' })), true);
    assert.equal(claims.matchesScopes(vac, pvc({})), false);
  });
});

describe('resource quota: admission', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness({ compactionIntervalMs: 0 });
    await h.create(namespace('ns'));
    await h.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }, 'ns');
  });
  afterEach(() => h.close());

  const setStatus = (spec: JsonObject, status: JsonObject) =>
    h.req({
      verb: 'update',
      resource: 'resourcequotas',
      subresource: 'status',
      namespace: 'ns',
      name: 'q',
      body: { object: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec, status } },
    });

  it('names every resource the quota restricts when its usage is not known yet', async () => {
    const spec = { hard: { pods: '2', 'requests.cpu': '1', secrets: '1' } };
    await h.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec }, 'ns');
    await setStatus(spec, { hard: spec.hard, used: { pods: '0' } });
    await h.synced();
    const res = await h.req({
      verb: 'create',
      resource: 'pods',
      namespace: 'ns',
      user: ADMIN_USER,
      body: { object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [container('c', { cpu: '100m' })] } } },
    });
    assert.equal(res.code, 403);
    assert.equal(res.body.message, 'pods "p" is forbidden: status unknown for quota: q, resources: pods,requests.cpu');
  });

  it('charges a Service update that adds node ports, and ignores quotas that limit nothing it uses', async () => {
    const spec = { hard: { 'services.nodeports': '1', configmaps: '1' } };
    await h.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec }, 'ns');
    await setStatus(spec, { hard: spec.hard, used: { 'services.nodeports': '0' } });
    await h.synced();
    const created = await h.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, name: 'a' }, { port: 81, name: 'b' }] } }, 'ns');
    const nodePort = { ...created, spec: { ...(created.spec as JsonObject), type: 'NodePort' } };
    const res = await h.req({ verb: 'update', resource: 'services', namespace: 'ns', name: 's', body: { object: nodePort } });
    assert.equal(res.code, 403);
    assert.equal(res.body.message, 'services "s" is forbidden: exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1');
  });
});
