// Runs the extension-host mocha suites (out/test/vscode/index.js) inside a RUNNING code-server's
// extension host: the workbench URL payload names extensionDevelopmentPath and extensionTestsPath
// (as VS Code's own browser integration tests do); the workbench calls codeAutomationExit(code)
// when run() settles, and forwards the extension host's console through codeAutomationLog.
//   node test/e2e/run-ext-tests.mjs [--url http://127.0.0.1:8123] [--folder examples]
//                                   [--ext .] [--tests out/test/vscode/index.js] [--timeout 420000]
// Exit code: the suites' (0 all passed), 1 on failure or timeout.
import util from 'node:util';
import { launch, parseArgs, workbenchUrl } from './browser.mjs';

const opt = parseArgs(process.argv.slice(2), {
  url: process.env.CS_URL || 'http://127.0.0.1:8123',
  folder: 'examples',
  ext: '.',
  tests: 'out/test/vscode/index.js',
  // The seven suites take about 3 minutes on a shared machine (each Reset Cluster starts a new
  // engine worker); each test keeps mocha's own 60 s limit.
  timeout: '420000',
});

const t0 = Date.now();
const { browser, close } = await launch(opt.chromium);
let code;
try {
  const page = await (await browser.newContext()).newPage();
  let exit;
  const exited = new Promise((resolve) => (exit = resolve));
  await page.exposeFunction('codeAutomationLog', (type, args) => console.log(util.format(...(Array.isArray(args) ? args : [args]))));
  await page.exposeFunction('codeAutomationExit', (c) => exit(c));
  page.on('pageerror', (e) => console.log('[pageerror]', e.message.slice(0, 200)));
  await page.goto(workbenchUrl(opt.url, opt.folder, { devExt: opt.ext, tests: opt.tests }));
  code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), Number(opt.timeout)))]);
} finally {
  await close();
}
console.log(`extension-host suites: exit code ${code} after ${Date.now() - t0} ms`);
process.exit(code === 0 ? 0 : 1);
