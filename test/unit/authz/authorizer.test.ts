import { strict as assert } from 'node:assert';
import { forbiddenStatusError } from '../../../src/engine/apiserver/authz/forbidden';
import { createRbacAuthorizer } from '../../../src/engine/apiserver/authz/rbac';
import { MemoryReader, attrs, clusterRole, clusterRoleBinding, role, roleBinding, user } from './memory-reader';

const alice = user('alice', 'system:authenticated');

describe('rbac authorizer decisions and reasons', () => {
  it('names the binding, role and subject the way the audit annotation does', () => {
    const reader = new MemoryReader([
      clusterRole('system:kube-scheduler', [{ verbs: ['create'], apiGroups: [''], resources: ['pods/binding'] }]),
      clusterRoleBinding('system:kube-scheduler', 'system:kube-scheduler', 'User:system:kube-scheduler'),
      role('dev', 'y', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
      roleBinding('dev', 'x', { kind: 'Role', name: 'y' }, 'User:alice'),
    ]);
    const rbac = createRbacAuthorizer(reader);
    assert.deepEqual(rbac.authorize(attrs(user('system:kube-scheduler', 'system:authenticated'), { verb: 'create', resource: 'pods', subresource: 'binding', namespace: 'default', name: 'p' })), {
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler"',
    });
    assert.deepEqual(rbac.authorize(attrs(alice, { resource: 'pods', namespace: 'dev', name: 'p' })), {
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "x/dev" of Role "y" to User "alice"',
    });
    assert.deepEqual(rbac.authorize(attrs(alice, { resource: 'pods', namespace: 'prod' })), { decision: 'NoOpinion', reason: '' });
  });

  it('cluster bindings are visited before the namespace bindings', () => {
    const reader = new MemoryReader([
      clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
      roleBinding('dev', 'a-local', { kind: 'ClusterRole', name: 'view' }, 'User:alice'),
      clusterRoleBinding('z-global', 'view', 'User:alice'),
    ]);
    const d = createRbacAuthorizer(reader).authorize(attrs(alice, { resource: 'pods', namespace: 'dev' }));
    assert.equal(d.reason, 'RBAC: allowed by ClusterRoleBinding "z-global" of ClusterRole "view" to User "alice"');
  });

  it('gives missing roles as the no-opinion reason, as the listers word it', () => {
    const reader = new MemoryReader([
      clusterRoleBinding('gone', 'x', 'User:alice'),
      roleBinding('dev', 'gone-role', { kind: 'Role', name: 'r' }, 'Group:system:authenticated'),
    ]);
    const rbac = createRbacAuthorizer(reader);
    assert.deepEqual(rbac.authorize(attrs(alice, { resource: 'pods' })), {
      decision: 'NoOpinion',
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "x" not found',
    });
    const a = attrs(alice, { verb: 'list', resource: 'pods', namespace: 'dev' });
    const d = rbac.authorize(a);
    assert.equal(d.reason, 'RBAC: [clusterrole.rbac.authorization.k8s.io "x" not found, role.rbac.authorization.k8s.io "r" not found]');
    assert.equal(
      forbiddenStatusError(a, d.reason).message,
      'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "dev": RBAC: [clusterrole.rbac.authorization.k8s.io "x" not found, role.rbac.authorization.k8s.io "r" not found]',
    );
  });

  it('deduplicates repeated resolution errors and still allows through another binding', () => {
    const reader = new MemoryReader([
      clusterRoleBinding('a', 'x', 'User:alice'),
      clusterRoleBinding('b', 'x', 'Group:system:authenticated'),
      clusterRoleBinding('c', 'view', 'User:alice'),
      clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
    ]);
    const rbac = createRbacAuthorizer(reader);
    assert.equal(rbac.authorize(attrs(alice, { verb: 'delete', resource: 'pods' })).reason, 'RBAC: clusterrole.rbac.authorization.k8s.io "x" not found');
    assert.equal(rbac.authorize(attrs(alice, { resource: 'pods' })).decision, 'Allow');
  });

  it('a ClusterRoleBinding to a Role and unknown role kinds are errors', () => {
    const reader = new MemoryReader([
      { ...clusterRoleBinding('to-role', 'r', 'User:alice'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' } },
      { ...clusterRoleBinding('odd', 'r', 'User:alice'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Thing', name: 'r' } },
    ]);
    assert.equal(
      createRbacAuthorizer(reader).authorize(attrs(alice, { resource: 'pods' })).reason,
      'RBAC: [unsupported role reference kind: "Thing", role.rbac.authorization.k8s.io "r" not found]',
    );
  });

  it('follows changes to roles and bindings', () => {
    const reader = new MemoryReader([clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])]);
    const rbac = createRbacAuthorizer(reader);
    const a = attrs(alice, { resource: 'pods', namespace: 'dev' });
    assert.equal(rbac.authorize(a).decision, 'NoOpinion');
    reader.put(roleBinding('dev', 'v', { kind: 'ClusterRole', name: 'view' }, 'User:alice'));
    assert.equal(rbac.authorize(a).decision, 'Allow');
    reader.put(clusterRole('view', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]));
    assert.equal(rbac.authorize(a).decision, 'NoOpinion');
    reader.put(clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]));
    reader.remove('RoleBinding', 'dev', 'v');
    assert.equal(rbac.authorize(a).decision, 'NoOpinion');
  });

  it('tolerates malformed stored objects', () => {
    const reader = new MemoryReader([
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'bad' }, rules: [null, { verbs: 'get' }, 7] },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'b' }, roleRef: 'bad', subjects: [null, { kind: 'User' }] },
      { ...clusterRoleBinding('c', 'bad', 'User:alice') },
    ]);
    assert.deepEqual(createRbacAuthorizer(reader).authorize(attrs(alice, { resource: 'pods' })), { decision: 'NoOpinion', reason: '' });
  });

  it('decides from the subject index without visiting unrelated bindings', function () {
    this.timeout(10000);
    const objs = [clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])];
    for (let i = 0; i < 5000; i++) {
      objs.push(clusterRoleBinding(`user-${String(i).padStart(5, '0')}`, 'view', `User:user-${i}`));
      objs.push(roleBinding('dev', `rb-${String(i).padStart(5, '0')}`, { kind: 'ClusterRole', name: 'view' }, `User:other-${i}`));
    }
    const reader = new MemoryReader(objs);
    const rbac = createRbacAuthorizer(reader);
    const a = attrs(user('user-4999'), { resource: 'pods', namespace: 'dev' });
    const denied = attrs(user('nobody'), { resource: 'pods', namespace: 'dev' });
    assert.equal(rbac.authorize(a).decision, 'Allow');
    const timed = (n: number, f: () => void): number => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) f();
      return Number(process.hrtime.bigint() - t0) / 1e6 / n;
    };
    // The test reader's cached() sorts its keys on every call, as the watch cache does, which dominates.
    const baseline = timed(20, () => reader.cached({ group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' }));
    const perDecision = timed(20, () => {
      rbac.authorize(a);
      rbac.authorize(denied);
    });
    assert.ok(perDecision < baseline * 10, `a decision costs ${perDecision.toFixed(3)} ms, a cached() list ${baseline.toFixed(3)} ms`);
  });
});
