import { strict as assert } from 'node:assert';
import { forbiddenStatusError } from '../../../src/engine/apiserver/authz/forbidden';
import { createRbacAuthorizer } from '../../../src/engine/apiserver/authz/rbac';
import type { KubeObject } from '../../../src/engine/api/types';
import type { GroupResource } from '../../../src/engine/apiserver/storage/reader';
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

  it('decides from the subject index without visiting unrelated bindings', () => {
    const objs = [clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])];
    for (let i = 0; i < 5000; i++) {
      objs.push(clusterRoleBinding(`user-${String(i).padStart(5, '0')}`, 'view', `User:user-${i}`));
      objs.push(roleBinding('dev', `rb-${String(i).padStart(5, '0')}`, { kind: 'ClusterRole', name: 'view' }, `User:other-${i}`));
    }
    // What a decision costs is a bench figure (npm run bench -- authz); here, what it touches: the
    // reader hands out the same object each time, behind a proxy that counts reads of a binding.
    const reader = new BindingReadCounter(objs);
    const rbac = createRbacAuthorizer(reader);
    const a = attrs(user('user-4999'), { resource: 'pods', namespace: 'dev' });
    const denied = attrs(user('nobody'), { resource: 'pods', namespace: 'dev' });
    // The ClusterRoleBindings allow the first, so the namespace's RoleBindings are indexed on the second.
    assert.equal(rbac.authorize(a).decision, 'Allow');
    assert.equal(rbac.authorize(denied).decision, 'NoOpinion');
    assert.ok(reader.bindingReads >= 10_000, `the first decisions build the indexes from every binding (${reader.bindingReads} reads)`);
    reader.bindingReads = 0;
    for (let i = 0; i < 20; i++) {
      assert.equal(rbac.authorize(a).decision, 'Allow');
      assert.equal(rbac.authorize(denied).decision, 'NoOpinion');
    }
    assert.equal(reader.bindingReads, 0, 'decisions on unchanged lists read no binding: they look the user up in the index');
    // A new binding changes the list: the index is built again and sees it.
    reader.put(roleBinding('dev', 'nobody', { kind: 'ClusterRole', name: 'view' }, 'User:nobody'));
    assert.equal(rbac.authorize(denied).decision, 'Allow');
  });
});

/** A MemoryReader whose bindings count the property reads made on them (one proxy per object, so lists keep their identity). */
class BindingReadCounter extends MemoryReader {
  bindingReads = 0;
  private readonly proxies = new WeakMap<KubeObject, KubeObject>();

  override cached(r: GroupResource, namespace = ''): KubeObject[] {
    return super.cached(r, namespace).map((o) => (o.kind.endsWith('Binding') ? this.proxy(o) : o));
  }

  private proxy(o: KubeObject): KubeObject {
    let p = this.proxies.get(o);
    if (!p) {
      p = new Proxy(o, { get: (target, key, receiver) => (this.bindingReads++, Reflect.get(target, key, receiver)) });
      this.proxies.set(o, p);
    }
    return p;
  }
}
