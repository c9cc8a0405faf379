import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import {
  bindingAuthorized,
  bootstrapPolicyObjects,
  checkBindingWrite,
  checkRoleWrite,
  confirmNoEscalation,
  covers,
  createRbacAuthorizer,
} from '../../../src/engine/apiserver/authz/rbac';
import { MemoryReader, clusterRole, clusterRoleBinding, role, roleBinding, user, type TestRule } from './memory-reader';

const alice = user('alice', 'system:authenticated');
const RBAC = 'rbac.authorization.k8s.io';

function setup(extra: KubeObject[] = []) {
  const reader = new MemoryReader([
    ...bootstrapPolicyObjects(),
    roleBinding('dev', 'alice-edit', { kind: 'ClusterRole', name: 'edit' }, 'User:alice'),
    ...extra,
  ]);
  return { reader, ctx: { reader, authorizer: createRbacAuthorizer(reader) } };
}

const newRole = (rules: TestRule[]) => role('dev', 'x', rules);

describe('rbac escalation checks', () => {
  it('refuses a Role with rules the user does not hold, with kube-apiserver\'s text', async () => {
    const { ctx } = setup();
    const err = await checkRoleWrite({ user: alice, resource: 'roles', namespace: 'dev', requestName: '', obj: newRole([{ verbs: ['create'], apiGroups: ['apps'], resources: ['deployments'] }, { verbs: ['create'], apiGroups: [RBAC], resources: ['roles'] }]) }, ctx);
    assert.equal(err?.code, 403);
    assert.equal(err?.reason, 'Forbidden');
    assert.equal(
      err?.message,
      'roles.rbac.authorization.k8s.io "x" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["rbac.authorization.k8s.io"], Resources:["roles"], Verbs:["create"]}',
    );
    assert.deepEqual(err?.status.details, { name: 'x', group: RBAC, kind: 'roles' });
  });

  it('lists the missing rules compacted by verb and sorted, with names and URLs', async () => {
    const { reader } = setup();
    const msg = await confirmNoEscalation(
      user('bob', 'system:authenticated', 'devs'),
      [
        { verbs: ['delete', 'create'], apiGroups: ['apps'], resources: ['replicasets', 'deployments'] },
        { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] },
        { verbs: ['get'], nonResourceURLs: ['/metrics'] },
        { verbs: ['get'], nonResourceURLs: ['/healthz'] },
      ],
      'dev',
      reader,
    );
    assert.equal(
      msg,
      'user "bob" (groups=["system:authenticated" "devs"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["a"], Verbs:["get"]}\n' +
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["b"], Verbs:["get"]}\n' +
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["delete" "create"]}\n' +
        '{APIGroups:["apps"], Resources:["replicasets"], Verbs:["delete" "create"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
  });

  it('allows rules the user holds, and anything to system:masters or a user who may escalate', async () => {
    const { ctx } = setup([
      clusterRole('escalator', [{ verbs: ['escalate'], apiGroups: [RBAC], resources: ['roles'] }]),
      roleBinding('dev', 'esc', { kind: 'ClusterRole', name: 'escalator' }, 'User:carol'),
    ]);
    const held = newRole([{ verbs: ['create', 'delete'], apiGroups: ['apps'], resources: ['deployments'] }]);
    assert.equal(await checkRoleWrite({ user: alice, resource: 'roles', namespace: 'dev', requestName: '', obj: held }, ctx), undefined);
    const wide = newRole([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    assert.equal(await checkRoleWrite({ user: ADMIN_USER, resource: 'roles', namespace: 'dev', requestName: '', obj: wide }, ctx), undefined);
    assert.equal(await checkRoleWrite({ user: user('carol'), resource: 'roles', namespace: 'dev', requestName: '', obj: wide }, ctx), undefined);
    assert.ok(await checkRoleWrite({ user: user('carol'), resource: 'roles', namespace: 'prod', requestName: '', obj: wide }, ctx));
  });

  it('lets an update through that only changes ownerReferences and finalizers', async () => {
    const { ctx } = setup();
    const old = newRole([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    const gc = { ...old, metadata: { ...old.metadata, finalizers: ['foregroundDeletion'], ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u' }] } };
    assert.equal(await checkRoleWrite({ user: alice, resource: 'roles', namespace: 'dev', requestName: 'x', obj: gc, old }, ctx), undefined);
    const relabeled = { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } };
    assert.ok(await checkRoleWrite({ user: alice, resource: 'roles', namespace: 'dev', requestName: 'x', obj: relabeled, old }, ctx));
  });

  it('requires cluster-admin powers for an aggregation rule', async () => {
    const { ctx } = setup([
      clusterRole('rbac-writer', [{ verbs: ['create', 'get', 'update'], apiGroups: [RBAC], resources: ['clusterroles'] }]),
      clusterRoleBinding('dave', 'rbac-writer', 'User:dave'),
    ]);
    const aggregating = { ...clusterRole('agg', []), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } };
    const err = await checkRoleWrite({ user: user('dave'), resource: 'clusterroles', namespace: '', requestName: '', obj: aggregating }, ctx);
    assert.equal(err?.message, 'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
    const plain = clusterRole('plain', [{ verbs: ['get'], apiGroups: [RBAC], resources: ['clusterroles'] }]);
    assert.equal(await checkRoleWrite({ user: user('dave'), resource: 'clusterroles', namespace: '', requestName: '', obj: plain }, ctx), undefined);
  });

  it('checks bindings against the referenced role, or the bind verb', async () => {
    const { ctx } = setup([
      clusterRole('binder', [{ verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['admin'] }]),
      roleBinding('dev', 'binder', { kind: 'ClusterRole', name: 'binder' }, 'User:erin'),
    ]);
    const toAdmin = roleBinding('dev', 'b', { kind: 'ClusterRole', name: 'admin' }, 'User:someone');
    const err = await checkBindingWrite({ user: alice, resource: 'rolebindings', namespace: 'dev', obj: toAdmin }, ctx);
    assert.equal(err?.code, 403);
    assert.match(err!.message, /^rolebindings\.rbac\.authorization\.k8s\.io "b" is forbidden: user "alice" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["authorization\.k8s\.io"\], Resources:\["localsubjectaccessreviews"\], Verbs:\["create"\]\}\n/);
    assert.equal(await checkBindingWrite({ user: user('erin'), resource: 'rolebindings', namespace: 'dev', obj: toAdmin }, ctx), undefined);
    assert.equal(await bindingAuthorized(user('erin'), { apiGroup: RBAC, kind: 'ClusterRole', name: 'edit' }, 'dev', ctx.authorizer), false);
    const toEdit = roleBinding('dev', 'c', { kind: 'ClusterRole', name: 'edit' }, 'User:someone');
    assert.equal(await checkBindingWrite({ user: alice, resource: 'rolebindings', namespace: 'dev', obj: toEdit }, ctx), undefined);
  });

  it('answers a binding to a missing role with the registry NotFound', async () => {
    const { ctx } = setup();
    const err = await checkBindingWrite({ user: alice, resource: 'clusterrolebindings', namespace: '', obj: clusterRoleBinding('b', 'nope', 'User:x') }, ctx);
    assert.equal(err?.code, 404);
    assert.equal(err?.message, 'clusterroles.rbac.authorization.k8s.io "nope" not found');
    const toRole = roleBinding('dev', 'r', { kind: 'Role', name: 'nope' }, 'User:x');
    assert.equal((await checkBindingWrite({ user: alice, resource: 'rolebindings', namespace: 'dev', obj: toRole }, ctx))?.message, 'roles.rbac.authorization.k8s.io "nope" not found');
  });

  it('appends the user\'s unresolvable roles, worded as the registry does', async () => {
    const { reader } = setup([clusterRoleBinding('broken', 'missing', 'User:alice')]);
    const msg = await confirmNoEscalation(alice, [{ verbs: ['create'], apiGroups: [''], resources: ['nodes'] }], 'dev', reader);
    assert.equal(
      msg,
      'user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["nodes"], Verbs:["create"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io "missing" not found]',
    );
  });
});

describe('rbac Covers (component-helpers policy_comparator_test.go)', () => {
  const r = (groups: string[], verbs: string[], resources: string[]) => ({ apiGroups: groups, verbs, resources });
  const cases: [string, TestRule[], TestRule[], TestRule[]][] = [
    ['exact match', [r(['v1'], ['get'], ['builds'])], [r(['v1'], ['get'], ['builds'])], []],
    ['subresource wildcard', [r(['v1'], ['get'], ['*/scale'])], [r(['v1'], ['get'], ['foo/scale'])], []],
    [
      'multiple rules covering a single rule',
      [r(['v1'], ['delete'], ['deployments']), r(['v1'], ['delete'], ['builds']), r(['v1'], ['update'], ['builds', 'deployments'])],
      [r(['v1'], ['delete', 'update'], ['builds', 'deployments'])],
      [],
    ],
    [
      'missing single verb/resource combination',
      [r(['v1'], ['delete', 'update'], ['builds', 'deployments']), r(['v1'], ['delete'], ['pods'])],
      [r(['v1'], ['delete', 'update'], ['builds', 'deployments', 'pods'])],
      [r(['v1'], ['update'], ['pods'])],
    ],
    ['api group star covering multiple', [r(['*'], ['get'], ['roles'])], [r(['group1', 'group2'], ['get'], ['roles'])], []],
    ['enumeration not covering api group star', [r(['dummy-group'], ['get'], ['roles'])], [r(['*'], ['get'], ['roles'])], [r(['*'], ['get'], ['roles'])]],
    ['verb star covering multiple', [r(['v1'], ['*'], ['roles'])], [r(['v1'], ['watch', 'list'], ['roles'])], []],
    [
      'enumeration not covering verb star',
      [r(['v1'], ['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], ['roles'])],
      [r(['v1'], ['*'], ['roles'])],
      [r(['v1'], ['*'], ['roles'])],
    ],
    ['resource star covering multiple', [r(['v1'], ['get'], ['*'])], [r(['v1'], ['get'], ['resourcegroup:deployments'])], []],
    ['enumeration not covering resource star', [r(['v1'], ['get'], ['resourcegroup:deployments'])], [r(['v1'], ['get'], ['*'])], [r(['v1'], ['get'], ['*'])]],
    ['resource names: a named owner does not cover all', [{ ...r(['v1'], ['get'], ['pods']), resourceNames: ['a'] }], [r(['v1'], ['get'], ['pods'])], [r(['v1'], ['get'], ['pods'])]],
    ['non-resource URL prefix', [{ verbs: ['get'], nonResourceURLs: ['/foo/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/foo/bar', '/other'] }], [{ verbs: ['get'], nonResourceURLs: ['/other'] }]],
  ];
  for (const [name, owner, servant, missing] of cases) {
    it(name, () => assert.deepEqual(covers(owner, servant), { covered: missing.length === 0, missing }));
  }
});
