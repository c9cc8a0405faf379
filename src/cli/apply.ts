/**
 * `kubesim apply -f <file|folder> [-f ...] [--nodes N] [--seed S] [--until settled|<duration>]
 *  [--output timeline|json] [--etcd-members N] [--etcd-latency model|instant]
 *  [--etcd-fault ACTION:TARGET@TIME ...] [--quota-backend-bytes N] [--etcd-maintenance STEP@TIME ...]
 *  [--etcd-endpoints URL,...]`: builds a cluster (its store the simulated
 * etcd, or a real one), applies the manifests in order (server-side
 * apply, field manager `kubesim`), runs virtual time until the cluster settles (or for the given
 * duration), then prints what happened and what the cluster holds.
 */
import { readFileSync } from 'node:fs';
import { createCluster, type Cluster } from '../engine/cluster';
import { applyManifestText, type ApplyResult } from '../engine/kubectl/apply';
import { formatTimeline } from '../engine/timeline/format';
import { groupResourceKey } from '../engine/api/registry/builtin';
import type { Status } from '../engine/api/status';
import { formatKubectlError } from '../engine/kubectl/format';
import { formatSummary, summaryObjects, type SummaryObjects } from '../engine/timeline/summary';
import { parseVirtualDuration } from '../engine/api/duration';
import { parseCommandLine, splitFlag, type Output } from './command';
import { connectEtcd, ETCD_FLAGS_USAGE, isEtcdFlag, parseEtcdFlag, type EtcdFlags } from './etcd-flags';
import { manifestFiles } from './files';
import { checkFaultTargets, ETCD_SIM_FLAGS_USAGE, etcdJson, hasSimOnlyFlags, isEtcdSimFlag, parseEtcdSimFlag, scheduleFaults, scheduleMaintenance, SIM_ONLY_FLAGS_ERROR, type EtcdSimFlags } from './etcd-sim-flags';
import type { MaintenanceResult } from '../engine/store/etcdserver/maintenance';
import { EtcdClient } from '../engine/store/etcdserver';

const USAGE = `Apply manifests to a simulated Kubernetes 1.35 cluster and show what the control plane does.

Usage:
  kubesim apply -f <file|folder> [-f ...] [options]

Options:
  -f, --filename <path>   A manifest file or a folder of .yaml/.yml/.json files (repeatable).
      --nodes <n>         Worker nodes (default 3: 4 CPU, 16 GiB, 110 pods each, zones a/b/c),
                          besides the tainted control-plane node.
      --seed <s>          Seed for names, IPs and scheduling ties (default "kubesim").
      --until <when>      "settled" (default) or a virtual duration such as 90s, 5m, 1h.
  -o, --output <format>   "timeline" (default) or "json": {records, objects, ...}.
` + ETCD_SIM_FLAGS_USAGE + ETCD_FLAGS_USAGE;

interface Args {
  files: string[];
  nodes: number;
  seed: string;
  until: 'settled' | number;
  output: 'timeline' | 'json';
  etcd: EtcdFlags;
  sim: EtcdSimFlags;
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = { files: [], nodes: 3, seed: 'kubesim', until: 'settled', output: 'timeline', etcd: {}, sim: { faults: [] } };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const { flag, inline } = splitFlag(a);
    const value = (): string | undefined => inline ?? argv[++i];
    if (isEtcdSimFlag(flag)) {
      const problem = parseEtcdSimFlag(flag, value(), args.sim);
      if (problem) return problem;
      continue;
    }
    if (isEtcdFlag(flag)) {
      const problem = parseEtcdFlag(flag, value(), args.etcd);
      if (problem) return problem;
      continue;
    }
    switch (flag) {
      case '-f':
      case '--filename': {
        const v = value();
        if (!v) return `error: flag needs an argument: ${flag}`;
        args.files.push(v);
        break;
      }
      case '--nodes': {
        const v = Number(value());
        if (!Number.isInteger(v) || v < 0 || v > 5000) return 'error: --nodes must be an integer from 0 to 5000';
        args.nodes = v;
        break;
      }
      case '--seed': {
        const v = value();
        if (v === undefined) return 'error: flag needs an argument: --seed';
        args.seed = v;
        break;
      }
      case '--until': {
        const v = value();
        if (v === 'settled') args.until = 'settled';
        else {
          const ms = v === undefined ? undefined : parseVirtualDuration(v);
          if (!ms?.ok) return `error: invalid value for --until: ${JSON.stringify(v ?? '')} (use "settled" or a duration such as 90s, 5m)`;
          args.until = ms.value;
        }
        break;
      }
      case '-o':
      case '--output': {
        const v = value();
        if (v !== 'timeline' && v !== 'json') return `error: unable to match a printer suitable for the output format ${JSON.stringify(v ?? '')}, allowed formats are: json,timeline`;
        args.output = v;
        break;
      }
      default:
        return `error: unknown flag: ${a}`;
    }
  }
  if (args.files.length === 0) return 'error: must specify one of -f and -k';
  if (args.etcd.endpoints && hasSimOnlyFlags(args.sim)) return SIM_ONLY_FLAGS_ERROR;
  const targets = checkFaultTargets(args.sim);
  if (targets) return targets;
  return args;
}

