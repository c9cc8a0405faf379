/**
 * `kubesim serve` takes the simulated etcd's flags as `kubesim apply` does: --etcd-members,
 * --etcd-latency and --etcd-fault (fault times from when serving starts). Its banner says which
 * etcd it runs; the default is three members under the latency model; a fault on a member the
 * cluster does not have, or the flags with --etcd-endpoints, are usage errors.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(__dirname, '../../../dist/cli.js');

/** Starts a serve, returns its output up to the kubeconfig line, and stops it. */
async function banner(args: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-serve-etcd-'));
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--nodes', '1', '--no-metrics-server', '--kubeconfig', join(dir, 'kubeconfig'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not come up: ${out}`)), 90_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('export KUBECONFIG=')) {
          clearTimeout(timer);
          resolve(out);
        }
      });
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGINT');
    await new Promise((r) => child.once('close', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('kubesim serve: the simulated etcd flags', function () {
  this.timeout(120_000);

  it('runs three members under the latency model by default, and what the flags ask for', async () => {
    assert.match(await banner([]), /^kubesim: simulated etcd: 3 members \((etcd-\d( leader)?, ){2}etcd-\d( leader)?\), the latency model \(API server 1 ms, round trip 0\.5 ms, WAL fsync 1 ms\)$/m);
    const five = await banner(['--etcd-members', '5', '--etcd-latency', 'instant', '--etcd-fault', 'stop:etcd-4@30s']);
    assert.match(five, /^kubesim: simulated etcd: 5 members \(.*etcd-4.*\), instant latency$/m);
    assert.equal((five.match(/ leader/g) ?? []).length, 1, five);
  });

  it('refuses a fault on a member it does not have, and the simulated etcd flags with --etcd-endpoints', () => {
    const missing = spawnSync(process.execPath, [CLI, 'serve', '--etcd-fault', 'stop:etcd-3@1s'], { encoding: 'utf8' });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^error: --etcd-fault stop:etcd-3@1s: etcd member "etcd-3" not found \(members: etcd-0, etcd-1, etcd-2\)\n/);
    const both = spawnSync(process.execPath, [CLI, 'serve', '--etcd-members', '5', '--etcd-endpoints', 'http://127.0.0.1:2379'], { encoding: 'utf8' });
    assert.equal(both.status, 2);
    assert.match(both.stderr, /^error: --etcd-members, --etcd-latency, --etcd-fault, --quota-backend-bytes and --etcd-maintenance are for the simulated etcd, not --etcd-endpoints\n/);
  });
});
