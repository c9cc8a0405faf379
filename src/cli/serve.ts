/**
 * `kubesim serve [--port P] [--nodes N] [--seed S] [--kubeconfig PATH] [--user NAME[:GROUP,...]]
 *  [-f manifests...] [--no-metrics-server] [--admission-control-config-file PATH] [--etcd-listen 127.0.0.1:PORT]
 *  [--etcd-members N] [--etcd-latency model|instant] [--etcd-fault ACTION:TARGET@TIME ...] [--quota-backend-bytes N]
 *  [--etcd-maintenance STEP@TIME ...]`: runs a simulated cluster in real time (virtual time follows the wall clock
 * at x1) and serves its Kubernetes API on 127.0.0.1 for kubectl. Writes a kubeconfig whose
 * current context is the cluster admin (and one context per --user), prints how to use it, and
 * serves until interrupted.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCluster, type Cluster } from '../engine/cluster';
import { DEFAULT_METRIC_RESOLUTION_MS, METRICS_APISERVICE, METRICS_GROUP, METRICS_VERSION } from '../engine/components/metrics-server';
import { API_SERVICES } from '../engine/apiserver/apiregistration/autoregister';
import { hasTrueCondition, obj } from '../engine/printers/format';
import { ADMIN_USER, ALL_AUTHENTICATED, type UserInfo } from '../engine/apiserver/authn/user';
import { Pacer } from '../engine/pacer';
import { realWallClock } from '../host/wall-clock';
import { kubeconfigText, startApiEndpoint, KUBERNETES_VERSION, type ApiEndpoint } from '../http';
import { applyManifestText } from '../engine/kubectl/apply';
import { parseCommandLine, splitFlag } from './command';
import { connectEtcd, ETCD_FLAGS_USAGE, isEtcdFlag, parseEtcdFlag, type EtcdFlags } from './etcd-flags';
import { manifestFiles } from './files';
import { checkFaultTargets, ETCD_SIM_FLAGS_USAGE, etcdSummary, hasSimOnlyFlags, maintenanceLine, isEtcdSimFlag, parseEtcdSimFlag, scheduleFaults, scheduleMaintenance, SIM_ONLY_FLAGS_ERROR, type EtcdSimFlags } from './etcd-sim-flags';
import { EtcdClient } from '../engine/store/etcdserver';
import { podSecurityFromAdmissionConfig } from './admission-config';
import type { PodSecurityConfiguration } from '../engine/apiserver/admission/podsecurity/config';
import { ROOT_USER, randomPassword, startEtcdEndpoints, type EtcdEndpoints } from '../etcd-grpc/server';

const USAGE = `Serve a simulated Kubernetes 1.35 cluster's API on 127.0.0.1 for kubectl.

Usage:
  kubesim serve [options]

Options:
      --port <p>          Port to listen on (default 6443; 0 picks a free one).
      --nodes <n>         Worker nodes besides the control-plane node (default 3).
      --seed <s>          Seed for names, uids, IPs and scheduling ties (default "kubesim");
                          tokens are random on every run.
      --kubeconfig <path> Where to write the kubeconfig (default ./kubesim.kubeconfig).
      --user <name>[:<group>,...]
                          Also issue a token for this user (repeatable); its context is kubesim-<name>.
      --admission-control-config-file <path>
                          An AdmissionConfiguration: the PodSecurity plugin's defaults and
                          exemptions (default: privileged everywhere, nothing exempt).
  -f, --filename <path>   Manifests to apply before serving (repeatable); if any is refused,
                          the errors are printed and kubesim exits 1 without serving.
      --no-metrics-server Run without metrics-server, as a kind cluster does: no metrics.k8s.io,
                          so kubectl top answers "Metrics API not available". With it (the
                          default) the cluster starts 15 s before it is served, so that
                          metrics-server has metrics by then.
      --etcd-listen 127.0.0.1:<port>
                          Also serve the simulated etcd members over etcd's v3 gRPC API for
                          etcdctl: etcd-0 on <port>, etcd-1 on <port>+1, ... (0 picks free ports).
                          Auth is on: user root, a random password written with the endpoints
                          to the --etcdctl-env file.
      --etcdctl-env <path>
                          Where --etcd-listen writes ETCDCTL_API, ETCDCTL_ENDPOINTS and
                          ETCDCTL_USER for a shell to source (default ./kubesim.etcdctl.env).
` + ETCD_SIM_FLAGS_USAGE.replace('time from the start of the run', 'time from when serving starts') + ETCD_FLAGS_USAGE;

interface ServeArgs {
  port: number;
  nodes: number;
  seed: string;
  kubeconfig: string;
  users: UserInfo[];
  files: string[];
  metricsServer: boolean;
  etcd: EtcdFlags;
  sim: EtcdSimFlags;
  podSecurity?: PodSecurityConfiguration;
  /** --etcd-listen's port (the first member's). */
  etcdListen?: number;
  etcdctlEnv: string;
}

