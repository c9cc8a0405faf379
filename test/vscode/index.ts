/**
 * The extension-host test runner: VS Code loads this bundle (out/test/vscode/index.js) through
 * extensionTestsPath and awaits run(). Suites are bundled in and loaded after mocha has set up
 * its globals (suite, test, ...). Works the same under @vscode/test-electron and code-server.
 */
import type MochaClass = require('mocha');

// mocha 12's CommonJS export is { Mocha, ... }; the types describe the class itself.
const { Mocha } = require('mocha') as { Mocha: typeof MochaClass };

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  mocha.suite.emit('pre-require', globalThis, 'test/vscode', mocha);
  await import('./diagnostics.test');
  await import('./hover-and-fixes.test');
  await import('./apply-agreement.test');
  await import('./cluster.test');
  await import('./persistence.test');
  await import('./panel.test');
  await import('./endpoint.test');
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} extension-host test${failures === 1 ? '' : 's'} failed`);
}
