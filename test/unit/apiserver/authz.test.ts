import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { forbiddenMessage } from '../../../src/engine/apiserver/authz/forbidden';
import type { Attributes, AuthorizerFactory } from '../../../src/engine/apiserver/authz/types';
import { createRbacAuthorizer } from '../../../src/engine/apiserver/authz/rbac';
import { nodeUser, serviceAccountUser, type UserInfo } from '../../../src/engine/apiserver/authn/user';
import { bootstrapSystemObjects } from '../../../src/engine/apiserver/bootstrap';
import { harness, type Harness } from './harness';
import { configMap, namespace } from './fixtures';

const alice: UserInfo = { username: 'alice', uid: '', groups: ['system:authenticated'], extra: {} };

/** Allows only what the test lists ("verb resource"), and records every question. */
function allowing(allowed: string[], asked: Attributes[] = []): AuthorizerFactory {
  return () => ({
    authorize(a) {
      asked.push(a);
      const key = `${a.verb} ${a.resource}${a.subresource ? '/' + a.subresource : ''}`;
      return allowed.includes(key) ? { decision: 'Allow', reason: 'test' } : { decision: 'NoOpinion', reason: '' };
    },
  });
}

describe('apiserver authentication and authorization', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('words Forbidden as kube-apiserver does for each scope', async () => {
    h = await harness({ authorizer: allowing([]) });
    const dep = await h.req({ verb: 'create', user: alice, group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default', body: { object: {} } });
    assert.equal(dep.code, 403);
    assert.equal(dep.body.message, 'deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"');
    assert.deepEqual(dep.body.details, { group: 'apps', kind: 'deployments' });
    const node = await h.req({ verb: 'get', user: alice, resource: 'nodes', name: 'n1' });
    assert.equal(node.body.message, 'nodes "n1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope');
    const status = await h.req({ verb: 'update', user: alice, resource: 'pods', subresource: 'status', namespace: 'ns', name: 'p', body: { object: {} } });
    assert.equal(status.body.message, 'pods "p" is forbidden: User "alice" cannot update resource "pods/status" in API group "" in the namespace "ns"');
    assert.equal(
      forbiddenMessage({ user: alice, verb: 'get', isResourceRequest: false, path: '/healthz', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' }),
      'User "alice" cannot get path "/healthz"',
    );
  });

  it('bearer tokens authenticate; unknown ones are 401; no credentials is system:anonymous', async () => {
    h = await harness({ authorizer: allowing([]) });
    const token = h.server.tokens.issueServiceAccountToken('team', 'builder');
    const sa = await h.req({ verb: 'list', token, resource: 'pods', namespace: 'team' });
    assert.equal(sa.body.message, 'pods is forbidden: User "system:serviceaccount:team:builder" cannot list resource "pods" in API group "" in the namespace "team"');
    const rec = h.server.trace.get(sa.trace)!;
    assert.ok(rec.type === 'api.request');
    assert.deepEqual(rec.groups, ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated']);
    const bad = await h.req({ verb: 'list', token: 'nope', resource: 'pods', namespace: 'team' });
    assert.equal(bad.code, 401);
    assert.deepEqual(bad.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
    const anon = await h.req({ verb: 'list', token: undefined, user: undefined, resource: 'pods', namespace: 'team' } as never);
    assert.equal(anon.code, 403);
    assert.match(String(anon.body.message), /^pods is forbidden: User "system:anonymous" cannot list/);
  });

  it('impersonation is authorized per part and swaps the user', async () => {
    const asked: Attributes[] = [];
    h = await harness({ authorizer: allowing(['impersonate users', 'impersonate groups', 'list configmaps'], asked) });
    await h.create(namespace('default'));
    const ok = await h.req({ verb: 'list', user: alice, resource: 'configmaps', namespace: 'default', impersonate: { user: 'bob', groups: ['devs'] } });
    assert.equal(ok.code, 200);
    const list = asked.find((a) => a.verb === 'list')!;
    assert.equal(list.user.username, 'bob');
    assert.deepEqual(list.user.groups, ['devs', 'system:authenticated']);
    const rec = h.server.trace.get(ok.trace)!;
    assert.ok(rec.type === 'api.request' && rec.impersonatedBy === 'alice' && rec.user === 'bob');
    const sa = await h.req({ verb: 'list', user: alice, resource: 'configmaps', namespace: 'default', impersonate: { user: 'system:serviceaccount:kube-system:default' } });
    assert.equal(sa.code, 403);
    assert.equal(
      sa.body.message,
      'serviceaccounts "default" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"',
    );
    const noUser = await h.req({ verb: 'list', user: alice, resource: 'configmaps', namespace: 'default', impersonate: { user: '', groups: ['g'] } });
    assert.equal(noUser.code, 400);
    assert.equal(noUser.body.message, 'requested [{Group  g    }] without impersonating a user');
  });

  it('with RBAC, a RoleBinding grants what its Role allows and nothing more', async () => {
    h = await harness({ authorizer: createRbacAuthorizer });
    await h.create(namespace('default'));
    await h.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] });
    await h.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'alice-reads', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    });
    await h.clock.advance(1);
    const list = await h.req({ verb: 'list', user: alice, resource: 'configmaps', namespace: 'default' });
    assert.equal(list.code, 200);
    const create = await h.req({ verb: 'create', user: alice, resource: 'configmaps', namespace: 'default', body: { object: configMap('c') } });
    assert.equal(create.code, 403);
    const rec = h.server.trace.get(list.trace)!;
    assert.ok(rec.type === 'api.request');
    assert.equal(rec.stages.find((s) => s.stage === 'authorization')!.rule, 'RBAC: allowed by RoleBinding "alice-reads/default" of Role "reader" to User "alice"');
  });

  it('authorizes non-resource paths with the path in the Forbidden text', async () => {
    h = await harness({ authorizer: createRbacAuthorizer });
    await bootstrapSystemObjects(h.server);
    await h.clock.advance(1);
    assert.equal(await h.server.authorizePath({ verb: 'get', path: '/version' }), undefined, 'system:public-info-viewer lets anyone read /version');
    const denied = await h.server.authorizePath({ verb: 'get', path: '/metrics', user: alice });
    assert.equal(denied?.code, 403);
    assert.equal(denied?.body.message, 'forbidden: User "alice" cannot get path "/metrics"');
  });

  it('knows the control-plane identities', () => {
    assert.deepEqual(nodeUser('node-1').groups, ['system:nodes', 'system:authenticated']);
    assert.equal(nodeUser('node-1').username, 'system:node:node-1');
    assert.equal(serviceAccountUser('kube-system', 'deployment-controller').username, 'system:serviceaccount:kube-system:deployment-controller');
  });

  it('escalation: a user cannot bind a role it does not hold', async () => {
    h = await harness({ authorizer: allowing(['create rolebindings']) });
    await h.create(namespace('default'));
    const res = await h.req({
      verb: 'create',
      user: alice,
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
      resource: 'rolebindings',
      namespace: 'default',
      body: {
        object: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'b' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
        } as JsonObject,
      },
    });
    assert.equal(res.code, 404, 'the cluster-admin role does not exist in this bare cluster');
    assert.equal(res.body.message, 'clusterroles.rbac.authorization.k8s.io "cluster-admin" not found');
  });
});
