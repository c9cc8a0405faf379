/**
 * `kubesim apply -f <file|folder> [-f ...] [--nodes N] [--seed S] [--until settled|<duration>]
 *  [--output timeline|json]`: builds a cluster, applies the manifests in order (server-side
 * apply, field manager `kubesim`), runs virtual time until the cluster settles (or for the given
 * duration), then prints what happened and what the cluster holds.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createCluster, type Cluster } from '../engine/cluster';
import { applyManifestText, type ApplyResult } from '../engine/manifests/apply';
import { formatTimeline } from '../engine/timeline/format';
import { parseDuration } from './duration';

const USAGE = `Apply manifests to a simulated Kubernetes 1.35 cluster and show what the control plane does.

Usage:
  kubesim apply -f <file|folder> [-f ...] [options]

Options:
  -f, --filename <path>   A manifest file or a folder of .yaml/.yml/.json files (repeatable).
      --nodes <n>         Worker nodes (default 3: 4 CPU, 16 GiB, 110 pods each, zones a/b/c).
      --seed <s>          Seed for names, IPs and scheduling ties (default "kubesim").
      --until <when>      "settled" (default) or a virtual duration such as 90s, 5m, 1h.
  -o, --output <format>   "timeline" (default) or "json".
`;

interface Args {
  files: string[];
  nodes: number;
  seed: string;
  until: 'settled' | number;
  output: 'timeline' | 'json';
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = { files: [], nodes: 3, seed: 'kubesim', until: 'settled', output: 'timeline' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : undefined;
    const value = (): string | undefined => inline ?? argv[++i];
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
          const ms = v === undefined ? undefined : parseDuration(v);
          if (ms === undefined) return `error: invalid value for --until: ${JSON.stringify(v ?? '')} (use "settled" or a duration such as 90s, 5m)`;
          args.until = ms;
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
  return args;
}

function collect(path: string): string[] | string {
  let st;
  try {
    st = statSync(path);
  } catch {
    return `error: the path ${JSON.stringify(path)} does not exist`;
  }
  if (!st.isDirectory()) return [path];
  return readdirSync(path)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort()
    .map((f) => join(path, f));
}

export async function applyFiles(cluster: Cluster, files: string[]): Promise<ApplyResult[]> {
  const client = cluster.client();
  const results: ApplyResult[] = [];
  for (const file of files) results.push(...(await applyManifestText(client, file, readFileSync(file, 'utf8'))));
  return results;
}

export async function runApply(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n\n${USAGE}`);
    return 2;
  }
  const files: string[] = [];
  for (const p of args.files) {
    const found = collect(p);
    if (typeof found === 'string') {
      process.stderr.write(`${found}\n`);
      return 2;
    }
    files.push(...found);
  }
  const cluster = await createCluster({ seed: args.seed });
  const start = cluster.clock.now();
  const firstRecord = cluster.trace.next;
  const results = await applyFiles(cluster, files);
  const run = args.until === 'settled' ? await cluster.settle() : { settled: true, steps: await cluster.advance(args.until), elapsed: args.until, pending: [] };
  const records = cluster.trace.since(firstRecord);
  const objects = await cluster.client().request({ verb: 'list', group: '', version: 'v1', resource: 'pods' });
  if (args.output === 'json') {
    process.stdout.write(JSON.stringify({ results, settled: run.settled, elapsedMs: run.elapsed, records, objects: objects.body.items ?? [] }, null, 2) + '\n');
  } else {
    for (const r of results) (r.action === 'failed' ? process.stderr : process.stdout).write(`${r.message}\n`);
    process.stdout.write('\n' + formatTimeline(records, start).join('\n') + '\n');
    if (!run.settled) process.stdout.write(`\nnot settled after ${run.elapsed / 1000}s of virtual time; still pending: ${run.pending.join(', ')}\n`);
  }
  await cluster.close();
  return results.some((r) => r.action === 'failed') ? 1 : 0;
}
