import { strict as assert } from 'node:assert';
import { serve, type Served } from './harness';

const json = { 'Content-Type': 'application/json' };
type Obj = Record<string, unknown>;

describe('http: serviceaccounts/token (TokenRequest, kubectl create token)', () => {
  let s: Served;
  const sas = '/api/v1/namespaces/default/serviceaccounts';
  const request = (sa: string, body: Obj = {}) =>
    s.send('POST', `${sas}/${sa}/token`, { headers: json, body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', ...body }) });

  before(async () => {
    s = await serve();
    const created = await s.send('POST', sas, { headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } }) });
    assert.equal(created.status, 201, created.text);
  });
  after(() => s.close());

  it('issues a token that authenticates as the service account, with the defaults filled in', async () => {
    const res = await request('bot', { spec: {} });
    assert.equal(res.status, 201, res.text);
    const tr = res.json();
    assert.equal(tr.kind, 'TokenRequest');
    assert.equal((tr.metadata as Obj).name, 'bot');
    assert.equal((tr.metadata as Obj).namespace, 'default');
    assert.deepEqual(tr.spec, { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 });
    const status = tr.status as Obj;
    const created = Date.parse((tr.metadata as Obj).creationTimestamp as string);
    assert.equal(Date.parse(status.expirationTimestamp as string) - created, 3600_000);
    const whoami = await s.send('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { headers: json, token: status.token as string, body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }) });
    assert.equal(((whoami.json().status as Obj).userInfo as Obj).username, 'system:serviceaccount:default:bot');
  });

  it('answers with upstream texts: missing account, short duration, name mismatch, unbindable kind', async () => {
    const missing = await request('nobot');
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'serviceaccounts "nobot" not found');
    const short = await request('bot', { spec: { expirationSeconds: 60 } });
    assert.equal(short.status, 422);
    assert.equal(short.json().message, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
    const renamed = await request('bot', { metadata: { name: 'other' } });
    assert.equal(renamed.json().message, 'TokenRequest.authentication.k8s.io "bot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
    const bound = await request('bot', { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' } } });
    assert.equal(bound.status, 400);
    assert.equal(bound.json().message, 'cannot bind token to object of type /v1, Kind=ConfigMap');
    const pod = await request('bot', { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'gone' } } });
    assert.equal(pod.json().message, 'pods "gone" not found');
  });
});
