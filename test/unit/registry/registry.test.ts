import { strict as assert } from 'node:assert';
import {
  BUILTIN_RESOURCES,
  ResourceRegistry,
  noKindMatchMessage,
  storageKey,
  storageListPrefix,
  unknownResourceTypeMessage,
  type ResourceInfo,
} from '../../../src/engine/api/registry';

const registry = new ResourceRegistry();

function must(r: ResourceInfo | undefined): ResourceInfo {
  assert.ok(r);
  return r;
}

describe('resource registry', () => {
  it('describes deployments as discovery does', () => {
    const d = must(registry.byGvk('apps', 'v1', 'Deployment'));
    assert.equal(d.resource, 'deployments');
    assert.equal(d.singular, 'deployment');
    assert.equal(d.listKind, 'DeploymentList');
    assert.equal(d.namespaced, true);
    assert.deepEqual(d.shortNames, ['deploy']);
    assert.deepEqual(d.categories, ['all']);
    assert.deepEqual(d.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual(
      d.subresources.map((s) => [s.name, `${s.group}/${s.version}`, s.kind, s.verbs.join(',')]),
      [
        ['scale', 'autoscaling/v1', 'Scale', 'get,patch,update'],
        ['status', 'apps/v1', 'Deployment', 'get,patch,update'],
      ],
    );
  });

  it('lists the pod subresources of 1.35, with connect verbs from their methods', () => {
    const pods = must(registry.byGroupResource('', 'pods'));
    const subs = Object.fromEntries(pods.subresources.map((s) => [s.name, s.verbs.join(',')]));
    assert.deepEqual(subs, {
      attach: 'create,get',
      binding: 'create',
      ephemeralcontainers: 'get,patch,update',
      eviction: 'create',
      exec: 'create,get',
      log: 'get',
      portforward: 'create,get',
      proxy: 'create,delete,get,patch,update',
      resize: 'get,patch,update',
      status: 'get,patch,update',
    });
    const eviction = pods.subresources.find((s) => s.name === 'eviction');
    assert.deepEqual([eviction?.group, eviction?.version, eviction?.kind], ['policy', 'v1', 'Eviction']);
  });

  it('knows scopes, create-only resources and the namespace finalize subresource', () => {
    assert.equal(must(registry.byGroupResource('', 'nodes')).namespaced, false);
    const ns = must(registry.byGroupResource('', 'namespaces'));
    assert.equal(ns.namespaced, false);
    assert.deepEqual(ns.verbs, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual(ns.subresources.map((s) => `${s.name}:${s.verbs.join(',')}`), ['finalize:update', 'status:get,patch,update']);
    const ssr = must(registry.byGroupResource('authentication.k8s.io', 'selfsubjectreviews'));
    assert.deepEqual(ssr.verbs, ['create']);
    assert.equal(ssr.listKind, undefined);
    assert.equal(ssr.storagePrefix, undefined);
    assert.equal(must(registry.byGroupResource('authorization.k8s.io', 'localsubjectaccessreviews')).namespaced, true);
    assert.deepEqual(must(registry.byGroupResource('', 'componentstatuses')).verbs, ['get', 'list']);
    assert.deepEqual(must(registry.byGroupResource('', 'serviceaccounts')).subresources.map((s) => s.kind), ['TokenRequest']);
  });

  it('has the short names kubectl api-resources shows', () => {
    const short = (group: string, resource: string) => must(registry.byGroupResource(group, resource)).shortNames.join(',');
    const expected: Array<[string, string, string]> = [
      ['', 'pods', 'po'], ['', 'services', 'svc'], ['', 'configmaps', 'cm'], ['', 'namespaces', 'ns'],
      ['', 'nodes', 'no'], ['', 'events', 'ev'], ['', 'endpoints', 'ep'], ['', 'persistentvolumes', 'pv'],
      ['', 'persistentvolumeclaims', 'pvc'], ['', 'serviceaccounts', 'sa'], ['', 'resourcequotas', 'quota'],
      ['', 'limitranges', 'limits'], ['', 'replicationcontrollers', 'rc'], ['', 'componentstatuses', 'cs'],
      ['', 'secrets', ''], ['apps', 'deployments', 'deploy'], ['apps', 'replicasets', 'rs'],
      ['apps', 'daemonsets', 'ds'], ['apps', 'statefulsets', 'sts'], ['apps', 'controllerrevisions', ''],
      ['autoscaling', 'horizontalpodautoscalers', 'hpa'], ['batch', 'cronjobs', 'cj'], ['batch', 'jobs', ''],
      ['policy', 'poddisruptionbudgets', 'pdb'], ['networking.k8s.io', 'ingresses', 'ing'],
      ['networking.k8s.io', 'networkpolicies', 'netpol'], ['scheduling.k8s.io', 'priorityclasses', 'pc'],
      ['storage.k8s.io', 'storageclasses', 'sc'], ['storage.k8s.io', 'volumeattributesclasses', 'vac'],
      ['apiextensions.k8s.io', 'customresourcedefinitions', 'crd,crds'], ['events.k8s.io', 'events', 'ev'],
      ['coordination.k8s.io', 'leases', ''], ['discovery.k8s.io', 'endpointslices', ''],
    ];
    for (const [group, resource, names] of expected) assert.equal(short(group, resource), names, `${resource}.${group}`);
  });

  it('puts the workload kinds in the "all" category', () => {
    assert.deepEqual(
      new Set(registry.category('all').map((r) => r.resource)),
      new Set(['pods', 'replicationcontrollers', 'services', 'daemonsets', 'deployments', 'replicasets', 'statefulsets', 'horizontalpodautoscalers', 'cronjobs', 'jobs']),
    );
    assert.equal(registry.category('all')[0]?.resource, 'pods');
    assert.deepEqual(
      registry.category('api-extensions').map((r) => r.resource).sort(),
      ['apiservices', 'customresourcedefinitions', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'validatingwebhookconfigurations'],
    );
  });

  it('lays out etcd keys as kube-apiserver does', () => {
    const key = (group: string, resource: string, ns: string, name: string) => {
      const prefix = must(registry.byGroupResource(group, resource)).storagePrefix;
      assert.ok(prefix !== undefined, resource);
      return storageKey(prefix, ns, name);
    };
    assert.equal(key('apps', 'deployments', 'default', 'web'), '/registry/deployments/default/web');
    assert.equal(key('', 'nodes', '', 'node-1'), '/registry/minions/node-1');
    assert.equal(key('', 'services', 'default', 'kubernetes'), '/registry/services/specs/default/kubernetes');
    assert.equal(key('', 'endpoints', 'default', 'kubernetes'), '/registry/services/endpoints/default/kubernetes');
    assert.equal(key('', 'replicationcontrollers', 'default', 'rc'), '/registry/controllers/default/rc');
    assert.equal(key('networking.k8s.io', 'ingresses', 'default', 'web'), '/registry/ingress/default/web');
    assert.equal(key('', 'namespaces', '', 'default'), '/registry/namespaces/default');
    assert.equal(key('events.k8s.io', 'events', 'default', 'e1'), '/registry/events/default/e1');
    assert.equal(key('coordination.k8s.io', 'leases', 'kube-node-lease', 'n1'), '/registry/leases/kube-node-lease/n1');
    assert.equal(
      key('apiextensions.k8s.io', 'customresourcedefinitions', '', 'crontabs.stable.example.com'),
      '/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com',
    );
    assert.equal(key('autoscaling', 'horizontalpodautoscalers', 'default', 'web'), '/registry/horizontalpodautoscalers/default/web');
    assert.equal(storageListPrefix('deployments'), '/registry/deployments/');
    assert.equal(storageListPrefix('deployments', 'default'), '/registry/deployments/default/');
    assert.equal(must(registry.byGroupResource('', 'bindings')).storagePrefix, undefined);
  });

  it('resolves names the way kubectl does', () => {
    const gr = (arg: string) => {
      const r = registry.resolve(arg);
      return r ? `${r.resource}.${r.group}/${r.version}` : undefined;
    };
    assert.equal(gr('deploy'), 'deployments.apps/v1');
    assert.equal(gr('deployments'), 'deployments.apps/v1');
    assert.equal(gr('deployment'), 'deployments.apps/v1');
    assert.equal(gr('Deployment'), 'deployments.apps/v1');
    assert.equal(gr('DEPLOYMENTS'), 'deployments.apps/v1');
    assert.equal(gr('deployments.apps'), 'deployments.apps/v1');
    assert.equal(gr('deploy.apps'), 'deployments.apps/v1');
    assert.equal(gr('deployments.v1.apps'), 'deployments.apps/v1');
    assert.equal(gr('po'), 'pods./v1');
    assert.equal(gr('ev'), 'events./v1');
    assert.equal(gr('events.events.k8s.io'), 'events.events.k8s.io/v1');
    assert.equal(gr('hpa'), 'horizontalpodautoscalers.autoscaling/v2');
    assert.equal(gr('hpa.v1.autoscaling'), 'horizontalpodautoscalers.autoscaling/v1');
    assert.equal(gr('crd'), 'customresourcedefinitions.apiextensions.k8s.io/v1');
    assert.equal(gr('ingresses.networking.k8s.io'), 'ingresses.networking.k8s.io/v1');
    assert.equal(gr('netpol'), 'networkpolicies.networking.k8s.io/v1');
    assert.equal(gr('endpoints'), 'endpoints./v1');
    assert.equal(gr('foos'), undefined);
    assert.equal(gr('deployments.batch'), undefined);
  });

  it('orders resources for discovery: core first, then groups by priority, preferred version first', () => {
    const groups = [...new Set(registry.all().map((r) => r.group))];
    // kube-aggregator's own group leads /apis (APIRegistrationGroupPriority 20001).
    assert.deepEqual(groups.slice(0, 5), ['', 'apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io']);
    assert.deepEqual(registry.groupVersions('autoscaling'), ['v2', 'v1']);
    assert.equal(registry.byGroupResource('autoscaling', 'horizontalpodautoscalers')?.version, 'v2');
    assert.deepEqual(registry.versionsOfKind('autoscaling', 'HorizontalPodAutoscaler'), ['v2', 'v1']);
  });

  it('registers and removes custom resources', () => {
    const local = new ResourceRegistry();
    const crontab: ResourceInfo = {
      group: 'stable.example.com', version: 'v1', kind: 'CronTab', listKind: 'CronTabList', resource: 'crontabs',
      singular: 'crontab', namespaced: true, verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ct'], categories: ['all'], subresources: [], storagePrefix: 'stable.example.com/crontabs',
    };
    local.register(crontab);
    assert.equal(local.resolve('ct'), crontab);
    assert.equal(local.byGvk('stable.example.com', 'v1', 'CronTab'), crontab);
    assert.ok(local.category('all').includes(crontab));
    local.unregister('stable.example.com', 'v1', 'crontabs');
    assert.equal(local.resolve('ct'), undefined);
    assert.equal(registry.resolve('ct'), undefined);
  });

  it('words failed lookups as apimachinery and kubectl do', () => {
    assert.equal(noKindMatchMessage('example.com', 'Foo', ['v1']), 'no matches for kind "Foo" in version "example.com/v1"');
    assert.equal(noKindMatchMessage('apps', 'Deployment', ['v1beta1']), 'no matches for kind "Deployment" in version "apps/v1beta1"');
    assert.equal(noKindMatchMessage('', 'Foo', ['v1']), 'no matches for kind "Foo" in version "v1"');
    assert.equal(noKindMatchMessage('example.com', 'Foo', []), 'no matches for kind "Foo" in group "example.com"');
    assert.equal(noKindMatchMessage('x.io', 'Foo', ['v2', 'v1']), 'no matches for kind "Foo" in versions ["x.io/v1" "x.io/v2"]');
    assert.equal(unknownResourceTypeMessage('foos'), 'the server doesn\'t have a resource type "foos"');
  });

  it('covers the requested group-versions', () => {
    const gvs = new Set(BUILTIN_RESOURCES.map((r) => (r.group ? `${r.group}/${r.version}` : r.version)));
    for (const gv of [
      'v1', 'apps/v1', 'batch/v1', 'autoscaling/v1', 'autoscaling/v2', 'policy/v1', 'discovery.k8s.io/v1',
      'networking.k8s.io/v1', 'rbac.authorization.k8s.io/v1', 'coordination.k8s.io/v1', 'events.k8s.io/v1',
      'scheduling.k8s.io/v1', 'storage.k8s.io/v1', 'admissionregistration.k8s.io/v1', 'apiextensions.k8s.io/v1',
      'authentication.k8s.io/v1', 'authorization.k8s.io/v1',
    ]) assert.ok(gvs.has(gv), gv);
  });
});
