/**
 * `npm run fuzz -- [--mutants N] [--seed S] [--only ID] [--timeout SECONDS]`: deterministic
 * mutants of the project's examples, the kubectl suite's manifests and the conformance cases'
 * objects (see mutate.ts) through `kubesim validate`, `kubesim apply` and the language server, in
 * a worker process (worker.ts). It passes when no mutant makes anything throw, no answer is
 * anything but Kubernetes-shaped, and no mutant takes longer than the timeout (a hang: the worker
 * is killed and a new one takes the next mutant). It prints its figures: mutants, by operator,
 * verdicts, the slowest mutant; failing mutants are written to .ci/work/fuzz/ to reproduce with
 * --only ID.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSeeds } from './corpus';
import { mutants, OPERATOR_NAMES, type Mutant } from './mutate';
import type { FromWorker, MutantResult } from './worker';

interface Args {
  mutants: number;
  seed: string;
  only?: number;
  timeoutS: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { mutants: 2000, seed: 'kubesim-fuzz', timeoutS: 60 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const v = () => argv[++i] ?? '';
    if (a === '--mutants') args.mutants = Number(v());
    else if (a === '--seed') args.seed = v();
    else if (a === '--only') args.only = Number(v());
    else if (a === '--timeout') args.timeoutS = Number(v());
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

class Worker {
  private child!: ChildProcess;
  private ready!: Promise<void>;
  private pending?: (r: MutantResult | 'exited') => void;
  lspPid?: number;

  constructor() {
    this.start();
  }

  private start(): void {
    this.child = fork(join(__dirname, 'worker.ts'), [], { execArgv: ['--require', 'tsx/cjs', '--max-old-space-size=4096'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.ready = new Promise((resolve) => {
      this.child.on('message', (msg: FromWorker) => {
        if (msg.type === 'ready') resolve();
        else if (msg.type === 'result') this.pending?.(msg.result);
      });
    });
    this.child.on('exit', () => this.pending?.('exited'));
  }

  async run(m: Mutant, timeoutMs: number): Promise<MutantResult | 'hang' | 'exited'> {
    await this.ready;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending = undefined;
        resolve('hang');
      }, timeoutMs);
      this.pending = (r) => {
        clearTimeout(timer);
        this.pending = undefined;
        resolve(r);
      };
      this.child.send({ type: 'run', mutant: m });
    });
  }

  /** Kills the worker (and so its language server's pipes) and starts another. */
  restart(): void {
    this.child.removeAllListeners('exit');
    this.child.kill('SIGKILL');
    this.start();
  }

  stop(): void {
    this.child.removeAllListeners('exit');
    this.child.disconnect();
  }
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const seeds = loadSeeds();
  const t0 = performance.now();
  const worker = new Worker();
  const out = join(__dirname, '../../.ci/work/fuzz');
  mkdirSync(out, { recursive: true });

  const byOperator = new Map<string, { mutants: number; failed: number }>(OPERATOR_NAMES.map((o) => [o, { mutants: 0, failed: 0 }]));
  const verdicts = { validate: new Map<string, number>(), apply: new Map<string, number>(), lsp: new Map<string, number>() };
  const failures: Array<{ m: Mutant; problems: string[] }> = [];
  let slowest: { m: Mutant; ms: number; split: string } | undefined;
  const times = { validate: [] as number[], apply: [] as number[], lsp: [] as number[] };
  let ran = 0;

  for (const m of mutants(seeds, args.mutants, args.seed)) {
    if (args.only !== undefined && m.id !== args.only) continue;
    const started = performance.now();
    const r = await worker.run(m, args.timeoutS * 1000);
    const ms = performance.now() - started;
    ran++;
    let problems: string[];
    if (r === 'hang' || r === 'exited') {
      problems = [r === 'hang' ? `no answer within ${args.timeoutS} s (a hang)` : 'the worker died (see its output above)'];
      worker.restart();
    } else {
      problems = r.problems;
      for (const target of ['validate', 'apply', 'lsp'] as const) {
        for (const [k, n] of Object.entries(r[target].verdicts)) verdicts[target].set(k, (verdicts[target].get(k) ?? 0) + n);
        times[target].push(r[target].ms);
      }
      if (!slowest || ms > slowest.ms) slowest = { m, ms, split: `validate ${r.validate.ms.toFixed(0)} ms, apply ${r.apply.ms.toFixed(0)} ms, language server ${r.lsp.ms.toFixed(0)} ms` };
    }
    for (const op of new Set(m.operators)) {
      const s = byOperator.get(op)!;
      s.mutants++;
      if (problems.length > 0) s.failed++;
    }
    if (problems.length > 0) {
      failures.push({ m, problems });
      writeFileSync(join(out, `mutant-${m.id}.txt`), m.text);
    }
    if (ran % 250 === 0) process.stdout.write(`fuzz: ${ran} mutants, ${failures.length} failing, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  }
  worker.stop();

  const seconds = (performance.now() - t0) / 1000;
  const lines: string[] = [];
  lines.push(`fuzz: ${ran} mutants of ${seeds.length} seeds (seed "${args.seed}") in ${seconds.toFixed(1)} s; ${failures.length} failing`);
  lines.push('by operator (mutants, failing):');
  for (const [op, s] of byOperator) lines.push(`  ${pad(op, 20)} ${pad(s.mutants, 6)} ${s.failed}`);
  for (const target of ['validate', 'apply', 'lsp'] as const) {
    const entries = [...verdicts[target]].sort(([a], [b]) => (a < b ? -1 : 1));
    const t = [...times[target]].sort((x, y) => x - y);
    const at = (q: number) => (t.length > 0 ? t[Math.min(t.length - 1, Math.floor(q * t.length))]!.toFixed(1) : '-');
    lines.push(`${target === 'lsp' ? 'language server' : `kubesim ${target}`}: ${entries.map(([k, n]) => `${k} ${n}`).join(', ')}; per mutant p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  }
  if (slowest) lines.push(`slowest: mutant ${slowest.m.id} (${slowest.m.operators.join(' + ')} of ${slowest.m.seedFile}, ${slowest.m.text.length} characters): ${slowest.ms.toFixed(0)} ms (${slowest.split})`);
  for (const f of failures.slice(0, 50)) {
    lines.push(`FAIL mutant ${f.m.id} (${f.m.operators.join(' + ')} of ${f.m.seedFile}; .ci/work/fuzz/mutant-${f.m.id}.txt):`);
    for (const p of [...new Set(f.problems)].slice(0, 5)) lines.push(`  ${p.split('\n').slice(0, 6).join('\n    ')}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
  writeFileSync(join(out, 'figures.txt'), lines.join('\n') + '\n');
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fuzz: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  },
);
