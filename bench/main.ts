/**
 * Benchmark runner: `npm run bench -- <suite> [--json] [suite options]`.
 * Human-readable tables by default; with --json, one JSON object per line on stdout so CI and
 * scripts can compare runs. Each suite measures the things it compares side by side, in one run;
 * `--against REF` runs the whole suite for this checkout and for another commit in turn and
 * prints the ratios (bench/against.ts).
 */
import { againstOptions, runAgainst } from './against';
import { formatRow, type BenchSuite } from './report';

const suites: Record<string, () => Promise<{ default: BenchSuite }>> = {
  // Each suite adds itself here: name -> () => import('./<name>')
  scheduler: () => import('./scheduler'),
  cluster: () => import('./cluster'),
  validate: () => import('./validate'),
  store: () => import('./store'),
  lsp: () => import('./lsp'),
  http: () => import('./http'),
  panel: () => import('./panel'),
  authz: () => import('./authz'),
  extension: () => import('./extension'),
};

async function main(): Promise<void> {
  const [name, ...rest] = process.argv.slice(2);
  const load = name ? suites[name] : undefined;
  if (!load) {
    console.error(`usage: npm run bench -- <${Object.keys(suites).join('|')}> [--json] [--against REF [--rounds N]]`);
    process.exit(2);
  }
  const against = againstOptions(rest);
  if (against && 'error' in against) {
    console.error(against.error);
    process.exit(2);
  }
  if (against) return runAgainst(name!, against, formatRow);
  const suite = (await load()).default;
  await suite(rest);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack ?? err.message : String(err));
  process.exit(1);
});
