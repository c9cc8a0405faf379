/**
 * An APIService served by another API server, as kube-aggregator shows it: its group-version in
 * legacy and aggregated discovery while registered; while its backend is not available, 503
 * "service unavailable" (plain text) for its requests and its discovery document, and freshness
 * Stale in aggregated discovery; without a registration, 404 like any unknown path.
 */
import { strict as assert } from 'node:assert';
import type { AggregatedBackend } from '../../../src/engine/apiserver/aggregator';
import { METRICS_RESOURCES } from '../../../src/engine/components/metrics-server/resources';
import { serve, type Served } from './harness';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
type Obj = Record<string, unknown>;

describe('http: aggregated APIs (kube-aggregator)', () => {
  let s: Served;
  let up = true;
  const backend: AggregatedBackend = {
    apiService: 'v1beta1.metrics.k8s.io',
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    resources: METRICS_RESOURCES,
    available: () => up,
    serve: async (r) => ({ code: 200, body: { kind: 'NodeMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {}, items: [], served: `${r.verb} ${r.resource} ${r.labelSelector ?? ''}` } }),
  };
  before(async () => (s = await serve()));
  after(() => s.close());

  it('answers 404 for a group-version nobody registered', async () => {
    assert.equal((await s.send('GET', '/apis/metrics.k8s.io/v1beta1')).status, 404);
    const res = await s.send('GET', '/apis/metrics.k8s.io/v1beta1/nodes');
    assert.equal(res.status, 404);
    assert.equal(res.json().message, 'the server could not find the requested resource');
    const groups = (await s.send('GET', '/apis')).json().groups as Obj[];
    assert.ok(!groups.some((g) => g.name === 'metrics.k8s.io'));
  });

  it('lists a registered APIService in discovery, after the CRD groups (group priority 100)', async () => {
    s.cluster.server.aggregator.register(backend);
    const groups = (await s.send('GET', '/apis')).json().groups as Obj[];
    assert.deepEqual(groups[groups.length - 1], {
      name: 'metrics.k8s.io',
      versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }],
      preferredVersion: { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' },
    });
    assert.deepEqual((await s.send('GET', '/apis/metrics.k8s.io/v1beta1')).json(), {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'metrics.k8s.io/v1beta1',
      resources: [
        { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
        { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
      ],
    });
    const aggregated = (await s.send('GET', '/apis', { headers: { Accept: AGGREGATED } })).json().items as Obj[];
    const metrics = aggregated.find((g) => (g.metadata as Obj).name === 'metrics.k8s.io')!;
    assert.deepEqual(metrics.versions, [
      {
        version: 'v1beta1',
        resources: [
          { resource: 'nodes', responseKind: { group: '', version: '', kind: 'NodeMetrics' }, scope: 'Cluster', singularResource: '', verbs: ['get', 'list'] },
          { resource: 'pods', responseKind: { group: '', version: '', kind: 'PodMetrics' }, scope: 'Namespaced', singularResource: '', verbs: ['get', 'list'] },
        ],
        freshness: 'Current',
      },
    ]);
  });

  it('hands authorized requests to the backend, answers 405 for verbs it does not serve', async () => {
    const list = (await s.send('GET', '/apis/metrics.k8s.io/v1beta1/nodes?labelSelector=a%3Db')).json();
    assert.equal(list.served, 'list nodes a=b');
    const watch = await s.send('GET', '/apis/metrics.k8s.io/v1beta1/nodes?watch=true');
    assert.equal(watch.status, 405);
    assert.equal(watch.json().message, 'watch is not supported on resources of kind "nodes.metrics.k8s.io"');
    const create = await s.send('POST', '/apis/metrics.k8s.io/v1beta1/nodes', { body: '{}', headers: { 'Content-Type': 'application/json' } });
    assert.equal(create.status, 405);
    const denied = await s.send('GET', '/apis/metrics.k8s.io/v1beta1/nodes', { token: s.cluster.server.tokens.issue({ username: 'eve', uid: '', groups: ['system:authenticated'], extra: {} }) });
    assert.equal(denied.status, 403);
    assert.equal(denied.json().message, 'nodes.metrics.k8s.io is forbidden: User "eve" cannot list resource "nodes" in API group "metrics.k8s.io" at the cluster scope');
  });

  it('answers 503 service unavailable while the backend is down, and marks its discovery Stale', async () => {
    up = false;
    const res = await s.send('GET', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods');
    assert.equal(res.status, 503);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.text, 'service unavailable\n');
    const doc = await s.send('GET', '/apis/metrics.k8s.io/v1beta1');
    assert.deepEqual([doc.status, doc.text], [503, 'service unavailable\n']);
    assert.equal((await s.send('GET', '/apis/metrics.k8s.io')).json().kind, 'APIGroup', 'the group document comes from the APIService itself');
    const aggregated = (await s.send('GET', '/apis', { headers: { Accept: AGGREGATED } })).json().items as Obj[];
    assert.deepEqual(aggregated.find((g) => (g.metadata as Obj).name === 'metrics.k8s.io')!.versions, [{ version: 'v1beta1', resources: [], freshness: 'Stale' }]);
    // In-process clients read it as client-go does.
    const inProcess = await s.cluster.client().request({ verb: 'list', group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods', namespace: 'default' });
    assert.equal(inProcess.body.message, 'the server is currently unable to handle the request (list pods.metrics.k8s.io)');
    up = true;
    s.cluster.server.aggregator.unregister('metrics.k8s.io', 'v1beta1');
    assert.equal((await s.send('GET', '/apis/metrics.k8s.io/v1beta1')).status, 404);
  });
});
