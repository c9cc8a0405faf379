/**
 * Running the built CLI (dist/cli.js, as users run it) from the real-etcd suites, and etcdctl.
 * The bundle is built once if it is missing; `npm test` builds it before these suites run in CI.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export function ensureBuilt(): void {
  if (existsSync(CLI)) return;
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function kubesim(args: readonly string[], options?: { timeoutMs?: number }): Promise<RunResult> {
  return run(process.execPath, [CLI, ...args], options);
}

const ETCDCTL = process.env.ETCDCTL_BINARY ?? 'etcdctl';

/** Why etcdctl cannot be used here, or undefined if it can. */
export function etcdctlMissingReason(): string | undefined {
  const probe = spawnSync(ETCDCTL, ['version'], { encoding: 'utf8', env: { ...process.env, ETCDCTL_API: '3' } });
  if (probe.error) return `the etcdctl binary "${ETCDCTL}" was not found (apt-get install -y etcd-client)`;
  return /etcdctl version: 3\./.test(probe.stdout) ? undefined : `"${ETCDCTL} version" did not report etcdctl 3: ${probe.stdout.trim()}`;
}

export function etcdctl(args: readonly string[], options: { timeoutMs?: number } = {}): Promise<RunResult> {
  return run(ETCDCTL, args, { env: { ...process.env, ETCDCTL_API: '3' }, timeoutMs: options.timeoutMs ?? 30_000 });
}
