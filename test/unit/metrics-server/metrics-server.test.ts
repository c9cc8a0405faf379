/**
 * metrics-server in a cluster: available one resolution after it starts (503 before), node and
 * pod metrics from the kubelets' usage, pods only while Running and from their second scrape
 * (or their first, when fresh), metrics-server's and the pod lister's NotFound texts, the
 * selectors, RBAC through the aggregated metrics-reader role, and a cluster without it.
 */
import { strict as assert } from 'node:assert';
import { createCluster, type Cluster } from '../../../src/engine/cluster';
import { ADMIN_USER, type UserInfo } from '../../../src/engine/apiserver/authn/user';
import type { ApiResponse } from '../../../src/engine/apiserver/request';
import { DEPLOYMENTS } from '../../../src/engine/client/resources';
import type { JsonObject, KubeObject } from '../../../src/engine/api/types';

const metrics = (cluster: Cluster, resource: 'pods' | 'nodes', extra: { namespace?: string; name?: string; labelSelector?: string; fieldSelector?: string; user?: UserInfo } = {}): Promise<ApiResponse> =>
  cluster.drive(cluster.server.handle({
    verb: extra.name ? 'get' : 'list',
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    resource,
    namespace: extra.namespace,
    name: extra.name,
    options: { labelSelector: extra.labelSelector, fieldSelector: extra.fieldSelector },
    user: extra.user ?? ADMIN_USER,
  }));

const items = (r: ApiResponse): JsonObject[] => r.body.items as JsonObject[];
const names = (r: ApiResponse): string[] => items(r).map((i) => (i.metadata as { name: string }).name);

function deployment(name: string, annotation: string, replicas = 2): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: { 'kubesim.dev/behavior': annotation } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }, { name: 'sidecar', image: 'busybox:1.36' }] },
      },
    },
  } as KubeObject;
}

