/**
 * TokenRequest's signed service account tokens (pkg/serviceaccount): RS256 JWTs with the
 * issuer, subject, audiences, times and kubernetes.io claims; they authenticate until they
 * expire on the virtual clock or an object they are bound to is deleted.
 */
import { strict as assert } from 'node:assert';
import { createPublicKey, verify } from 'node:crypto';
import type { JsonObject } from '../../../src/engine/api/types';
import { harness, type Harness } from './harness';
import { namespace, serviceAccount } from './fixtures';

const decode = (part: string): JsonObject => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as JsonObject;

describe('apiserver: service account tokens', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
    await h.create(namespace('default'));
    await h.create(serviceAccount('bot'), 'default');
  });
  afterEach(() => h.close());

  const tokenRequest = async (spec: JsonObject = {}): Promise<string> => {
    const res = await h.req({ verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'default', name: 'bot', body: { object: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } } });
    assert.equal(res.code, 201, JSON.stringify(res.body));
    return String((res.body.status as JsonObject).token);
  };
  const whoami = (token: string) => h.req({ verb: 'create', group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', token, user: undefined, body: { object: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } } });

  it('issues an RS256 JWT with upstream claims, verifiable with the cluster key', async () => {
    const token = await tokenRequest({ expirationSeconds: 1200 });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const head = decode(header);
    assert.equal(head.alg, 'RS256');
    assert.match(String(head.kid), /^[A-Za-z0-9_-]{43}$/);
    const claims = decode(payload);
    assert.deepEqual(Object.keys(claims), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    assert.deepEqual(claims.aud, ['https://kubernetes.default.svc.cluster.local']);
    assert.equal(claims.iss, 'https://kubernetes.default.svc.cluster.local');
    assert.equal(claims.sub, 'system:serviceaccount:default:bot');
    assert.equal(claims.iat, Math.floor(h.clock.now() / 1000));
    assert.equal(claims.nbf, claims.iat);
    assert.equal(Number(claims.exp) - Number(claims.iat), 1200);
    assert.match(String(claims.jti), /^[0-9a-f-]{36}$/);
    const sa = (await h.req({ verb: 'get', resource: 'serviceaccounts', namespace: 'default', name: 'bot' })).body;
    assert.deepEqual(claims['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'bot', uid: (sa.metadata as JsonObject).uid } });
    const key = createPublicKey(h.server.serviceAccountTokens.publicKeyPem());
    assert.ok(verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')));
    // Two tokens differ (jti), and the key is the cluster's own.
    assert.notEqual(await tokenRequest(), token);
  });

  it('authenticates as the service account until it expires on the virtual clock', async () => {
    const token = await tokenRequest({ expirationSeconds: 600 });
    const ok = await whoami(token);
    assert.equal(ok.code, 201);
    const info = (ok.body.status as JsonObject).userInfo as JsonObject;
    assert.equal(info.username, 'system:serviceaccount:default:bot');
    assert.deepEqual(info.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    assert.match(String(((info.extra as JsonObject)['authentication.kubernetes.io/credential-id'] as string[])[0]), /^JTI=/);
    await h.clock.advance(600_000 + 61_000);
    const late = await whoami(token);
    assert.equal(late.code, 401);
    assert.equal(late.body.message, 'Unauthorized');
  });

  it('stops authenticating when the pod it is bound to, or its service account, is deleted', async () => {
    await h.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'worker' }, spec: { serviceAccountName: 'bot', containers: [{ name: 'c', image: 'busybox' }] } }, 'default');
    const pod = (await h.req({ verb: 'get', resource: 'pods', namespace: 'default', name: 'worker' })).body;
    const token = await tokenRequest({ boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'worker' } });
    const claims = decode(token.split('.')[1]!);
    assert.deepEqual((claims['kubernetes.io'] as JsonObject).pod, { name: 'worker', uid: (pod.metadata as JsonObject).uid });
    const extra = ((await whoami(token)).body.status as JsonObject).userInfo as JsonObject;
    assert.deepEqual((extra.extra as JsonObject)['authentication.kubernetes.io/pod-name'], ['worker']);
    await h.req({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'worker', options: { gracePeriodSeconds: 0 } });
    assert.equal((await whoami(token)).code, 401);
    const other = await tokenRequest();
    assert.equal((await whoami(other)).code, 201);
    await h.req({ verb: 'delete', resource: 'serviceaccounts', namespace: 'default', name: 'bot' });
    assert.equal((await whoami(other)).code, 401);
  });

  it('refuses a token whose signature or issuer is not the cluster\'s', async () => {
    const token = await tokenRequest();
    const [header, payload] = token.split('.') as [string, string];
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...decode(payload), sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url')}.${token.split('.')[2]}`;
    assert.equal((await whoami(forged)).code, 401);
    const review = await h.req({ verb: 'create', group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', body: { object: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } } });
    assert.equal((review.body.status as JsonObject).authenticated, true);
  });
});
