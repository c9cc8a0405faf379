/**
 * The same extension-host suites under VS Code desktop, for machines that can download it:
 * `node out/test/vscode/run-electron.js` (after scripts/e2e/build-vscode-tests.mjs). Here, where
 * VS Code desktop cannot be fetched, test/e2e/run-ext-tests.mjs runs them in code-server instead.
 */
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(__dirname, 'index.js'),
    launchArgs: [path.join(root, 'examples'), '--disable-extensions', '--disable-workspace-trust'],
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
