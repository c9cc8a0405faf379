// Upstream table: pkg/registry/rbac/validation/rule_test.go TestAppliesTo, plus the subject index.
import { strict as assert } from 'node:assert';
import { createRbacAuthorizer } from '../../../src/engine/apiserver/authz/rbac';
import { describeSubject, firstApplyingSubject } from '../../../src/engine/apiserver/authz/rbac/subjects';
import type { Subject } from '../../../src/engine/apiserver/authz/rbac/types';
import { serviceAccountUser } from '../../../src/engine/apiserver/authn/user';
import { MemoryReader, attrs, clusterRole, clusterRoleBinding, roleBinding, user } from './memory-reader';

describe('rbac subjects (rule_test.go TestAppliesTo)', () => {
  const cases: { name: string; subjects: Subject[]; user: ReturnType<typeof user>; namespace?: string; index: number }[] = [
    { name: 'single subject that matches username', subjects: [{ kind: 'User', name: 'foobar' }], user: user('foobar'), index: 0 },
    {
      name: 'multiple subjects, one that matches username',
      subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'User', name: 'foobar' }],
      user: user('foobar'),
      index: 1,
    },
    {
      name: 'multiple subjects, none that match username',
      subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'User', name: 'foobar' }],
      user: user('zimzam'),
      index: -1,
    },
    {
      name: 'multiple subjects, one that match group',
      subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'Group', name: 'foobar' }],
      user: user('zimzam', 'foobar'),
      index: 1,
    },
    {
      name: 'multiple subjects, one that match group, should ignore namespace',
      subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'Group', name: 'foobar' }],
      user: user('zimzam', 'foobar'),
      namespace: 'namespace1',
      index: 1,
    },
    {
      name: 'multiple subjects with a service account that matches',
      subjects: [{ kind: 'User', name: 'barfoo' }, { kind: 'Group', name: 'foobar' }, { kind: 'ServiceAccount', namespace: 'kube-system', name: 'default' }],
      user: user('system:serviceaccount:kube-system:default'),
      namespace: 'default',
      index: 2,
    },
    { name: "* user subject name doesn't match all users", subjects: [{ kind: 'User', name: '*' }], user: user('foobar'), namespace: 'default', index: -1 },
    {
      name: 'binding to all authenticated and unauthenticated subjects matches authenticated user',
      subjects: [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'system:unauthenticated' }],
      user: user('foobar', 'system:authenticated'),
      namespace: 'default',
      index: 0,
    },
    {
      name: 'binding to all authenticated and unauthenticated subjects matches anonymous user',
      subjects: [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'system:unauthenticated' }],
      user: user('system:anonymous', 'system:unauthenticated'),
      namespace: 'default',
      index: 1,
    },
    {
      name: 'a service account without namespace takes the binding namespace',
      subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
      user: user('system:serviceaccount:ci:builder'),
      namespace: 'ci',
      index: 0,
    },
    {
      name: 'a service account without namespace in a cluster binding matches nobody',
      subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
      user: user('system:serviceaccount::builder'),
      index: -1,
    },
    { name: 'unknown kinds match nobody', subjects: [{ kind: 'user', name: 'foobar' }], user: user('foobar'), index: -1 },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(firstApplyingSubject(c.user, c.subjects, c.namespace ?? ''), c.index));
  }

  it('describes subjects as the allow reason does (service accounts name/namespace)', () => {
    assert.equal(describeSubject({ kind: 'User', name: 'alice' }, ''), 'User "alice"');
    assert.equal(describeSubject({ kind: 'ServiceAccount', name: 'default', namespace: 'kube-system' }, 'x'), 'ServiceAccount "default/kube-system"');
    assert.equal(describeSubject({ kind: 'ServiceAccount', name: 'default' }, 'team-a'), 'ServiceAccount "default/team-a"');
  });
});

describe('rbac subject index', () => {
  const reader = new MemoryReader([
    clusterRole('reader', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]),
    clusterRole('writer', [{ verbs: ['create'], apiGroups: [''], resources: ['configmaps'] }]),
    // The first applying subject is the one the reason names, even if another key found the binding.
    clusterRoleBinding('b-both', 'writer', 'Group:devs', 'User:alice'),
    clusterRoleBinding('a-sa', 'reader', 'ServiceAccount:team-a/builder'),
    roleBinding('team-a', 'local-sa', { kind: 'ClusterRole', name: 'writer' }, 'ServiceAccount:deployer'),
    // SA group bindings: every service account of a namespace, and of the cluster.
    roleBinding('team-b', 'all-sas', { kind: 'ClusterRole', name: 'reader' }, 'Group:system:serviceaccounts:team-b'),
  ]);
  const rbac = createRbacAuthorizer(reader);

  it('names the first applying subject of the binding', () => {
    const d = rbac.authorize(attrs(user('alice', 'devs'), { verb: 'create', resource: 'configmaps', namespace: 'x' }));
    assert.equal(d.reason, 'RBAC: allowed by ClusterRoleBinding "b-both" of ClusterRole "writer" to Group "devs"');
  });

  it('matches service accounts by namespace and name, defaulting to the RoleBinding namespace', () => {
    const builder = serviceAccountUser('team-a', 'builder');
    assert.equal(rbac.authorize(attrs(builder, { resource: 'configmaps', namespace: 'y' })).decision, 'Allow');
    assert.equal(rbac.authorize(attrs(serviceAccountUser('team-b', 'builder'), { resource: 'configmaps', namespace: 'y' })).decision, 'NoOpinion');
    const deployer = serviceAccountUser('team-a', 'deployer');
    assert.equal(
      rbac.authorize(attrs(deployer, { verb: 'create', resource: 'configmaps', namespace: 'team-a' })).reason,
      'RBAC: allowed by RoleBinding "local-sa/team-a" of ClusterRole "writer" to ServiceAccount "deployer/team-a"',
    );
    assert.equal(rbac.authorize(attrs(deployer, { verb: 'create', resource: 'configmaps', namespace: 'team-b' })).decision, 'NoOpinion');
  });

  it("binds a namespace's service accounts through their group", () => {
    const sa = serviceAccountUser('team-b', 'anything');
    assert.equal(
      rbac.authorize(attrs(sa, { resource: 'configmaps', namespace: 'team-b' })).reason,
      'RBAC: allowed by RoleBinding "all-sas/team-b" of ClusterRole "reader" to Group "system:serviceaccounts:team-b"',
    );
    assert.equal(rbac.authorize(attrs(serviceAccountUser('team-c', 'x'), { resource: 'configmaps', namespace: 'team-b' })).decision, 'NoOpinion');
  });
});
