import { strict as assert } from 'node:assert';
import { startApiEndpoint } from '../../../src/http';
import { serve, type Served } from './harness';

describe('http: authentication, version, health', () => {
  let s: Served;
  before(async () => (s = await serve()));
  after(() => s.close());

  it('answers 401 Unauthorized to a request without a token or with a wrong one', async () => {
    for (const token of [null, 'nope']) {
      const res = await s.send('GET', '/api/v1/namespaces', { token });
      assert.equal(res.status, 401);
      assert.equal(res.text, '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n');
      assert.equal((await s.send('GET', '/version', { token })).status, 401);
    }
  });

  it('serves /version as kube-apiserver 1.35', async () => {
    const v = (await s.send('GET', '/version')).json();
    assert.equal(v.gitVersion, 'v1.35.0');
    assert.equal(v.major, '1');
    assert.equal(v.minor, '35');
  });

  it('serves the health checks, plain and verbose', async () => {
    const plain = await s.send('GET', '/healthz');
    assert.equal(plain.text, 'ok');
    assert.equal(plain.headers['content-type'], 'text/plain; charset=utf-8');
    const verbose = (await s.send('GET', '/readyz?verbose')).text.split('\n');
    assert.equal(verbose[0], '[+]ping ok');
    assert.ok(verbose.includes('[+]etcd ok'));
    assert.equal(verbose[verbose.length - 2], 'readyz check passed');
    assert.equal((await s.send('GET', '/livez/etcd')).text, 'ok');
    assert.equal((await s.send('GET', '/livez/nonsense')).status, 404);
  });

  it('listens on 127.0.0.1 only', async () => {
    await assert.rejects(startApiEndpoint({ api: s.cluster.server, clock: s.cluster.clock, host: '0.0.0.0' }), /kubesim serves on 127\.0\.0\.1 only, not 0\.0\.0\.0/);
  });
});
