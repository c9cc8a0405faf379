/**
 * `kubesim serve [--port P] [--nodes N] [--seed S] [--kubeconfig PATH] [--user NAME[:GROUP,...]]
 *  [-f manifests...]`: runs a simulated cluster in real time (virtual time follows the wall clock
 * at x1) and serves its Kubernetes API on 127.0.0.1 for kubectl. Writes a kubeconfig whose
 * current context is the cluster admin (and one context per --user), prints how to use it, and
 * serves until interrupted.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCluster, type Cluster } from '../engine/cluster';
import { ADMIN_USER, ALL_AUTHENTICATED, type UserInfo } from '../engine/apiserver/authn/user';
import { Pacer } from '../engine/pacer';
import { realWallClock } from '../host/wall-clock';
import { kubeconfigText, startApiEndpoint, KUBERNETES_VERSION, type ApiEndpoint } from '../http';
import { applyManifestText } from '../engine/manifests/apply';
import { manifestFiles } from './files';

const USAGE = `Serve a simulated Kubernetes 1.35 cluster's API on 127.0.0.1 for kubectl.

Usage:
  kubesim serve [options]

Options:
      --port <p>          Port to listen on (default 6443; 0 picks a free one).
      --nodes <n>         Worker nodes besides the control-plane node (default 3).
      --seed <s>          Seed for names, IPs, tokens and scheduling ties (default "kubesim").
      --kubeconfig <path> Where to write the kubeconfig (default ./kubesim.kubeconfig).
      --user <name>[:<group>,...]
                          Also issue a token for this user (repeatable); its context is kubesim-<name>.
  -f, --filename <path>   Manifests to apply before serving (repeatable); if any is refused,
                          the errors are printed and kubesim exits 1 without serving.
`;

interface ServeArgs {
  port: number;
  nodes: number;
  seed: string;
  kubeconfig: string;
  users: UserInfo[];
  files: string[];
}

function parseUser(spec: string): UserInfo | string {
  const [name, groups] = spec.split(':', 2) as [string, string | undefined];
  if (!name) return `error: invalid --user ${JSON.stringify(spec)}: a user name is required`;
  const list = groups ? groups.split(',').filter(Boolean) : [];
  return { username: name, uid: '', groups: [...list, ALL_AUTHENTICATED], extra: {} };
}

function parseArgs(argv: string[]): ServeArgs | string {
  const args: ServeArgs = { port: 6443, nodes: 3, seed: 'kubesim', kubeconfig: 'kubesim.kubeconfig', users: [], files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : undefined;
    const value = (): string | undefined => inline ?? argv[++i];
    const v = flag === '--help' ? '' : value();
    if (v === undefined) return `error: flag needs an argument: ${flag}`;
    switch (flag) {
      case '--port': {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0 || n > 65535) return `error: invalid --port ${JSON.stringify(v)}: must be an integer from 0 to 65535`;
        args.port = n;
        break;
      }
      case '--nodes': {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0 || n > 5000) return 'error: --nodes must be an integer from 0 to 5000';
        args.nodes = n;
        break;
      }
      case '--seed':
        args.seed = v;
        break;
      case '--kubeconfig':
        args.kubeconfig = v;
        break;
      case '--user': {
        const u = parseUser(v);
        if (typeof u === 'string') return u;
        args.users.push(u);
        break;
      }
      case '-f':
      case '--filename':
        args.files.push(v);
        break;
      default:
        return `error: unknown flag: ${a}`;
    }
  }
  return args;
}

/** Resolves on the first SIGINT or SIGTERM. */
function interrupted(): Promise<string> {
  return new Promise((resolveSignal) => {
    const on = (signal: string) => () => resolveSignal(signal);
    process.once('SIGINT', on('SIGINT'));
    process.once('SIGTERM', on('SIGTERM'));
  });
}

/** Applies the manifests as the admin, printing kubectl's result lines; false if any failed. */
async function applyManifests(cluster: Cluster, paths: string[]): Promise<boolean> {
  const files = manifestFiles(paths);
  if (typeof files === 'string') {
    process.stderr.write(`${files}\n`);
    return false;
  }
  const client = cluster.client();
  let ok = true;
  let objects = 0;
  for (const file of files) {
    for (const r of await applyManifestText(client, file, readFileSync(file, 'utf8'))) {
      (r.action === 'failed' ? process.stderr : process.stdout).write(`${r.message}\n`);
      if (r.action === 'failed') ok = false;
      objects++;
    }
  }
  if (paths.length > 0 && objects === 0) {
    process.stderr.write('error: no objects passed to apply\n');
    return false;
  }
  return ok;
}

export async function runServe(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n\n${USAGE}`);
    return 2;
  }
  // Virtual time starts at the wall clock so the ages kubectl computes itself (describe, logs
  // --timestamps) agree with the ones the server prints.
  const cluster = await createCluster({ seed: args.seed, startTime: Math.floor(Date.now() / 1000) * 1000, nodes: { count: args.nodes } });
  if (!(await applyManifests(cluster, args.files))) {
    await cluster.close();
    return 1;
  }
  let endpoint: ApiEndpoint;
  try {
    endpoint = await startApiEndpoint({ api: cluster.server, clock: cluster.clock, port: args.port, logs: cluster.logs });
  } catch (err) {
    process.stderr.write(`error: cannot listen on 127.0.0.1:${args.port}: ${err instanceof Error ? err.message : String(err)}\n`);
    await cluster.close();
    return 1;
  }
  const tokens = [
    { context: 'kubesim', user: 'kubesim-admin', token: cluster.server.tokens.issue(ADMIN_USER) },
    ...args.users.map((u) => ({ context: `kubesim-${u.username}`, user: u.username, token: cluster.server.tokens.issue(u) })),
  ];
  const path = resolve(args.kubeconfig);
  writeFileSync(path, kubeconfigText(endpoint.url, endpoint.ca, tokens), { mode: 0o600 });
  chmodSync(path, 0o600);

  // Catch up with the wall clock for the time the start-up took, then follow it.
  await cluster.advance(Math.max(0, Date.now() - cluster.clock.now()));
  const pacer = new Pacer(cluster.clock, realWallClock, (err) => process.stderr.write(`kubesim: the simulation stopped: ${err instanceof Error ? err.message : String(err)}\n`));
  pacer.setSpeed(1);
  pacer.resume();
  process.stdout.write(`kubesim: serving the Kubernetes ${KUBERNETES_VERSION} API at ${endpoint.url} (port ${endpoint.port}, ${cluster.nodes().length} nodes, seed ${JSON.stringify(args.seed)})\n`);
  process.stdout.write(`export KUBECONFIG=${path}\n`);

  const signal = await interrupted();
  process.stdout.write(`kubesim: ${signal}, shutting down\n`);
  pacer.dispose();
  await pacer.idle();
  await endpoint.close();
  await cluster.close();
  return 0;
}