describe('metrics-server (metrics.k8s.io/v1beta1)', () => {
  let cluster: Cluster;
  before(async () => {
    cluster = await createCluster({ seed: 'metrics-test' });
  });
  after(() => cluster.close());

  it('is unavailable until it has scraped twice, then serves every node', async () => {
    const early = await metrics(cluster, 'nodes');
    assert.equal(early.code, 503);
    assert.equal(early.body.message, 'the server is currently unable to handle the request (list nodes.metrics.k8s.io)');
    assert.deepEqual(early.raw, { contentType: 'text/plain; charset=utf-8', text: 'service unavailable\n' });
    await cluster.advance(15_000);
    const list = await metrics(cluster, 'nodes');
    assert.equal(list.code, 200);
    assert.equal(list.body.kind, 'NodeMetricsList');
    assert.deepEqual(names(list), ['kubesim-control-plane', 'kubesim-worker', 'kubesim-worker2', 'kubesim-worker3']);
    const cp = items(list)[0]!;
    assert.equal(cp.window, '15s');
    assert.equal(cp.timestamp, cluster.clock.rfc3339());
    assert.match(String((cp.usage as JsonObject).cpu), /^1[4-7]\dm$/);
    assert.match(String((cp.usage as JsonObject).memory), /^\d+Ki$/);
    const one = await metrics(cluster, 'nodes', { name: 'kubesim-worker' });
    assert.equal(one.body.kind, 'NodeMetrics');
    assert.deepEqual(names(await metrics(cluster, 'nodes', { labelSelector: 'node-role.kubernetes.io/control-plane' })), ['kubesim-control-plane']);
    assert.deepEqual(names(await metrics(cluster, 'nodes', { fieldSelector: 'metadata.name=kubesim-worker2' })), ['kubesim-worker2']);
    const missing = await metrics(cluster, 'nodes', { name: 'nope' });
    assert.deepEqual([missing.code, missing.body.message], [404, 'node "nope" not found']);
  });

  it('serves a pod from its second scrape, with each container, and only while it is Running', async () => {
    await cluster.client().resource(DEPLOYMENTS, 'default').create(deployment('web', 'main: cpu=250m memory=64Mi'));
    await cluster.settle();
    const before = await metrics(cluster, 'pods', { namespace: 'default' });
    assert.deepEqual(items(before), [], 'not scraped twice yet');
    const pod = (await cluster.client().resource({ group: '', version: 'v1', resource: 'pods' }, 'default').list({ labelSelector: 'app=web' })).items[0]!;
    const name = pod.metadata.name!;
    const notYet = await metrics(cluster, 'pods', { namespace: 'default', name });
    assert.deepEqual([notYet.code, notYet.body.message], [404, `podmetrics.metrics.k8s.io "default/${name}" not found`]);
    await cluster.advance(30_000);
    const list = await metrics(cluster, 'pods', { namespace: 'default', labelSelector: 'app=web' });
    assert.equal(list.body.kind, 'PodMetricsList');
    assert.equal(items(list).length, 2);
    const m = (await metrics(cluster, 'pods', { namespace: 'default', name })).body;
    assert.equal(m.kind, 'PodMetrics');
    assert.deepEqual((m.metadata as JsonObject).labels, pod.metadata.labels);
    assert.equal(m.window, '15s');
    const containers = m.containers as { name: string; usage: { cpu: string; memory: string } }[];
    assert.deepEqual(containers.map((c) => c.name), ['main', 'sidecar']);
    assert.deepEqual(containers[0]!.usage, { cpu: '250m', memory: '64Mi' });
    assert.deepEqual(names(await metrics(cluster, 'pods', { fieldSelector: `metadata.name=${name}` })), [name], 'across namespaces, by name');
    const bad = await metrics(cluster, 'pods', { namespace: 'default', fieldSelector: 'status.phase=Running' });
    assert.deepEqual([bad.code, bad.body.message], [400, '"status.phase" is not a known field selector: only "metadata.name", "metadata.namespace"']);
    const gone = await metrics(cluster, 'pods', { namespace: 'default', name: 'nope' });
    assert.deepEqual([gone.code, gone.body.message], [404, 'pods "nope" not found']);
  });

  it('lets users with view read metrics (the aggregated metrics-reader role), others not', async () => {
    const admin = cluster.client();
    await admin.resource({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings' }, 'default').create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'jane-view', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }],
    } as KubeObject);
    await cluster.settle();
    const jane: UserInfo = { username: 'jane', uid: '', groups: ['system:authenticated'], extra: {} };
    assert.equal((await metrics(cluster, 'pods', { namespace: 'default', user: jane })).code, 200);
    const other = await metrics(cluster, 'pods', { namespace: 'kube-system', user: jane });
    assert.deepEqual([other.code, other.body.message], [403, 'pods.metrics.k8s.io is forbidden: User "jane" cannot list resource "pods" in API group "metrics.k8s.io" in the namespace "kube-system"']);
  });

  it('becomes unavailable when it stops, and available again after it restarts and scrapes twice', async () => {
    cluster.metricsServer!.stop();
    assert.equal((await metrics(cluster, 'nodes')).code, 503);
    await cluster.drive(cluster.metricsServer!.start());
    await cluster.advance(1);
    assert.equal((await metrics(cluster, 'nodes')).code, 503);
    await cluster.advance(15_000);
    assert.equal((await metrics(cluster, 'nodes')).code, 200);
  });

  it('registers its APIService (v1beta1.metrics.k8s.io), Available as the aggregator finds it', async () => {
    const c = await createCluster({ seed: 'metrics-apiservice', nodes: { count: 1 } });
    const get = async (): Promise<JsonObject> => (await c.drive(c.server.handle({ verb: 'get', group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices', name: 'v1beta1.metrics.k8s.io', user: ADMIN_USER }))).body;
    const available = async (): Promise<JsonObject | undefined> => ((((await get()).status as JsonObject | undefined)?.conditions ?? []) as JsonObject[]).find((x) => x.type === 'Available');
    try {
      await c.advance(1);
      const svc = await get();
      assert.deepEqual(svc.spec, { group: 'metrics.k8s.io', groupPriorityMinimum: 100, insecureSkipTLSVerify: true, service: { name: 'metrics-server', namespace: 'kube-system', port: 443 }, version: 'v1beta1', versionPriority: 100 });
      assert.deepEqual((svc.metadata as JsonObject).labels, { 'k8s-app': 'metrics-server' });
      await c.advance(5_000);
      const before = await available();
      assert.deepEqual([before?.status, before?.reason, before?.message], ['False', 'MissingEndpoints', 'endpoints for service/metrics-server in "kube-system" have no addresses with port name "https"']);
      await c.advance(15_000);
      const after = await available();
      assert.deepEqual([after?.status, after?.reason, after?.message], ['True', 'Passed', 'all checks passed']);
      c.metricsServer!.stop();
      await c.advance(5_000);
      assert.equal((await available())?.status, 'False');
    } finally {
      await c.close();
    }
  });

  it('does not exist in a cluster without it, as in kind', async () => {
    const kind = await createCluster({ seed: 'metrics-test', metricsServer: false, nodes: { count: 1 } });
    try {
      const r = await metrics(kind, 'nodes');
      assert.deepEqual([r.code, r.body.message], [404, 'the server could not find the requested resource']);
      assert.equal(kind.metricsServer, undefined);
      assert.equal(kind.server.registry.byGroupResource('metrics.k8s.io', 'pods'), undefined);
      const svc = await kind.drive(kind.server.handle({ verb: 'get', group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices', name: 'v1beta1.metrics.k8s.io', user: ADMIN_USER }));
      assert.equal(svc.code, 404);
    } finally {
      await kind.close();
    }
  });
});
