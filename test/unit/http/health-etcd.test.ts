/**
 * /healthz, /livez and /readyz as kube-apiserver's healthz handler answers them when the etcd
 * check fails (quorum lost): "[-]etcd failed: reason withheld", always verbose, "<endpoint>
 * check failed" and 500; a single failed check "internal server error: <error>"; ?exclude.
 */
import { strict as assert } from 'node:assert';
import { healthAnswer } from '../../../src/http/health';

const ERR = 'error getting data from etcd: context deadline exceeded';

describe('health endpoints with the etcd check failing', () => {
  it('readyz fails verbosely on etcd and etcd-readiness, even without ?verbose', () => {
    const a = healthAnswer('readyz', '', false, ERR)!;
    assert.equal(a.code, 500);
    const lines = a.body.split('\n');
    assert.equal(lines[0], '[+]ping ok');
    assert.ok(lines.includes('[-]etcd failed: reason withheld'));
    assert.ok(lines.includes('[-]etcd-readiness failed: reason withheld'));
    assert.equal(lines[lines.length - 2], 'readyz check failed');
    assert.equal(healthAnswer('livez', '', true, ERR)!.body.split('\n').at(-2), 'livez check failed');
    assert.equal(healthAnswer('healthz', '', false, ERR)!.code, 500);
  });

  it('a single check answers with the error; others pass; excluded checks pass', () => {
    assert.deepEqual(healthAnswer('livez', 'etcd', false, ERR), { code: 500, body: `internal server error: ${ERR}\n` });
    assert.deepEqual(healthAnswer('livez', 'ping', false, ERR), { code: 200, body: 'ok' });
    const ex = healthAnswer('readyz', '', true, ERR, ['etcd', 'etcd-readiness', 'nope'])!;
    assert.equal(ex.code, 200);
    assert.ok(ex.body.includes('[+]etcd excluded: ok\n'));
    assert.ok(ex.body.includes('warn: some health checks cannot be excluded: no matches for "nope"\n'));
    assert.ok(ex.body.endsWith('readyz check passed\n'));
  });

  it('passes when etcd answers', () => {
    assert.deepEqual(healthAnswer('readyz', '', false, undefined), { code: 200, body: 'ok' });
    assert.ok(healthAnswer('readyz', '', true, undefined)!.body.includes('[+]etcd ok\n'));
  });
});