function parseUser(spec: string): UserInfo | string {
  const [name, groups] = spec.split(':', 2) as [string, string | undefined];
  if (!name) return `error: invalid --user ${JSON.stringify(spec)}: a user name is required`;
  const list = groups ? groups.split(',').filter(Boolean) : [];
  return { username: name, uid: '', groups: [...list, ALL_AUTHENTICATED], extra: {} };
}

function parseArgs(argv: string[]): ServeArgs | string {
  const args: ServeArgs = { port: 6443, nodes: 3, seed: 'kubesim', kubeconfig: 'kubesim.kubeconfig', users: [], files: [], metricsServer: true, etcd: {}, sim: { faults: [] }, etcdctlEnv: 'kubesim.etcdctl.env' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const { flag, inline } = splitFlag(a);
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--no-metrics-server') {
      if (inline !== undefined) return `error: flag ${flag} takes no value`;
      args.metricsServer = false;
      continue;
    }
    const v = flag === '--help' ? '' : value();
    if (v === undefined) return `error: flag needs an argument: ${flag}`;
    if (isEtcdSimFlag(flag)) {
      const problem = parseEtcdSimFlag(flag, v, args.sim);
      if (problem) return problem;
      continue;
    }
    if (isEtcdFlag(flag)) {
      const problem = parseEtcdFlag(flag, v, args.etcd);
      if (problem) return problem;
      continue;
    }
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
      case '--etcd-listen': {
        const m = /^(.*):([0-9]{1,5})$/.exec(v);
        if (!m || m[1] !== '127.0.0.1' || Number(m[2]) > 65535) return `error: invalid --etcd-listen ${JSON.stringify(v)}: must be 127.0.0.1:<port> (etcd is served on loopback only)`;
        args.etcdListen = Number(m[2]);
        break;
      }
      case '--etcdctl-env':
        args.etcdctlEnv = v;
        break;
      case '--admission-control-config-file': {
        const config = podSecurityFromAdmissionConfig(v);
        if (typeof config === 'string') return config;
        args.podSecurity = config;
        break;
      }
      default:
        return `error: unknown flag: ${a}`;
    }
  }
  if (args.etcd.endpoints && hasSimOnlyFlags(args.sim)) return SIM_ONLY_FLAGS_ERROR;
  const targets = checkFaultTargets(args.sim);
  if (targets) return targets;
  return args;
}

/**
 * Serves the simulated members over gRPC and writes the etcdctl environment (mode 0600, as the
 * kubeconfig): the endpoints and root's random password. A string is the error to print.
 */
