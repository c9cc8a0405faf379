/**
 * Real etcdctl 3.4 against `kubesim serve --etcd-listen`, side by side with a real 3-member etcd
 * 3.4 on loopback with auth enabled the same way (user root): the same commands, the same table
 * headers and field formats, the same error texts. IDs, URLs, sizes and indexes differ by nature
 * and are compared by shape.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireEtcd, startEtcdCluster, type EtcdCluster } from '../support/etcd';
import { CLI, ensureBuilt, etcdctlMissingReason, run, type RunResult } from './cli';

const ETCDCTL = process.env.ETCDCTL_BINARY ?? 'etcdctl';

interface Target {
  endpoints: string;
  user: string;
}

function ctl(t: Target, args: readonly string[], options: { user?: string | null; stdin?: string; timeoutMs?: number } = {}): Promise<RunResult> {
  const user = options.user === null ? [] : ['--user', options.user ?? t.user];
  const env: NodeJS.ProcessEnv = { ...process.env, ETCDCTL_API: '3' };
  delete env.ETCDCTL_USER;
  delete env.ETCDCTL_ENDPOINTS;
  const argv = ['--endpoints', t.endpoints, ...user, ...args];
  if (options.stdin === undefined) return run(ETCDCTL, argv, { env, timeoutMs: options.timeoutMs ?? 30_000 });
  return new Promise((resolve, reject) => {
    const child = spawn(ETCDCTL, argv, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin);
  });
}

/** The store's revision now. */
async function revision(t: Target): Promise<number> {
  const r = await ctl(t, ['get', '/', '-w', 'json']);
  return (JSON.parse(r.stdout) as { header: { revision: number } }).header.revision;
}

/** etcdctl's last stderr line (the clientv3 retry warnings before it are JSON logs). */
function lastError(r: RunResult): string {
  return r.stderr.trim().split('\n').filter((l) => !l.startsWith('{')).pop() ?? '';
}

/** A table's shape: border and header lines kept, each row's cells reduced to their kind. */
function tableShape(out: string): string[] {
  return out
    .trim()
    .split('\n')
    .map((line) => {
      if (line.startsWith('+')) return 'border';
      return line
        .split('|')
        .slice(1, -1)
        .map((c) => cellKind(c.trim()))
        .join('|');
    });
}

function cellKind(c: string): string {
  if (/^[0-9a-f]{1,16}$/.test(c) && /[a-f]/.test(c)) return 'hexid';
  if (/^http:\/\/\S+:\d+$/.test(c)) return 'url';
  if (/^etcd-\d$/.test(c)) return 'name';
  if (/^\d+(\.\d+)? [kMG]?B$/.test(c)) return 'size';
  if (/^\d+$/.test(c)) return 'int';
  if (c === 'true' || c === 'false') return 'bool';
  return c;
}

function startServe(dir: string, extra: readonly string[] = []): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig'), '--no-metrics-server', '--etcd-listen', '127.0.0.1:0', '--etcdctl-env', join(dir, 'etcdctl.env'), '-f', 'examples/web.yaml', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kubesim serve did not start:\n${out}`)), 90_000);
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (/^\. .*etcdctl\.env$/m.test(out)) {
        clearTimeout(timer);
        resolve({ child, out: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`kubesim serve exited (${String(code)}):\n${out}`)));
  });
}

