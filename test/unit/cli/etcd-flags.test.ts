import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApplyCaptured as apply } from './run-apply';
import { existingDataNotice, parseEtcdFlag, probeEtcd, resolveEtcdFlags, type EtcdFlags } from '../../../src/cli/etcd-flags';

describe('--etcd-endpoints and the etcd TLS flags', () => {
  const parse = (...pairs: [string, string | undefined][]): EtcdFlags | string => {
    const flags: EtcdFlags = {};
    for (const [flag, value] of pairs) {
      const problem = parseEtcdFlag(flag, value, flags);
      if (problem) return problem;
    }
    return flags;
  };

  it('takes a comma-separated list of URLs, repeatable', () => {
    assert.deepEqual(parse(['--etcd-endpoints', 'http://127.0.0.1:2379, http://127.0.0.1:22379'], ['--etcd-endpoints', 'http://10.0.0.3:2379']), {
      endpoints: ['http://127.0.0.1:2379', 'http://127.0.0.1:22379', 'http://10.0.0.3:2379'],
    });
  });

  it('refuses what is not an etcd client URL', () => {
    assert.equal(parse(['--etcd-endpoints', '127.0.0.1:2379']), 'error: invalid --etcd-endpoints "127.0.0.1:2379": not a URL (use http://host:port or https://host:port)');
    assert.equal(parse(['--etcd-endpoints', 'localhost']), 'error: invalid --etcd-endpoints "localhost": not a URL (use http://host:port or https://host:port)');
    assert.equal(parse(['--etcd-endpoints', 'unix:///run/etcd.sock']), 'error: invalid --etcd-endpoints "unix:///run/etcd.sock": unsupported scheme "unix" (use http or https)');
    assert.equal(parse(['--etcd-endpoints', 'http://127.0.0.1']), 'error: invalid --etcd-endpoints "http://127.0.0.1": a port is required (etcd clients use 2379)');
    assert.equal(parse(['--etcd-endpoints', 'http://127.0.0.1:2379/registry']), 'error: invalid --etcd-endpoints "http://127.0.0.1:2379/registry": only scheme, host and port are allowed');
    assert.equal(parse(['--etcd-endpoints', ',']), 'error: --etcd-endpoints needs at least one URL');
    assert.equal(parse(['--etcd-endpoints', undefined]), 'error: flag needs an argument: --etcd-endpoints');
  });

  it('checks the flags together and reads the certificates', () => {
    assert.equal(resolveEtcdFlags({}), undefined);
    assert.equal(resolveEtcdFlags({ caFile: 'ca.crt' }), 'error: --etcd-cafile, --etcd-certfile and --etcd-keyfile need --etcd-endpoints');
    assert.equal(resolveEtcdFlags({ endpoints: ['http://a:1', 'https://b:1'] }), 'error: --etcd-endpoints must be all http:// or all https://');
    assert.equal(resolveEtcdFlags({ endpoints: ['http://a:1'], caFile: 'ca.crt' }), 'error: --etcd-cafile, --etcd-certfile and --etcd-keyfile are for https:// endpoints');
    assert.equal(resolveEtcdFlags({ endpoints: ['https://a:1'], certFile: 'c.crt' }), 'error: --etcd-certfile and --etcd-keyfile go together');
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-etcd-flags-'));
    writeFileSync(join(dir, 'ca.crt'), 'CA');
    const missing = resolveEtcdFlags({ endpoints: ['https://a:1'], caFile: join(dir, 'ca.crt'), certFile: join(dir, 'nope.crt'), keyFile: join(dir, 'nope.key') });
    assert.match(String(missing), /^error: cannot read --etcd-certfile .*nope\.crt: ENOENT/);
    const ok = resolveEtcdFlags({ endpoints: ['https://a:1'], caFile: join(dir, 'ca.crt') });
    assert.deepEqual(ok, { endpoints: ['https://a:1'], credentials: { ca: Buffer.from('CA'), cert: undefined, key: undefined } });
  });

  it('says when the cluster starts from what etcd already holds', () => {
    assert.equal(existingDataNotice(['http://a:1'], { revision: 1, registryKeys: 0 }), undefined);
    assert.equal(
      existingDataNotice(['http://a:1', 'http://b:1'], { revision: 246, registryKeys: 216 }),
      'kubesim: etcd at http://a:1,http://b:1 already holds 216 keys under /registry/ (revision 246); the cluster starts from them, as kube-apiserver would\n',
    );
  });

  it('an etcd that does not answer: an error naming it, not a hang', async () => {
    const r = await probeEtcd({ endpoints: ['http://127.0.0.1:1'] });
    assert.match(String(r), /^error: etcd at http:\/\/127\.0\.0\.1:1 did not answer: 14 UNAVAILABLE: No connection established/);
  });

  it('kubesim apply: usage errors exit 2, an unreachable etcd exits 1', async () => {
    const bad = await apply(['-f', 'examples/web.yaml', '--etcd-endpoints', 'localhost:2379']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: invalid --etcd-endpoints "localhost:2379": not a URL/);
    const down = await apply(['-f', 'examples/web.yaml', '--etcd-endpoints=http://127.0.0.1:1']);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /^error: etcd at http:\/\/127\.0\.0\.1:1 did not answer: /);
    assert.equal(down.stdout, '');
  });
});