async function serveEtcd(cluster: Cluster, port: number, envFile: string): Promise<{ endpoints: EtcdEndpoints; envFile: string } | string> {
  if (!cluster.etcd) return 'error: --etcd-listen serves the simulated etcd members; with --etcd-endpoints the cluster is in that etcd already';
  const password = randomPassword();
  let endpoints: EtcdEndpoints;
  try {
    endpoints = await startEtcdEndpoints({ cluster: cluster.etcd, clock: cluster.clock, drive: (work) => cluster.drive(work), port, rootPassword: password });
  } catch (err) {
    return `error: cannot serve etcd on 127.0.0.1:${port}: ${err instanceof Error ? err.message : String(err)}`;
  }
  const text = `export ETCDCTL_API=3\nexport ETCDCTL_ENDPOINTS=${endpoints.endpoints}\nexport ETCDCTL_USER=${ROOT_USER}:${password}\n`;
  writeFileSync(envFile, text, { mode: 0o600 });
  chmodSync(envFile, 0o600);
  return { endpoints, envFile };
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

/**
 * How much virtual time `serve` runs before it listens: metrics-server scrapes once its informers
 * have synced and again one resolution later, and kube-aggregator's availability check (every
 * 5 s) then marks v1beta1.metrics.k8s.io Available: about 15 s with an instant etcd and 19 s
 * with the latency model (test/unit/cli/serve-warmup.test.ts checks it with serve's defaults).
 */
export const SERVE_WARMUP_MS = 2 * DEFAULT_METRIC_RESOLUTION_MS;
/** How long, in wall time, serve waits past the warm-up for the metrics API before it goes on. */
const METRICS_WAIT_MS = 60_000;

/** The metrics API is served and in discovery: its backend ready and its APIService Available. */
export function metricsApiAvailable(cluster: Cluster): boolean {
  if (cluster.server.aggregator.isUnavailable(METRICS_GROUP, METRICS_VERSION)) return false;
  const service = cluster.server.reader.cached(API_SERVICES).find((s) => s.metadata.name === METRICS_APISERVICE);
  return hasTrueCondition(obj(service?.status).conditions, 'Available');
}

async function untilMetricsApiAvailable(cluster: Cluster, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!metricsApiAvailable(cluster)) {
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

export async function runServe(argv: string[]): Promise<number> {
  const args = parseCommandLine(argv, USAGE, parseArgs, process);
  if (typeof args === 'number') return args;
  // Virtual time follows the wall clock so the ages kubectl computes itself (describe, logs
  // --timestamps) agree with the ones the server prints. It starts SERVE_WARMUP_MS early so that
  // by the time kubectl connects, metrics-server has scraped twice and its API is available.
  const head = args.metricsServer ? SERVE_WARMUP_MS : 0;
  const etcd = await connectEtcd(args.etcd, USAGE, process.stderr);
  if (typeof etcd === 'number') return etcd;
  let cluster: Cluster;
  try {
    cluster = await createCluster({
      seed: args.seed,
      startTime: Math.floor(Date.now() / 1000) * 1000 - head,
      nodes: { count: args.nodes },
      metricsServer: args.metricsServer,
      podSecurity: args.podSecurity,
      ...(etcd ? { backend: 'etcd' as const, endpoints: etcd.endpoints, etcdCredentials: etcd.credentials } : { etcd: { members: args.sim.members, latency: args.sim.latency, quotaBackendBytes: args.sim.quotaBackendBytes } }),
    });
  } catch (err) {
    // kube-apiserver does not start with an invalid admission configuration.
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  if (!(await applyManifests(cluster, args.files))) {
    await cluster.close();
    return 1;
  }
  let endpoint: ApiEndpoint;
  try {
    endpoint = await startApiEndpoint({ api: cluster.api, clock: cluster.clock, port: args.port, logs: cluster.logs });
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
  let etcdEndpoints: EtcdEndpoints | undefined;
  let etcdctlEnv: string | undefined;
  if (args.etcdListen !== undefined) {
    const served = await serveEtcd(cluster, args.etcdListen, resolve(args.etcdctlEnv));
    if (typeof served === 'string') {
      process.stderr.write(`${served}\n`);
      await endpoint.close();
      await cluster.close();
      return 1;
    }
    ({ endpoints: etcdEndpoints, envFile: etcdctlEnv } = served);
  }

  // Catch up with the wall clock for the time the start-up took, then follow it.
  await cluster.advance(Math.max(0, Date.now() - cluster.clock.now()));
  const pacer = new Pacer(cluster.clock, realWallClock, (err) => process.stderr.write(`kubesim: the simulation stopped: ${err instanceof Error ? err.message : String(err)}\n`));
  if (cluster.etcd) scheduleFaults(cluster.etcd, cluster.clock, args.sim.faults, (f, why) => process.stderr.write(`kubesim: --etcd-fault ${f.text} at +${f.atMs / 1000}s: ${why}\n`));
  if (cluster.store instanceof EtcdClient && args.sim.maintenance) {
    scheduleMaintenance(cluster.store, cluster.clock, args.sim.maintenance, (results) => {
      for (const r of results) (r.error ? process.stderr : process.stdout).write(`kubesim: --etcd-maintenance ${maintenanceLine(r)}\n`);
    });
  }
  pacer.setSpeed(1);
  pacer.resume();
  // The warm-up covers it with the default options; a slower etcd (a real one, slow disks, a
  // fault at the start) may take longer: kubectl is told where to connect once the API is whole.
  if (args.metricsServer && !(await untilMetricsApiAvailable(cluster, METRICS_WAIT_MS))) {
    process.stderr.write(`kubesim: the APIService ${METRICS_APISERVICE} is not Available after ${METRICS_WAIT_MS / 1000}s: metrics.k8s.io is left out of discovery until it is\n`);
  }
  process.stdout.write(`kubesim: serving the Kubernetes ${KUBERNETES_VERSION} API at ${endpoint.url} (port ${endpoint.port}, ${cluster.nodes().length} nodes, seed ${JSON.stringify(args.seed)})\n`);
  if (etcd) process.stdout.write(`kubesim: the cluster is stored in etcd at ${etcd.endpoints.join(',')}\n`);
  else if (cluster.etcd) process.stdout.write(`kubesim: ${etcdSummary(cluster.etcd)}\n`);
  process.stdout.write(`export KUBECONFIG=${path}\n`);
  if (etcdEndpoints) {
    process.stdout.write(`kubesim: serving etcd's v3 API: ${etcdEndpoints.members.map((m) => `${m.name} at ${m.url}`).join(', ')} (user root; etcdctl 3.4 with ETCDCTL_API=3)\n`);
    process.stdout.write(`. ${etcdctlEnv}\n`);
  }

  const signal = await interrupted();
  process.stdout.write(`kubesim: ${signal}, shutting down\n`);
  pacer.dispose();
  await pacer.idle();
  await etcdEndpoints?.close();
  await endpoint.close();
  await cluster.close();
  return 0;
}