describe('real etcdctl against kubesim serve --etcd-listen, beside a real etcd 3.4', function () {
  this.timeout(240_000);
  let etcd: EtcdCluster;
  let dir: string;
  let serve: ChildProcess | undefined;
  let serveOut: () => string = () => '';
  let sim: Target;
  let real: Target;
  let members: number;

  before(async function () {
    requireEtcd(this);
    const reason = etcdctlMissingReason();
    if (reason) {
      if (process.env.CI === 'true') throw new Error(`etcdctl tests cannot run in CI: ${reason}`);
      console.log(`    skipped: ${reason}`);
      this.skip();
    }
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'kubesim-etcdctl-'));
    etcd = await startEtcdCluster({ members: 3 });
    real = { endpoints: etcd.endpoints.join(','), user: 'root:real-etcd-password' };
    for (const args of [['user', 'add', 'root:real-etcd-password'], ['user', 'grant-role', 'root', 'root'], ['auth', 'enable']]) {
      const r = await ctl(real, args, { user: null });
      assert.equal(r.code, 0, r.stderr);
    }
    const started = await startServe(dir);
    serve = started.child;
    serveOut = started.out;
    const env = readFileSync(join(dir, 'etcdctl.env'), 'utf8');
    const endpoints = /^export ETCDCTL_ENDPOINTS=(\S+)$/m.exec(env)![1]!;
    const user = /^export ETCDCTL_USER=(\S+)$/m.exec(env)![1]!;
    assert.match(user, /^root:[A-Za-z0-9_-]{32}$/);
    assert.match(env, /^export ETCDCTL_API=3$/m);
    sim = { endpoints, user };
    members = endpoints.split(',').length;
    assert.match(started.out(), new RegExp(`serving etcd's v3 API: etcd-0 at http:\/\/127\\.0\\.0\\.1:\\d+`));
  });

  // A serve that died mid-suite fails the test it died in with what it printed, not the
  // tests after it with etcdctl's `context deadline exceeded`.
  afterEach(() => {
    if (serve && (serve.exitCode !== null || serve.signalCode !== null)) {
      const how = serve.signalCode ?? String(serve.exitCode);
      serve = undefined;
      throw new Error(`kubesim serve exited (${how}):\n${serveOut().slice(-4000)}`);
    }
  });

  after(async () => {
    const child = serve;
    if (child && child.exitCode === null && child.signalCode === null) {
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await closed;
      clearTimeout(timer);
    }
    await etcd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('member list, plain and as a table', async () => {
    const [s, r] = await Promise.all([ctl(sim, ['member', 'list']), ctl(real, ['member', 'list'])]);
    assert.equal(s.code, 0, s.stderr);
    const row = /^[0-9a-f]{1,16}, started, etcd-\d, http:\/\/\S+:\d+, http:\/\/127\.0\.0\.1:\d+, false$/;
    for (const line of r.stdout.trim().split('\n')) assert.match(line, row);
    const lines = s.stdout.trim().split('\n');
    assert.equal(lines.length, members);
    for (const line of lines) assert.match(line, row);
    const [st, rt] = await Promise.all([ctl(sim, ['member', 'list', '-w', 'table']), ctl(real, ['member', 'list', '-w', 'table'])]);
    const simShape = tableShape(st.stdout);
    const realShape = tableShape(rt.stdout);
    assert.equal(st.stdout.split('\n')[1]!.replace(/ +/g, ' '), rt.stdout.split('\n')[1]!.replace(/ +/g, ' '));
    const rowShape = (l: string): string => l.replace(/^(hexid|int)\|/, 'id|');
    assert.deepEqual(simShape.slice(3, -1).map(rowShape), Array(members).fill('id|started|name|url|url|bool'));
    assert.deepEqual(realShape.slice(3, -1).map(rowShape), Array(3).fill('id|started|name|url|url|bool'));
    assert.deepEqual(simShape.slice(0, 3), realShape.slice(0, 3));
  });

  it('endpoint status --cluster -w table: one row per member, answered by that member', async () => {
    const [s, r] = await Promise.all([ctl(sim, ['endpoint', 'status', '--cluster', '-w', 'table']), ctl(real, ['endpoint', 'status', '--cluster', '-w', 'table'])]);
    assert.equal(s.code, 0, s.stderr);
    const header = (t: string): string => t.split('\n')[1]!.replace(/ +/g, ' ');
    assert.equal(header(s.stdout), header(r.stdout));
    const rows = tableShape(s.stdout).slice(3, -1);
    assert.equal(rows.length, members);
    const shape = (l: string): string => l.replace(/^url\|(hexid|int)\|/, 'url|id|');
    assert.deepEqual(new Set(rows.map(shape)), new Set(['url|id|3.4.23|size|bool|bool|int|int|int|']));
    assert.deepEqual(new Set(tableShape(r.stdout).slice(3, -1).map(shape)), new Set(['url|id|3.4.23|size|bool|bool|int|int|int|']));
    // Exactly one leader, and every member's own ID.
    const cells = s.stdout.trim().split('\n').slice(3, -1).map((l) => l.split('|').map((c) => c.trim()));
    assert.equal(cells.filter((c) => c[5] === 'true').length, 1);
    assert.equal(new Set(cells.map((c) => c[2])).size, members);
  });

  it('endpoint health', async () => {
    const s = await ctl(sim, ['endpoint', 'health']);
    assert.equal(s.code, 0, s.stderr);
    const lines = (s.stdout + s.stderr).trim().split('\n').filter((l) => !l.startsWith('{'));
    assert.equal(lines.length, members);
    for (const line of lines) assert.match(line, /^http:\/\/127\.0\.0\.1:\d+ is healthy: successfully committed proposal: took = [\d.]+(µs|ms|s)$/);
  });

  it('endpoint hashkv --cluster: every member hashes the same key bucket, printed as etcdctl prints it', async () => {
    for (const t of [sim, real]) {
      // The cluster keeps writing (leases, status): hash every member at a revision all have applied.
      const rev = (await revision(t)) - 2;
      const text = await ctl(t, ['endpoint', 'hashkv', '--cluster', '--rev', String(rev)]);
      assert.equal(text.code, 0, text.stderr);
      const lines = text.stdout.trim().split('\n');
      assert.equal(lines.length, t === sim ? members : 3);
      for (const line of lines) assert.match(line, /^http:\/\/127\.0\.0\.1:\d+, \d+$/);
      assert.equal(new Set(lines.map((l) => l.split(', ')[1])).size, 1, `one hash on every member: ${text.stdout}`);
      const json = await ctl(t, ['endpoint', 'hashkv', '--cluster', '--rev', String(rev), '-w', 'json']);
      const entries = JSON.parse(json.stdout) as { Endpoint: string; HashKV: { header: { member_id: number; revision: number }; hash: number; compact_revision: number } }[];
      assert.equal(new Set(entries.map((e) => e.HashKV.header.member_id)).size, entries.length, 'each answered by its own member');
      for (const e of entries) assert.equal(String(e.HashKV.hash), lines[0]!.split(', ')[1]);
    }
    const future = await ctl(sim, ['endpoint', 'hashkv', '--rev', String((await revision(sim)) + 1000)]);
    assert.equal(lastError(future), 'Error: etcdserver: mvcc: required revision is a future revision');
  });

  it("get: the Deployment kube-apiserver stored, and the pods' keys", async () => {
    const web = await ctl(sim, ['get', '/registry/deployments/default/web']);
    assert.equal(web.code, 0, web.stderr);
    const [key, value] = web.stdout.trim().split('\n');
    assert.equal(key, '/registry/deployments/default/web');
    assert.equal((JSON.parse(value!) as { kind: string }).kind, 'Deployment');
    const pods = await ctl(sim, ['get', '--prefix', '--keys-only', '/registry/pods']);
    const keys = pods.stdout.split('\n').filter(Boolean);
    assert.equal(keys.length, 3);
    for (const k of keys) assert.match(k, /^\/registry\/pods\/default\/web-[a-z0-9]+-[a-z0-9]{5}$/);
    // keys-only output has a blank line after each key, as real etcdctl prints it.
    await ctl(real, ['put', '/registry/pods/default/x', '{}']);
    const realKeys = await ctl(real, ['get', '--prefix', '--keys-only', '/registry/pods']);
    assert.equal(realKeys.stdout, '/registry/pods/default/x\n\n');
    assert.equal(pods.stdout, keys.map((k) => `${k}\n\n`).join(''));
  });

  it('watch --rev replays history: the pods kube-apiserver created', async () => {
    const r = await ctl(sim, ['get', '/registry/deployments/default/web', '-w', 'json']);
    const kv = (JSON.parse(r.stdout) as { kvs: { create_revision: number }[] }).kvs[0]!;
    const w = await ctl(sim, ['watch', '--prefix', '/registry/pods/', '--rev', String(kv.create_revision)], { timeoutMs: 8000 });
    const puts = w.stdout.split('\n').filter((l) => l === 'PUT').length;
    assert.ok(puts >= 3, w.stdout.slice(0, 500));
  });

  it('watch --prefix /registry/pods streams the writes the cluster makes: a Deployment scaled through the Kubernetes API', async () => {
    const kubeconfig = readFileSync(join(dir, 'kubeconfig'), 'utf8');
    const server = /server: (\S+)/.exec(kubeconfig)![1]!;
    const ca = Buffer.from(/certificate-authority-data: (\S+)/.exec(kubeconfig)![1]!, 'base64').toString();
    const token = /token: (\S+)/.exec(kubeconfig)![1]!;
    // From the next revision on, so that nothing is missed however late the watch registers.
    const from = String((await revision(sim)) + 1);
    const watch = spawn(ETCDCTL, ['--endpoints', sim.endpoints, '--user', sim.user, 'watch', '--prefix', '/registry/pods', '--rev', from], { env: { ...process.env, ETCDCTL_API: '3' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let watched = '';
    watch.stdout.on('data', (d: Buffer) => (watched += d.toString()));
    try {
      await new Promise((r) => setTimeout(r, 1000));
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpsRequest(
          `${server}/apis/apps/v1/namespaces/default/deployments/web`,
          { method: 'PATCH', ca, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/merge-patch+json' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ spec: { replicas: 4 } }));
      });
      assert.equal(status, 200);
      // The ReplicaSet controller creates a pod, the scheduler binds it, the kubelet runs it.
      for (let i = 0; i < 100 && !/"phase":"Running"/.test(watched); i++) await new Promise((r) => setTimeout(r, 100));
      const keys = watched.split('\n').filter((l) => l.startsWith('/registry/pods/'));
      assert.ok(keys.length >= 2, watched.slice(0, 300));
      assert.match(watched, /^PUT\n\/registry\/pods\/default\/web-/);
      assert.match(watched, /"phase":"Running"/);
    } finally {
      watch.kill('SIGINT');
    }
  });

  it('put, del, txn, watch, compaction and their texts, the same on both', async () => {
    for (const t of [sim, real]) {
      const from = String((await revision(t)) + 1);
      const watch = spawn(ETCDCTL, ['--endpoints', t.endpoints, '--user', t.user, 'watch', '--prefix', '/kubesim-test/', '--rev', from], { env: { ...process.env, ETCDCTL_API: '3' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let watched = '';
      watch.stdout.on('data', (d: Buffer) => (watched += d.toString()));
      await new Promise((r) => setTimeout(r, 1000));
      assert.deepEqual(await ctl(t, ['put', '/kubesim-test/a', 'one']).then((r) => r.stdout), 'OK\n');
      assert.deepEqual(await ctl(t, ['del', '/kubesim-test/a']).then((r) => r.stdout), '1\n');
      assert.deepEqual(await ctl(t, ['del', '/kubesim-test/none']).then((r) => r.stdout), '0\n');
      const txn = await ctl(t, ['txn'], { stdin: 'value("/kubesim-test/t") = "v"\n\nput /kubesim-test/t "w"\n\nput /kubesim-test/t "z"\n\n' });
      assert.equal(txn.stdout, 'FAILURE\n\nOK\n');
      for (let i = 0; i < 50 && !watched.includes('/kubesim-test/t\nz'); i++) await new Promise((r) => setTimeout(r, 100));
      watch.kill('SIGINT');
      assert.equal(watched, 'PUT\n/kubesim-test/a\none\nDELETE\n/kubesim-test/a\n\nPUT\n/kubesim-test/t\nz\n');
      const got = await ctl(t, ['get', '/kubesim-test/t', '-w', 'json']);
      const rev = (JSON.parse(got.stdout) as { header: { revision: number } }).header.revision;
      assert.equal((await ctl(t, ['compaction', String(rev)])).stdout, `compacted revision ${rev}\n`);
      const old = await ctl(t, ['get', '/kubesim-test/t', '--rev', String(rev - 1)]);
      assert.equal(old.code, 1);
      assert.equal(lastError(old), 'Error: etcdserver: mvcc: required revision has been compacted');
      const future = await ctl(t, ['get', '/kubesim-test/t', '--rev', String(rev + 1000)]);
      assert.equal(lastError(future), 'Error: etcdserver: mvcc: required revision is a future revision');
      const w = await ctl(t, ['watch', '--rev', String(rev - 1), '/kubesim-test/t'], { timeoutMs: 10_000 });
      assert.equal(w.stdout + w.stderr.split('\n').filter((l) => !l.startsWith('{')).join('\n'), 'watch was canceled (etcdserver: mvcc: required revision has been compacted)\nError: watch is canceled by the server\n');
    }
  });

  it('alarm list, alarm disarm and defrag', async () => {
    for (const t of [sim, real]) {
      const list = await ctl(t, ['alarm', 'list']);
      assert.equal(list.code, 0, list.stderr);
      assert.equal(list.stdout, '');
      assert.equal((await ctl(t, ['alarm', 'disarm'])).stdout, '');
    }
    const sizes = async (): Promise<{ dbSize: number; dbSizeInUse: number }[]> => {
      const r = await ctl(sim, ['endpoint', 'status', '--cluster', '-w', 'json']);
      return (JSON.parse(r.stdout) as { Status: { dbSize: number; dbSizeInUse: number } }[]).map((e) => e.Status);
    };
    const before = await sizes();
    for (const b of before) assert.ok(b.dbSizeInUse <= b.dbSize, JSON.stringify(before));
    const d = await ctl(sim, ['defrag', '--cluster']);
    assert.equal(d.code, 0, d.stderr);
    // As real defrag does, each member's file shrinks to what it holds.
    const after = await sizes();
    for (const [i, a] of after.entries()) {
      const b = before[i]!;
      // The compaction earlier usually left free pages (whether its commit has freed them yet
      // depends on the 100 ms batch): those leave the file.
      if (b.dbSize - b.dbSizeInUse > 8192) assert.ok(a.dbSize < b.dbSize, `dbSize ${b.dbSize} -> ${a.dbSize}`);
      else assert.ok(a.dbSize <= b.dbSize, `dbSize ${b.dbSize} -> ${a.dbSize}`);
      assert.ok(a.dbSize - a.dbSizeInUse <= 8192, JSON.stringify(a));
    }
    const lines = d.stdout.trim().split('\n');
    assert.equal(lines.length, members);
    for (const line of lines) assert.match(line, /^Finished defragmenting etcd member\[http:\/\/127\.0\.0\.1:\d+\]$/);
  });

  it('lease grant, list, keep-alive', async () => {
    for (const t of [sim, real]) {
      const g = await ctl(t, ['lease', 'grant', '60']);
      const m = /^lease ([0-9a-f]{16}) granted with TTL\(60s\)\n$/.exec(g.stdout);
      assert.ok(m, g.stdout + g.stderr);
      const list = await ctl(t, ['lease', 'list']);
      assert.match(list.stdout, new RegExp(`^found \\d+ leases\\n(.*\\n)*${m[1]}\\n`));
      const ka = await ctl(t, ['lease', 'keep-alive', '--once', m[1]!]);
      assert.equal(ka.stdout, `lease ${m[1]} keepalived with TTL(60)\n`);
    }
  });

  it("refuses requests without credentials or with wrong ones in etcd's words", async () => {
    for (const t of [sim, real]) {
      const none = await ctl(t, ['get', 'a'], { user: null });
      assert.equal(lastError(none), 'Error: etcdserver: user name is empty');
      const wrong = await ctl(t, ['get', 'a'], { user: 'root:wrong' });
      assert.equal(lastError(wrong), 'Error: etcdserver: authentication failed, invalid user ID or password');
      const defrag = await ctl(t, ['defrag'], { user: null });
      assert.match(lastError(defrag), /^Failed to defragment etcd member\[\S+\] \(rpc error: code = Unknown desc = auth: user name is empty\)$/);
      // Reading cluster metadata needs no user, in etcd 3.4 as here.
      assert.equal((await ctl(t, ['member', 'list'], { user: null })).code, 0);
    }
  });

  it('quorum lost (2 of 3 members stopped): what etcdctl prints on the survivor, as real etcd with auth on', async function () {
    this.timeout(300_000);
    // A cluster of its own on each side: the real one loses two processes, the simulated one
    // two members, stopped on its virtual clock a few seconds after serve starts.
    const lostDir = mkdtempSync(join(tmpdir(), 'kubesim-etcdctl-quorum-'));
    const realLost = await startEtcdCluster({ members: 3 });
    let lostServe: ChildProcess | undefined;
    try {
      const realAll: Target = { endpoints: realLost.endpoints.join(','), user: 'root:real-etcd-password' };
      for (const args of [['user', 'add', 'root:real-etcd-password'], ['user', 'grant-role', 'root', 'root'], ['auth', 'enable']]) {
        const r = await ctl(realAll, args, { user: null });
        assert.equal(r.code, 0, r.stderr);
      }
      const started = await startServe(lostDir, ['--etcd-fault', 'stop:etcd-1@10s', '--etcd-fault', 'stop:etcd-2@10s']);
      lostServe = started.child;
      const env = readFileSync(join(lostDir, 'etcdctl.env'), 'utf8');
      const simSurvivor: Target = { endpoints: /^export ETCDCTL_ENDPOINTS=(\S+)$/m.exec(env)![1]!.split(',')[0]!, user: /^export ETCDCTL_USER=(\S+)$/m.exec(env)![1]! };
      const realSurvivor: Target = { endpoints: realLost.members[0]!.endpoint, user: realAll.user };
      await Promise.all(realLost.members.slice(1).map((m) => m.kill()));
      // Until the simulated clock passes 10 s and an election timeout, the survivor still has a leader.
      let put: RunResult | undefined;
      for (let i = 0; i < 60 && put?.code !== 1 && put?.code !== 2; i++) {
        if (put) await new Promise((r) => setTimeout(r, 1000));
        put = await ctl(simSurvivor, ['put', 'k', 'v']);
      }
      // Whether etcdctl's own deadline or the server's (which grpc-go propagates and etcd answers
      // as code Unknown) ends a call first is a race on real etcd: both read as the deadline.
      const text = (t: Target, r: RunResult): string =>
        `exit ${String(r.code)}\n${r.stdout}${r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('{')).join('\n')}`
          .split(t.endpoints)
          .join('<endpoint>')
          .replaceAll('rpc error: code = Unknown desc = context deadline exceeded', 'context deadline exceeded');
      // etcd 3.4's Authenticate is a Raft request too: with auth on, without quorum, every
      // command that logs in fails after etcdctl's 5 s command timeout, as the put does.
      for (const args of [['put', 'k', 'v'], ['endpoint', 'health'], ['endpoint', 'status'], ['get', '--consistency', 's', 'k']]) {
        const [real, sim] = await Promise.all([ctl(realSurvivor, args), ctl(simSurvivor, args)]);
        assert.notEqual(real.code, 0, `real etcdctl ${args.join(' ')}: ${real.stdout}`);
        assert.match(real.stderr + real.stdout, /context deadline exceeded/);
        assert.equal(text(simSurvivor, sim), text(realSurvivor, real), `etcdctl ${args.join(' ')}`);
      }
    } finally {
      if (lostServe && lostServe.exitCode === null) {
        const closed = new Promise((resolve) => lostServe!.once('close', resolve));
        lostServe.kill('SIGKILL');
        await closed;
      }
      await realLost.stop();
      rmSync(lostDir, { recursive: true, force: true });
    }
  });
});
