/**
 * A throwaway etcd 3.4 member for tests and benchmarks: free ports on 127.0.0.1, a temporary
 * data directory, health-checked before use, stopped and removed afterwards.
 *
 * Without the etcd binary (apt-get install -y etcd-server etcd-client), `etcdMissingReason()`
 * says why; suites skip visibly, except in CI (CI=true) where a missing etcd is a failure.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EtcdMember {
  /** The client URL, e.g. http://127.0.0.1:41234. */
  readonly endpoint: string;
  readonly dataDir: string;
  stop(): Promise<void>;
}

export interface EtcdOptions {
  /** Where the data directory goes. Tests use tmpfs (/dev/shm) when present: fsync is free there. */
  dataRoot?: string;
  /** etcd's --experimental-watch-progress-notify-interval (default 10m). */
  progressNotifyInterval?: string;
}

const BINARY = process.env.ETCD_BINARY ?? 'etcd';
const START_TIMEOUT_MS = 20_000;

let versionChecked: string | undefined | null = null;

/** Why etcd cannot be used here, or undefined if it can. */
export function etcdMissingReason(): string | undefined {
  if (versionChecked === null) {
    const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
    versionChecked = probe.status === 0 && /etcd Version: 3\.4\./.test(probe.stdout)
      ? undefined
      : probe.error
        ? `the etcd binary "${BINARY}" was not found (apt-get install -y etcd-server etcd-client)`
        : `"${BINARY} --version" did not report etcd 3.4: ${(probe.stdout + probe.stderr).trim().split('\n')[0] ?? ''}`;
  }
  return versionChecked;
}

/**
 * For mocha suites: skips `ctx` with a visible message when etcd is missing, but throws in CI so
 * that a misconfigured CI machine cannot pass by skipping.
 */
export function requireEtcd(ctx: Mocha.Context): void {
  const reason = etcdMissingReason();
  if (!reason) return;
  if (process.env.CI === 'true') throw new Error(`etcd tests cannot run in CI: ${reason}`);
  console.warn(`    (skipping etcd-backed tests: ${reason})`);
  ctx.skip();
}

export function defaultDataRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

export async function startEtcd(options: EtcdOptions = {}): Promise<EtcdMember> {
  const reason = etcdMissingReason();
  if (reason) throw new Error(reason);
  const dataDir = mkdtempSync(join(options.dataRoot ?? defaultDataRoot(), 'kubesim-etcd-'));
  const clientPort = await freePort();
  let peerPort = await freePort();
  while (peerPort === clientPort) peerPort = await freePort();
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = [
    '--name', 'kubesim-test',
    '--data-dir', dataDir,
    '--listen-client-urls', endpoint,
    '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peer,
    '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `kubesim-test=${peer}`,
    '--logger', 'zap',
    '--log-level', 'error',
  ];
  if (options.progressNotifyInterval) args.push('--experimental-watch-progress-notify-interval', options.progressNotifyInterval);
  const child = spawn(BINARY, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanup = (): void => rmSync(dataDir, { recursive: true, force: true });
  try {
    await waitHealthy(endpoint, child, () => stderr);
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    cleanup();
    throw err;
  }
  return {
    endpoint,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      cleanup();
    },
  };
}

async function waitHealthy(endpoint: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`etcd exited with code ${child.exitCode}: ${log()}`);
    if (await healthy(endpoint)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`etcd at ${endpoint} did not become healthy within ${START_TIMEOUT_MS} ms: ${log()}`);
}

function healthy(endpoint: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get(`${endpoint}/health`, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(res.statusCode === 200 && body.includes('"health":"true"')));
    });
    req.on('error', () => resolve(false));
    req.setTimeout(1000, () => req.destroy());
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
