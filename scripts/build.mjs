// Bundles kubesim with esbuild: the extension host (activation, and the engine and the panel it
// loads on first use), the language server, the webview and the CLI (plus the benchmark runner). `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { mkdirSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  sourcemap: true,
  minify: production,
  logLevel: 'warning',
  target: 'es2022',
};

const node = {
  ...common,
  platform: 'node',
  format: 'cjs',
  // vscode is provided by the host; etcd3 (gRPC) is loaded only when the etcd backend is chosen.
  external: ['vscode', 'etcd3'],
};

const builds = [
  { ...node, entryPoints: { extension: 'src/extension/main.ts' }, outdir: 'dist' },
  // Loaded by the extension after activation or on first use (src/extension/host-loader.ts).
  { ...node, entryPoints: { 'cluster-host': 'src/extension/cluster-host.ts', panel: 'src/extension/panel/index.ts', 'language-client': 'src/extension/language-client.ts' }, outdir: 'dist' },
  { ...node, entryPoints: { server: 'src/server/main.ts' }, outdir: 'dist' },
  { ...node, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  { ...node, entryPoints: { bench: 'bench/main.ts' }, outdir: 'dist' },
  { ...common, platform: 'browser', format: 'iife', entryPoints: { webview: 'webview/main.ts' }, outdir: 'dist' },
];

mkdirSync('dist', { recursive: true });
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('esbuild: watching for changes');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