export async function applyFiles(cluster: Cluster, files: string[]): Promise<ApplyResult[]> {
  const client = cluster.client();
  const results: ApplyResult[] = [];
  for (const file of files) results.push(...(await applyManifestText(client, file, readFileSync(file, 'utf8'))));
  return results;
}

/** The lists of the end-of-run summary the API server refused, by resource, with its Status (only when there are any). */
function listErrors(groups: readonly SummaryObjects[]): { listErrors?: { resource: string; status: Status }[] } {
  const failed = groups.filter((g) => g.error);
  if (failed.length === 0) return {};
  return { listErrors: failed.map((g) => ({ resource: groupResourceKey(g.kind.gvr.group, g.kind.gvr.resource), status: g.error! })) };
}

export async function runApply(argv: string[], io: Output = process): Promise<number> {
  const args = parseCommandLine(argv, USAGE, parseArgs, io);
  if (typeof args === 'number') return args;
  const files = manifestFiles(args.files);
  if (typeof files === 'string') {
    io.stderr.write(`${files}\n`);
    return 2;
  }
  const etcd = await connectEtcd(args.etcd, USAGE, io.stderr);
  if (typeof etcd === 'number') return etcd;
  const cluster = await createCluster({
    seed: args.seed,
    nodes: { count: args.nodes },
    ...(etcd ? { backend: 'etcd' as const, endpoints: etcd.endpoints, etcdCredentials: etcd.credentials } : { etcd: { members: args.sim.members, latency: args.sim.latency, quotaBackendBytes: args.sim.quotaBackendBytes } }),
  });
  const start = cluster.clock.now();
  const firstRecord = cluster.trace.next;
  if (cluster.etcd) scheduleFaults(cluster.etcd, cluster.clock, args.sim.faults, (f, why) => io.stderr.write(`kubesim: --etcd-fault ${f.text} at +${f.atMs / 1000}s: ${why}\n`));
  const maintenance: MaintenanceResult[] = [];
  if (cluster.store instanceof EtcdClient) scheduleMaintenance(cluster.store, cluster.clock, args.sim.maintenance ?? [], (r) => maintenance.push(...r));
  const results = await applyFiles(cluster, files);
  if (results.length === 0) {
    io.stderr.write('error: no objects passed to apply\n');
    await cluster.close();
    return 1;
  }
  const run = args.until === 'settled' ? await cluster.settle() : { settled: true, steps: await cluster.advance(args.until), elapsed: args.until, pending: [] };
  const records = cluster.trace.since(firstRecord);
  const dropped = records.length > 0 ? records[0]!.id - firstRecord : 0;
  const objects = await summaryObjects(cluster.client());
  if (args.output === 'json') {
    const body = { results, settled: run.settled, elapsedMs: run.elapsed, droppedRecords: dropped, records, objects: objects.flatMap((g) => g.items), ...listErrors(objects), ...(cluster.etcd ? { etcd: etcdJson(cluster.etcd, { maintenance, watchCache: cluster.server.watchCacheStatus() }) } : {}) };
    io.stdout.write(JSON.stringify(body, null, 2) + '\n');
  } else {
    for (const r of results) (r.action === 'failed' ? io.stderr : io.stdout).write(`${r.message}\n`);
    if (dropped > 0) io.stdout.write(`\n(the trace keeps the last ${cluster.trace.capacity} records: the first ${dropped} are not shown)\n`);
    io.stdout.write('\n' + formatTimeline(records, start).join('\n') + '\n');
    if (!run.settled) io.stdout.write(`\nnot settled after ${run.elapsed / 1000}s of virtual time; still pending: ${run.pending.join(', ')}\n`);
    io.stdout.write('\n' + formatSummary(objects, cluster.clock.now()));
    for (const g of objects) if (g.error) io.stderr.write(formatKubectlError(g.error));
  }
  await cluster.close();
  return results.some((r) => r.action === 'failed') || objects.some((g) => g.error) ? 1 : 0;
}
