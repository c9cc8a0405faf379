import { strict as assert } from 'node:assert';
import { serve, type Served } from './harness';

const json = { 'Content-Type': 'application/json' };
type Obj = Record<string, unknown>;

describe('http: access and identity reviews', () => {
  let s: Served;
  let alice: string;
  before(async () => {
    s = await serve();
    alice = s.cluster.server.tokens.issue({ username: 'alice', uid: '', groups: ['devs'], extra: {} });
  });
  after(() => s.close());

  const post = (path: string, body: Obj, token?: string) => s.send('POST', path, { headers: json, body: JSON.stringify(body), token });

  it('SelfSubjectAccessReview: what kubectl auth can-i asks', async () => {
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } } };
    const admin = await post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review);
    assert.equal(admin.status, 201);
    assert.deepEqual(admin.json().status, { allowed: true });
    const user = (await post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review, alice)).json();
    assert.equal((user.status as Obj).allowed, false);
  });

  it('SelfSubjectRulesReview lists what the user may do, and needs a namespace', async () => {
    const res = await post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } }, alice);
    const status = res.json().status as { resourceRules: Obj[]; incomplete: boolean };
    assert.equal(status.incomplete, false);
    assert.ok(status.resourceRules.some((r) => (r.resources as string[]).includes('selfsubjectaccessreviews')));
    const bad = await post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} });
    assert.equal(bad.status, 400);
    assert.equal(bad.json().message, 'no namespace on request');
  });

  it('SubjectAccessReview and TokenReview for the admin; reviews take create only', async () => {
    const sar = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'secrets' } } });
    assert.equal((sar.json().status as Obj).allowed, false);
    const tr = await post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: alice } });
    assert.deepEqual(tr.json().status, { authenticated: true, user: { username: 'alice', groups: ['devs', 'system:authenticated'] } });
    const forbidden = await post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: alice } }, alice);
    assert.equal(forbidden.status, 403);
    const get = await s.send('GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews');
    assert.equal(get.status, 405);
  });

  it('SelfSubjectReview: kubectl auth whoami', async () => {
    const res = await post('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, alice);
    assert.deepEqual((res.json().status as Obj).userInfo, { username: 'alice', groups: ['devs', 'system:authenticated'] });
  });
});
