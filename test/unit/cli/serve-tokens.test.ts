/**
 * `kubesim serve` issues unguessable credentials: two real serves with the same seed give the
 * admin different 256-bit tokens (while the seed still decides names and uids), and a token of
 * the first is refused by the second with kube-apiserver's 401.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(__dirname, '../../../dist/cli.js');

interface Serve {
  child: ChildProcess;
  url: string;
  ca: string;
  /** user name -> token, from the kubeconfig. */
  tokens: Map<string, string>;
}

async function startServe(dir: string, name: string, seed: string): Promise<Serve> {
  const kubeconfig = join(dir, `${name}.kubeconfig`);
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--nodes', '1', '--seed', seed, '--kubeconfig', kubeconfig, '--user', 'alice:dev'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not come up: ${out}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('export KUBECONFIG=')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  const text = readFileSync(kubeconfig, 'utf8');
  const url = /server: (\S+)/.exec(text)![1]!;
  const ca = Buffer.from(/certificate-authority-data: (\S+)/.exec(text)![1]!, 'base64').toString();
  const tokens = new Map<string, string>();
  for (const m of text.matchAll(/- name: (\S+)\n {2}user:\n {4}token: (\S+)/g)) tokens.set(m[1]!, m[2]!);
  return { child, url, ca, tokens };
}

function stop(s: Serve): Promise<void> {
  if (s.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    s.child.once('exit', () => resolve());
    s.child.kill('SIGTERM');
  });
}

function get(s: Serve, path: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.url}${path}`, { ca: s.ca, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('kubesim serve: credentials', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-serve-'));
  const serves: Serve[] = [];
  after(async () => {
    for (const s of serves) await stop(s);
    rmSync(dir, { recursive: true, force: true });
  });

  it('two serves with the same seed issue different 256-bit tokens; the first one is refused by the second', async () => {
    const first = await startServe(dir, 'first', 'same');
    serves.push(first);
    const firstUid = JSON.parse((await get(first, '/api/v1/namespaces/default', first.tokens.get('kubesim-admin')!)).body).metadata.uid as string;
    await stop(first);
    const second = await startServe(dir, 'second', 'same');
    serves.push(second);

    for (const user of ['kubesim-admin', 'alice']) {
      const a = first.tokens.get(user)!;
      const b = second.tokens.get(user)!;
      assert.match(a, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
      assert.match(b, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual(a, b, `${user}: the same seed, a different token`);
    }
    assert.notEqual(second.tokens.get('kubesim-admin'), second.tokens.get('alice'));

    const refused = await get(second, '/api/v1/namespaces/default', first.tokens.get('kubesim-admin')!);
    assert.equal(refused.status, 401);
    assert.equal(refused.body, '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n');
    const ok = await get(second, '/api/v1/namespaces/default', second.tokens.get('kubesim-admin')!);
    assert.equal(ok.status, 200, ok.body);
    assert.equal(JSON.parse(ok.body).metadata.uid, firstUid, 'the seed still decides uids: tokens draw nothing from it');
  });
});
