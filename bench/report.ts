/** Shared output for benchmark suites: JSON lines with --json, an aligned table otherwise. */
import { readFileSync } from 'node:fs';

export type BenchSuite = (args: string[]) => Promise<void>;

export type BenchRecord = { bench: string } & Record<string, string | number | boolean | null>;

export class Reporter {
  private readonly rows: BenchRecord[] = [];

  constructor(readonly json: boolean) {}

  static fromArgs(args: string[]): Reporter {
    return new Reporter(args.includes('--json'));
  }

  /** Prints one measured result immediately (a long run shows progress as it goes). */
  record(row: BenchRecord): void {
    this.rows.push(row);
    if (this.json) process.stdout.write(JSON.stringify(row) + '\n');
    else process.stdout.write(formatRow(row) + '\n');
  }

  /** Progress and notes go to stderr so that --json output stays machine-readable. */
  note(message: string): void {
    process.stderr.write(message + '\n');
  }

  all(): readonly BenchRecord[] {
    return this.rows;
  }
}

export function formatRow(row: BenchRecord): string {
  return Object.entries(row)
    .map(([k, v]) => `${k}=${typeof v === 'number' ? formatNumber(v) : String(v)}`)
    .join('  ');
}

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  return n.toLocaleString('en-US', { maximumFractionDigits: 3 });
}

/** Wall time in ms with sub-ms precision (benchmarks are outside the engine: wall time is fine). */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function heapUsedBytes(): number {
  return process.memoryUsage().heapUsed;
}

/** Forces a full GC when node runs with --expose-gc; heap figures are only meaningful then. */
export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) g();
}

/**
 * The main thread's time on a CPU and waiting for one (ns), from the kernel's schedstat;
 * undefined where there is none. On a shared machine the wait is the time other threads and
 * processes held the CPUs while this thread was ready to run.
 */
export function schedstat(): { run: number; wait: number } | undefined {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return { run: Number(run), wait: Number(wait) };
  } catch {
    return undefined;
  }
}
