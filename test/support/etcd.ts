/**
 * Throwaway etcd 3.4 clusters for tests and benchmarks: one or several members on free ports of
 * 127.0.0.1, each with a temporary data directory, health-checked before use, stopped and
 * removed afterwards. Members are named etcd-0, etcd-1, ... as the simulated ones are, and can
 * be killed, stopped and started again from their data directory (for failover tests).
 *
 * Without the etcd binary (apt-get install -y etcd-server etcd-client), `etcdMissingReason()`
 * says why; suites skip visibly, except in CI (CI=true) where a missing etcd is a failure.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A single-member etcd (startEtcd). */
export interface EtcdMember {
  /** The client URL, e.g. http://127.0.0.1:41234. */
  readonly endpoint: string;
  readonly dataDir: string;
  /** Stops the member and removes its data. */
  stop(): Promise<void>;
}

/** One member process of a cluster (startEtcdCluster). */
export interface EtcdProcess {
  /** etcd-0, etcd-1, ... */
  readonly name: string;
  /** The client URL, e.g. http://127.0.0.1:41234. */
  readonly endpoint: string;
  readonly peerUrl: string;
  readonly dataDir: string;
  running(): boolean;
  /** SIGKILL: the process dies at once, as in a crash. */
  kill(): Promise<void>;
  /** SIGTERM: etcd shuts down cleanly (a leader hands over leadership first). */
  stop(): Promise<void>;
  /** Starts the member again from its data directory; resolves once its client port answers. */
  start(): Promise<void>;
  /** The last lines etcd wrote to stderr (for failure messages). */
  log(): string;
}

export interface EtcdCluster {
  readonly members: readonly EtcdProcess[];
  /** Every member's client URL. */
  readonly endpoints: readonly string[];
  /** Stops every member and removes the data directories. */
  stop(): Promise<void>;
}

export interface EtcdOptions {
  /** Where the data directories go. Tests use tmpfs (/dev/shm) when present: fsync is free there. */
  dataRoot?: string;
  /** etcd's --experimental-watch-progress-notify-interval (default 10m). */
  progressNotifyInterval?: string;
  /** etcd's --quota-backend-bytes (default 2 GiB). */
  quotaBackendBytes?: number;
  /** Further flags for every member. */
  extraArgs?: readonly string[];
}

export interface EtcdClusterOptions extends EtcdOptions {
  /** Members (default 3). */
  members?: number;
}

const BINARY = process.env.ETCD_BINARY ?? 'etcd';
const START_TIMEOUT_MS = 30_000;

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

/** One member on its own: the cluster of one that most store tests use. */
export async function startEtcd(options: EtcdOptions = {}): Promise<EtcdMember> {
  const cluster = await startEtcdCluster({ ...options, members: 1 });
  const member = cluster.members[0]!;
  return { endpoint: member.endpoint, dataDir: member.dataDir, stop: () => cluster.stop() };
}

/** A new cluster of `members` members on loopback; resolves once every member is healthy. */
export async function startEtcdCluster(options: EtcdClusterOptions = {}): Promise<EtcdCluster> {
  const reason = etcdMissingReason();
  if (reason) throw new Error(reason);
  const n = options.members ?? 3;
  const ports = await freePorts(2 * n);
  const token = `kubesim-${randomBytes(6).toString('hex')}`;
  const specs = Array.from({ length: n }, (_, i) => ({
    name: `etcd-${i}`,
    endpoint: `http://127.0.0.1:${ports[2 * i]!}`,
    peerUrl: `http://127.0.0.1:${ports[2 * i + 1]!}`,
    dataDir: mkdtempSync(join(options.dataRoot ?? defaultDataRoot(), 'kubesim-etcd-')),
  }));
  const initialCluster = specs.map((s) => `${s.name}=${s.peerUrl}`).join(',');
  const members = specs.map((s) => new Member(s.name, s.endpoint, s.peerUrl, s.dataDir, memberArgs(s, initialCluster, token, options)));
  const stop = async (): Promise<void> => {
    await Promise.all(members.map((m) => m.kill()));
    for (const m of members) rmSync(m.dataDir, { recursive: true, force: true });
  };
  try {
    // The members of a new cluster wait for each other: they start together.
    await Promise.all(members.map((m) => m.start()));
  } catch (err) {
    await stop();
    throw err;
  }
  return { members, endpoints: members.map((m) => m.endpoint), stop };
}

function memberArgs(
  s: { name: string; endpoint: string; peerUrl: string; dataDir: string },
  initialCluster: string,
  token: string,
  options: EtcdOptions,
): string[] {
  const args = [
    '--name', s.name,
    '--data-dir', s.dataDir,
    '--listen-client-urls', s.endpoint,
    '--advertise-client-urls', s.endpoint,
    '--listen-peer-urls', s.peerUrl,
    '--initial-advertise-peer-urls', s.peerUrl,
    '--initial-cluster', initialCluster,
    '--initial-cluster-token', token,
    '--initial-cluster-state', 'new',
    '--logger', 'zap',
    '--log-level', 'error',
  ];
  if (options.progressNotifyInterval) args.push('--experimental-watch-progress-notify-interval', options.progressNotifyInterval);
  if (options.quotaBackendBytes !== undefined) args.push('--quota-backend-bytes', String(options.quotaBackendBytes));
  if (options.extraArgs) args.push(...options.extraArgs);
  return args;
}

class Member implements EtcdProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stderr = '';

  constructor(
    readonly name: string,
    readonly endpoint: string,
    readonly peerUrl: string,
    readonly dataDir: string,
    private readonly args: readonly string[],
  ) {}

  running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  log(): string {
    return this.stderr;
  }

  async start(): Promise<void> {
    if (this.running()) return;
    const child = spawn(BINARY, this.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitListening(this.endpoint, child, () => this.stderr);
    } catch (err) {
      await this.kill();
      throw err;
    }
  }

  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  stop(): Promise<void> {
    return this.signal('SIGTERM');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.running()) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

/**
 * Waits until the member answers on its client URL: its Maintenance.Status (through etcd's
 * gRPC gateway) names a leader once the cluster has one; a restarted member of a cluster without
 * quorum answers without a leader, and that counts as started too (its process is up and
 * serving). Status is served from the member's own state: unlike etcd 3.4's /health, whose
 * QGET goes through Raft, it adds no entry to the log, so the differential suite sees the raft
 * index a fresh cluster has.
 */
async function waitListening(endpoint: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let answered = 0;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`etcd exited with ${child.exitCode ?? child.signalCode}: ${log()}`);
    const health = await probe(endpoint);
    if (health === true) return;
    // Up but without a leader for a few seconds: a member whose peers are down.
    if (health === false && ++answered >= 40) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`etcd at ${endpoint} did not become healthy within ${START_TIMEOUT_MS} ms: ${log()}`);
}

/** true: a leader is known; false: answering without a leader; undefined: not answering. */
function probe(endpoint: string): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    const req = request(`${endpoint}/v3/maintenance/status`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(false);
        try {
          const leader = (JSON.parse(body) as { leader?: string }).leader;
          resolve(leader !== undefined && leader !== '0');
        } catch {
          resolve(false);
        }
      });
    });
    req.on('error', () => resolve(undefined));
    req.setTimeout(1000, () => req.destroy());
    req.end('{}');
  });
}

/** `count` distinct free ports on 127.0.0.1 (held open together, so that none repeats). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<import('node:net').Server>((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => {
    const address = s.address();
    return typeof address === 'object' && address ? address.port : 0;
  });
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}
