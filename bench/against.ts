/**
 * `npm run bench -- <suite> --against <ref> [--rounds N] [suite options]`: the same suite, with
 * the same options, run for the working copy (A) and for another commit (B, by default the
 * previous one: `--against HEAD~1`), in turn in one run (A B, then B A, ...), so that the machine's
 * load falls on both alike. Each suite's records are printed as they come, tagged with the side
 * and commit; at the end, for every record that both sides printed, each measured figure's
 * median on A, on B and the ratio A/B.
 *
 * B is built once per commit under .ci/work/bench-against/<commit>: the commit's files
 * (git archive), its dependencies (hard links to this checkout's node_modules when the two
 * package-lock.json files are the same, `npm ci` otherwise) and its own `npm run build`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median, type BenchRecord } from './report';

interface Side {
  readonly name: 'A' | 'B';
  readonly commit: string;
  readonly dir: string;
}

interface Options {
  readonly ref: string;
  readonly rounds: number;
  readonly json: boolean;
  readonly rest: string[];
}

/** Takes --against and --rounds out of the arguments; undefined when --against is not there. */
export function againstOptions(args: string[]): Options | { error: string } | undefined {
  const i = args.indexOf('--against');
  if (i < 0) return undefined;
  const ref = args[i + 1];
  if (!ref || ref.startsWith('--')) return { error: 'error: --against needs a commit (e.g. --against HEAD~1)' };
  const rest = [...args.slice(0, i), ...args.slice(i + 2)];
  let rounds = 1;
  const r = rest.indexOf('--rounds');
  if (r >= 0) {
    rounds = Number(rest[r + 1]);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) return { error: 'error: --rounds must be an integer from 1 to 20' };
    rest.splice(r, 2);
  }
  return { ref, rounds, json: rest.includes('--json'), rest };
}

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function log(message: string): void {
  process.stderr.write(message + '\n');
}

/** The commit's build, made on first use. */
function prepare(root: string, commit: string): string {
  const dir = join(root, '.ci', 'work', 'bench-against', commit);
  const done = join(dir, '.ready');
  if (existsSync(done)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`bench --against: building ${commit.slice(0, 12)} in ${dir}`);
  execFileSync('sh', ['-c', `git -C "${root}" archive --format=tar "${commit}" | tar -x -C "${dir}"`], { stdio: ['ignore', 'inherit', 'inherit'] });
  const lock = (d: string): string => (existsSync(join(d, 'package-lock.json')) ? readFileSync(join(d, 'package-lock.json'), 'utf8') : '');
  if (lock(dir) === lock(root) && existsSync(join(root, 'node_modules'))) {
    execFileSync('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')], { stdio: 'inherit' });
  } else {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  if (!existsSync(join(dir, 'dist', 'bench.js'))) throw new Error(`bench --against: ${commit.slice(0, 12)} has no benchmark runner (dist/bench.js)`);
  writeFileSync(done, new Date().toISOString() + '\n');
  return dir;
}

/** Runs one side's suite as its own process (so heaps and JIT state are not shared). */
function runSide(side: Side, suite: string, rest: string[], out: (row: BenchRecord) => void): Promise<void> {
  return new Promise((done, fail) => {
    const args = ['--expose-gc', '--max-old-space-size=16384', join(side.dir, 'dist', 'bench.js'), suite, ...rest.filter((a) => a !== '--json'), '--json'];
    const child = spawn(process.execPath, args, { cwd: side.dir, stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (!line) continue;
        try {
          const row = JSON.parse(line) as BenchRecord;
          if (row && typeof row === 'object' && typeof row.bench === 'string') out(row);
          else log(`[${side.name}] ${line}`);
        } catch {
          log(`[${side.name}] ${line}`);
        }
      }
    });
    child.on('error', fail);
    child.on('exit', (code, signal) => (code === 0 ? done() : fail(new Error(`bench ${suite} on ${side.name} (${side.commit.slice(0, 12)}) exited with ${signal ?? code}`))));
  });
}

/** What names a record across runs: the suite's name and its non-numeric fields. */
function keyOf(row: BenchRecord): string {
  return JSON.stringify(Object.entries(row).filter(([k, v]) => k === 'bench' || typeof v !== 'number').sort(([a], [b]) => (a < b ? -1 : 1)));
}

export async function runAgainst(suite: string, options: Options, format: (row: BenchRecord) => string): Promise<void> {
  const root = resolve(__dirname, '..');
  let commitB: string;
  try {
    commitB = git(root, 'rev-parse', '--verify', `${options.ref}^{commit}`);
  } catch {
    throw new Error(`bench --against: ${options.ref} is not a commit of ${root}`);
  }
  const head = git(root, 'rev-parse', 'HEAD');
  const dirty = git(root, 'status', '--porcelain', '--untracked-files=no') !== '';
  const a: Side = { name: 'A', commit: head + (dirty ? '+changes' : ''), dir: root };
  const b: Side = { name: 'B', commit: commitB, dir: prepare(root, commitB) };
  const rows = new Map<string, { A: BenchRecord[]; B: BenchRecord[] }>();
  const print = (row: BenchRecord): void => {
    process.stdout.write((options.json ? JSON.stringify(row) : format(row)) + '\n');
  };
  log(`bench ${suite}: A = ${a.commit.slice(0, 12)}${dirty ? ' with uncommitted changes' : ''}, B = ${commitB.slice(0, 12)} (${options.ref}), ${options.rounds} round(s), in turn`);
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    for (const side of order) {
      await runSide(side, suite, options.rest, (row) => {
        const key = keyOf(row);
        const slot = rows.get(key) ?? { A: [], B: [] };
        rows.set(key, slot);
        slot[side.name].push(row);
        print({ ...row, side: side.name, commit: side.commit.slice(0, 12), round: round + 1 });
      });
    }
  }
  for (const { A, B } of rows.values()) {
    if (A.length === 0 || B.length === 0) continue;
    const first = A[0]!;
    for (const [field, value] of Object.entries(first)) {
      if (typeof value !== 'number') continue;
      const va = median(A.map((r) => r[field]).filter((v): v is number => typeof v === 'number'));
      const vb = median(B.map((r) => r[field]).filter((v): v is number => typeof v === 'number'));
      if (va === vb) continue; // a parameter of the run (nodes, pods), or a figure that did not move
      const label: BenchRecord = { bench: 'compare', of: first.bench };
      for (const [k, v] of Object.entries(first)) if (k !== 'bench' && typeof v !== 'number') label[k] = v;
      print({ ...label, field, a: va, b: vb, ratio: vb === 0 ? null : Math.round((va / vb) * 1000) / 1000, rounds: Math.min(A.length, B.length) });
    }
  }
}
