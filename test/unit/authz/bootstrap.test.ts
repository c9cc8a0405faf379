import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import {
  ADMIN_USER,
  ANONYMOUS_USER,
  CONTROLLER_MANAGER_USER,
  SCHEDULER_USER,
  nodeUser,
  serviceAccountUser,
} from '../../../src/engine/apiserver/authn/user';
import { bootstrapPolicyObjects, covers, createRbacAuthorizer, type PolicyRule } from '../../../src/engine/apiserver/authz/rbac';
import { MemoryReader, attrs, user } from './memory-reader';

const objects = bootstrapPolicyObjects();
const reader = new MemoryReader(objects);
const rbac = createRbacAuthorizer(reader);
const can = (u: ReturnType<typeof user>, a: Parameters<typeof attrs>[1]): boolean => rbac.authorize(attrs(u, a)).decision === 'Allow';
const find = (kind: string, name: string, namespace?: string): KubeObject =>
  objects.find((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace)!;
const rules = (name: string): PolicyRule[] => find('ClusterRole', name).rules as PolicyRule[];
const alice = user('alice', 'system:authenticated');

describe('rbac bootstrap policy', () => {
  it('has the 1.35 objects with their labels and annotations', () => {
    const count = (kind: string) => objects.filter((o) => o.kind === kind).length;
    assert.equal(count('ClusterRole'), 31 + 38);
    assert.equal(count('ClusterRoleBinding'), 12 + 38);
    assert.equal(count('Role'), 7);
    assert.equal(count('RoleBinding'), 7);
    for (const o of objects) {
      assert.deepEqual(o.metadata.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', o.metadata.name);
      assert.deepEqual(o.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' }, o.metadata.name);
      assert.equal(o.metadata.creationTimestamp, undefined);
    }
    assert.equal(find('RoleBinding', 'system:controller:bootstrap-signer', 'kube-public').metadata.namespace, 'kube-public');
    assert.equal(find('ClusterRoleBinding', 'system:node').subjects, undefined);
  });

  it('returns fresh copies', () => {
    const mine = bootstrapPolicyObjects();
    mine[0]!.metadata.name = 'changed';
    assert.notEqual(bootstrapPolicyObjects()[0]!.metadata.name, 'changed');
  });

  it('fills admin, edit and view from the aggregate-to roles, keeping their aggregation rules', () => {
    assert.ok(find('ClusterRole', 'admin').aggregationRule);
    assert.ok(covers(rules('admin'), rules('edit')).covered);
    assert.ok(covers(rules('edit'), rules('view')).covered);
    assert.ok(covers(rules('admin'), rules('system:aggregate-to-admin')).covered);
    assert.ok(!covers(rules('edit'), rules('system:aggregate-to-admin')).covered);
    // edit's own rules come first (system:aggregate-to-edit sorts before view).
    assert.deepEqual(rules('edit')[0], rules('system:aggregate-to-edit')[0]);
    assert.deepEqual(rules('view'), rules('system:aggregate-to-view'));
  });

  it('lets the scheduler bind pods and write events, not delete deployments', () => {
    assert.ok(can(SCHEDULER_USER, { verb: 'create', resource: 'pods', subresource: 'binding', namespace: 'default', name: 'web-1' }));
    assert.ok(can(SCHEDULER_USER, { verb: 'create', resource: 'events', namespace: 'default' }));
    assert.ok(can(SCHEDULER_USER, { verb: 'create', apiGroup: 'events.k8s.io', resource: 'events', namespace: 'default' }));
    assert.ok(can(SCHEDULER_USER, { verb: 'watch', resource: 'nodes' }));
    assert.ok(can(SCHEDULER_USER, { verb: 'update', apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system', name: 'kube-scheduler' }));
    assert.ok(!can(SCHEDULER_USER, { verb: 'update', apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n1' }));
    assert.ok(!can(SCHEDULER_USER, { verb: 'delete', apiGroup: 'apps', resource: 'deployments', namespace: 'default', name: 'web' }));
    assert.equal(
      rbac.authorize(attrs(SCHEDULER_USER, { verb: 'update', resource: 'persistentvolumes', name: 'pv1' })).reason,
      'RBAC: allowed by ClusterRoleBinding "system:volume-scheduler" of ClusterRole "system:volume-scheduler" to User "system:kube-scheduler"',
    );
  });

  it('gives each controller service account its own role', () => {
    const deployment = serviceAccountUser('kube-system', 'deployment-controller');
    assert.equal(
      rbac.authorize(attrs(deployment, { verb: 'create', apiGroup: 'apps', resource: 'replicasets', namespace: 'default' })).reason,
      'RBAC: allowed by ClusterRoleBinding "system:controller:deployment-controller" of ClusterRole "system:controller:deployment-controller" to ServiceAccount "deployment-controller/kube-system"',
    );
    assert.ok(!can(deployment, { verb: 'create', resource: 'pods', namespace: 'default' }));
    const replicaset = serviceAccountUser('kube-system', 'replicaset-controller');
    assert.ok(can(replicaset, { verb: 'create', resource: 'pods', namespace: 'default' }));
    assert.ok(can(replicaset, { verb: 'update', apiGroup: 'apps', resource: 'replicasets', subresource: 'status', namespace: 'default', name: 'r' }));
    const gc = serviceAccountUser('kube-system', 'generic-garbage-collector');
    assert.ok(can(gc, { verb: 'delete', apiGroup: 'anything.example.com', resource: 'widgets', namespace: 'x', name: 'w' }));
    assert.ok(!can(gc, { verb: 'create', resource: 'pods', namespace: 'x' }));
    const ns = serviceAccountUser('kube-system', 'namespace-controller');
    assert.ok(can(ns, { verb: 'update', resource: 'namespaces', subresource: 'finalize', name: 'x' }));
    assert.ok(can(ns, { verb: 'deletecollection', apiGroup: 'apps', resource: 'deployments', namespace: 'x' }));
    const eps = serviceAccountUser('kube-system', 'endpointslice-controller');
    assert.ok(can(eps, { verb: 'create', apiGroup: 'discovery.k8s.io', resource: 'endpointslices', namespace: 'x' }));
    const node = serviceAccountUser('kube-system', 'node-controller');
    assert.ok(can(node, { verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' }));
    assert.ok(can(node, { verb: 'delete', resource: 'pods', namespace: 'x', name: 'p' }));
    // The same service account in another namespace is somebody else.
    assert.ok(!can(serviceAccountUser('default', 'replicaset-controller'), { verb: 'create', resource: 'pods', namespace: 'default' }));
  });

  it('view cannot read secrets; edit cannot create roles; admin can, in its namespace', () => {
    const bind = (name: string, role: string, u: string): KubeObject => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name, namespace: 'dev' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: u }],
    });
    const r = new MemoryReader([...objects, bind('v', 'view', 'viewer'), bind('e', 'edit', 'editor'), bind('a', 'admin', 'nsadmin')]);
    const authz = createRbacAuthorizer(r);
    const ok = (u: string, a: Parameters<typeof attrs>[1]) => authz.authorize(attrs(user(u, 'system:authenticated'), a)).decision === 'Allow';
    assert.ok(ok('viewer', { verb: 'list', resource: 'pods', namespace: 'dev' }));
    assert.ok(ok('viewer', { verb: 'get', resource: 'pods', subresource: 'log', namespace: 'dev', name: 'p' }));
    assert.ok(!ok('viewer', { verb: 'get', resource: 'secrets', namespace: 'dev', name: 's' }));
    assert.ok(!ok('viewer', { verb: 'create', resource: 'pods', subresource: 'exec', namespace: 'dev', name: 'p' }));
    assert.ok(ok('editor', { verb: 'get', resource: 'secrets', namespace: 'dev', name: 's' }));
    assert.ok(ok('editor', { verb: 'create', apiGroup: 'apps', resource: 'deployments', namespace: 'dev' }));
    assert.ok(ok('editor', { verb: 'create', apiGroup: 'resource.k8s.io', resource: 'resourceclaims', namespace: 'dev' }));
    assert.ok(!ok('editor', { verb: 'create', apiGroup: 'rbac.authorization.k8s.io', resource: 'roles', namespace: 'dev' }));
    assert.ok(!ok('editor', { verb: 'update', resource: 'resourcequotas', namespace: 'dev', name: 'q' }));
    assert.ok(ok('nsadmin', { verb: 'create', apiGroup: 'rbac.authorization.k8s.io', resource: 'roles', namespace: 'dev' }));
    assert.ok(!ok('nsadmin', { verb: 'create', apiGroup: 'rbac.authorization.k8s.io', resource: 'roles', namespace: 'prod' }));
    assert.ok(!ok('nsadmin', { verb: 'list', resource: 'nodes' }));
  });

  it('grants everyone discovery and service accounts the OIDC documents', () => {
    assert.ok(can(ANONYMOUS_USER, { verb: 'get', path: '/healthz' }));
    assert.ok(can(ANONYMOUS_USER, { verb: 'get', path: '/version' }));
    assert.ok(!can(ANONYMOUS_USER, { verb: 'get', path: '/api' }));
    assert.ok(can(alice, { verb: 'get', path: '/apis/apps/v1' }));
    assert.ok(can(alice, { verb: 'create', apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }));
    assert.ok(!can(alice, { verb: 'get', path: '/metrics' }));
    assert.ok(!can(alice, { verb: 'get', path: '/openid/v1/jwks' }));
    const sa = serviceAccountUser('default', 'default');
    assert.equal(
      rbac.authorize(attrs(sa, { verb: 'get', path: '/openid/v1/jwks' })).reason,
      'RBAC: allowed by ClusterRoleBinding "system:service-account-issuer-discovery" of ClusterRole "system:service-account-issuer-discovery" to Group "system:serviceaccounts"',
    );
    assert.ok(can(user('prometheus', 'system:monitoring'), { verb: 'get', path: '/metrics' }));
  });

  it('gives system:masters everything and kubelets nothing through RBAC', () => {
    assert.ok(can(ADMIN_USER, { verb: 'escalate', apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'x' }));
    assert.ok(can(ADMIN_USER, { verb: 'get', path: '/logs/anything' }));
    // The system:node binding has no subjects: kubelets depend on the Node authorizer.
    assert.ok(!can(nodeUser('n1'), { verb: 'list', resource: 'pods' }));
    assert.ok(can(nodeUser('n1'), { verb: 'get', path: '/healthz' }));
    assert.ok(can(CONTROLLER_MANAGER_USER, { verb: 'watch', apiGroup: 'apps', resource: 'deployments' }));
    assert.ok(!can(CONTROLLER_MANAGER_USER, { verb: 'create', apiGroup: 'apps', resource: 'deployments', namespace: 'x' }));
    assert.ok(
      can(CONTROLLER_MANAGER_USER, { verb: 'get', resource: 'configmaps', namespace: 'kube-system', name: 'extension-apiserver-authentication' }),
    );
  });
});
