// Bundles the extension-host suites (test/vscode) into out/test/vscode/: index.js is what
// extensionTestsPath points at (code-server here, @vscode/test-electron where VS Code desktop can
// be downloaded: run-electron.js). mocha and vscode come from the host at run time.
import * as esbuild from 'esbuild';

await esbuild.build({
  entryPoints: { index: 'test/vscode/index.ts', 'run-electron': 'test/vscode/run-electron.ts' },
  outdir: 'out/test/vscode',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
  external: ['vscode', 'mocha', '@vscode/test-electron'],
});
