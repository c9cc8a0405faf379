import { strict as assert } from 'node:assert';
import { StatusError } from '../../../src/engine/api/status';
import type { KubeObject } from '../../../src/engine/api/types';
import { nodeUser } from '../../../src/engine/apiserver/authn/user';
import { createNodeAuthorizer } from '../../../src/engine/apiserver/authz/node';
import {
  accessReviewAttributes,
  bootstrapPolicyObjects,
  createRbacAuthorizer,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
} from '../../../src/engine/apiserver/authz/rbac';
import { unionAuthorizer } from '../../../src/engine/apiserver/authz/union';
import { MemoryReader, clusterRoleBinding, roleBinding, user } from './memory-reader';

const alice = user('alice', 'system:authenticated');
const reader = new MemoryReader([
  ...bootstrapPolicyObjects(),
  roleBinding('dev', 'alice-view', { kind: 'ClusterRole', name: 'view' }, 'User:alice'),
  clusterRoleBinding('broken', 'missing', 'User:system:node:n1'),
]);
const rbac = createRbacAuthorizer(reader);
const node = createNodeAuthorizer(reader);
const chain = unionAuthorizer([node, rbac]);

const rulesReview = (namespace: string): KubeObject => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: {}, spec: { namespace } });
const accessReview = (spec: object): KubeObject => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {}, spec });

describe('SelfSubjectRulesReview (kubectl auth can-i --list)', () => {
  it('lists cluster-wide then namespace rules, omitting empty lists', () => {
    const r = selfSubjectRulesReview(alice, rulesReview('dev'), [node, rbac]) as KubeObject;
    assert.equal(r.kind, 'SelfSubjectRulesReview');
    assert.deepEqual(r.spec, {});
    const status = r.status as { resourceRules: object[]; nonResourceRules: object[]; incomplete: boolean; evaluationError?: string };
    assert.deepEqual(status.resourceRules[0], { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    assert.deepEqual(status.nonResourceRules[0], {
      verbs: ['get'],
      nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'],
    });
    assert.ok(status.resourceRules.some((x) => JSON.stringify(x) === JSON.stringify({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'] })));
    assert.equal(status.incomplete, false);
    assert.equal(status.evaluationError, undefined);
    const prod = (selfSubjectRulesReview(alice, rulesReview('prod'), [node, rbac]) as KubeObject).status as { resourceRules: object[] };
    assert.ok(prod.resourceRules.length < status.resourceRules.length);
  });

  it('is incomplete for kubelets, with every authorizer error', () => {
    const r = selfSubjectRulesReview(nodeUser('n1'), rulesReview('default'), [node, rbac]) as KubeObject;
    assert.deepEqual(r.status, {
      resourceRules: [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }, { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] }],
      nonResourceRules: (r.status as { nonResourceRules: object[] }).nonResourceRules,
      incomplete: true,
      evaluationError: '[node authorizer does not support user rule resolution, clusterrole.rbac.authorization.k8s.io "missing" not found]',
    });
  });

  it('needs a namespace', () => {
    const err = selfSubjectRulesReview(alice, rulesReview(''), [rbac]);
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 400);
    assert.equal(err.message, 'no namespace on request');
  });
});

describe('SelfSubjectAccessReview (kubectl auth can-i)', () => {
  it('answers with the chain decision and its reason', async () => {
    const yes = (await selfSubjectAccessReview(alice, accessReview({ resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods' } }), chain)) as KubeObject;
    assert.deepEqual(yes.status, { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-view/dev" of ClusterRole "view" to User "alice"' });
    assert.deepEqual(yes.spec, { resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods' } });
    const no = (await selfSubjectAccessReview(alice, accessReview({ resourceAttributes: { namespace: 'dev', verb: 'get', resource: 'secrets' } }), chain)) as KubeObject;
    assert.deepEqual(no.status, { allowed: false });
    const url = (await selfSubjectAccessReview(alice, accessReview({ nonResourceAttributes: { path: '/healthz', verb: 'get' } }), chain)) as KubeObject;
    assert.equal((url.status as { allowed: boolean }).allowed, true);
    const kubelet = (await selfSubjectAccessReview(nodeUser('n1'), accessReview({ resourceAttributes: { verb: 'list', resource: 'pods' } }), chain)) as KubeObject;
    assert.deepEqual(kubelet.status, { allowed: false, reason: 'can only list/watch pods with spec.nodeName field selector\nRBAC: clusterrole.rbac.authorization.k8s.io "missing" not found' });
  });

  it('maps the spec to attributes as ResourceAttributesFrom does', () => {
    const a = accessReviewAttributes(alice, { resourceAttributes: { verb: 'list', group: 'apps', resource: 'deployments', subresource: 'scale', name: 'x', namespace: 'dev', fieldSelector: { rawSelector: 'a=b' } } });
    assert.deepEqual(a, {
      user: alice,
      isResourceRequest: true,
      verb: 'list',
      path: '',
      namespace: 'dev',
      apiGroup: 'apps',
      apiVersion: '*',
      resource: 'deployments',
      subresource: 'scale',
      name: 'x',
      fieldSelector: 'a=b',
    });
  });

  it('refuses a spec with both or neither kind of attributes', async () => {
    const both = await selfSubjectAccessReview(alice, accessReview({ resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } }), chain);
    assert.ok(both instanceof StatusError);
    assert.equal(
      both.message,
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    );
    const neither = await selfSubjectAccessReview(alice, accessReview({}), chain);
    assert.ok(neither instanceof StatusError);
    assert.equal(
      neither.message,
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
  });
});
