// Bundles kubesim with esbuild: the extension host (activation, and the engine and the panel it
// loads on first use), the language server, the webview and the CLI (plus the benchmark runner). `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// The object graph lays out with ELK in a Web Worker (webview/ui/elk-worker.ts). VS Code webviews
// start workers only from blob: or data: URLs, so the webview bundle carries elkjs's own worker
// script (elk-worker.min.js, self-contained) as a string, imported as 'elkjs-worker-source'.
const elkWorkerSource = {
  name: 'elkjs-worker-source',
  setup(b) {
    b.onResolve({ filter: /^elkjs-worker-source$/ }, () => ({ path: require.resolve('elkjs/lib/elk-worker.min.js'), namespace: 'elkjs-worker-source' }));
    b.onLoad({ filter: /.*/, namespace: 'elkjs-worker-source' }, (a) => ({ contents: readFileSync(a.path, 'utf8'), loader: 'text' }));
  },
};

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

// --production (npm run package) minifies every bundle, keeping function and class names so stack
// traces and error texts stay readable; source maps are written beside the bundles either way
// (the .vsix leaves them out: .vscodeignore).
const common = {
  bundle: true,
  sourcemap: true,
  minify: production,
  keepNames: production,
  logLevel: 'warning',
  target: 'es2022',
};

const node = {
  ...common,
  platform: 'node',
  format: 'cjs',
  // vscode is provided by the host; etcd3 (gRPC) is loaded only when the etcd backend is chosen,
  // @grpc/grpc-js, @grpc/proto-loader and hpack.js only when kubesim serve --etcd-listen serves etcd's API.
  external: ['vscode', 'etcd3', '@grpc/grpc-js', '@grpc/proto-loader', 'hpack.js'],
};

// The engine worker and the language server run outside the extension host (a worker_threads
// Worker and a forked Node process), so they load ES modules: one build with code splitting
// gives each a small entry and the engine they share one chunk (dist/chunk-*.mjs) instead of a
// copy in each. The banner gives the CommonJS names the bundled code uses (require for the
// optional peers, __dirname to find the vendored schemas).
const esmBanner = [
  "import { createRequire as __kubesimCreateRequire } from 'node:module';",
  "import { fileURLToPath as __kubesimFileURLToPath } from 'node:url';",
  "import { dirname as __kubesimDirname } from 'node:path';",
  'const require = __kubesimCreateRequire(import.meta.url);',
  'const __filename = __kubesimFileURLToPath(import.meta.url);',
  'const __dirname = __kubesimDirname(__filename);',
].join('\n');

const builds = [
  { ...node, entryPoints: { extension: 'src/extension/main.ts' }, outdir: 'dist' },
  // Loaded by the extension after activation or on first use (src/extension/host-loader.ts).
  { ...node, entryPoints: { panel: 'src/extension/panel/index.ts', 'language-client': 'src/extension/language-client.ts' }, outdir: 'dist' },
  // The engine's worker thread (src/extension/engine/worker.ts: the cluster with a heap of its own)
  // and the language server, sharing the engine's chunk.
  {
    ...node,
    format: 'esm',
    splitting: true,
    entryPoints: { 'engine-worker': 'src/extension/engine/worker.ts', server: 'src/server/main.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    banner: { js: esmBanner },
  },
  { ...node, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  { ...node, entryPoints: { bench: 'bench/main.ts' }, outdir: 'dist' },
  // The codicon font is bundled beside dist/webview.css (the panel loads nothing remote).
  { ...common, platform: 'browser', format: 'iife', entryPoints: { webview: 'webview/main.ts' }, outdir: 'dist', loader: { '.ttf': 'file' }, assetNames: '[name]', plugins: [elkWorkerSource] },
];

mkdirSync('dist', { recursive: true });
// Chunks are named by their content: an earlier build's would linger (and be packaged) beside the new ones.
for (const f of readdirSync('dist')) if (/^chunk-.*\.mjs(\.map)?$/.test(f)) rmSync(`dist/${f}`);
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('esbuild: watching for changes');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
