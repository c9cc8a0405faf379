// UI end-to-end run in a RUNNING code-server with headless Chromium: the real workbench opens
// examples/broken.yaml, the kubesim language server's diagnostics show in the editor and in the
// Problems panel; then examples/web.yaml is applied with "KubeSim: Apply Current Manifest" from
// the command palette and its pods show Running in the KubeSim sidebar; screenshots are saved.
//   node test/e2e/ui.mjs [--url http://127.0.0.1:8123] [--folder examples] [--file broken.yaml]
//                        [--dev-ext .]   load the extension from a folder (workbench payload)
//                        [--installed]   expect it installed in code-server (the .vsix smoke test)
//                        [--shots test/e2e/screenshots] [--prefix ui-] [--chromium /usr/bin/chromium]
// Exit code 0 when every check passes.
import fs from 'node:fs';
import path from 'node:path';
import { launch, parseArgs, workbenchUrl } from './browser.mjs';
import { quickInput } from './workbench.mjs';

const opt = parseArgs(process.argv.slice(2), {
  url: process.env.CS_URL || 'http://127.0.0.1:8123',
  folder: 'examples',
  file: 'broken.yaml',
  shots: 'test/e2e/screenshots',
  prefix: 'ui-',
  timeout: '60000',
});
if (!opt.installed && !opt['dev-ext']) opt['dev-ext'] = '.';
const EXPECTED = 'spec.replicas: Invalid value: -1: must be greater than or equal to 0';

fs.mkdirSync(opt.shots, { recursive: true });
const t0 = Date.now();
const results = [];
const check = (name, ok, detail) => {
  results.push({ name, ok: Boolean(ok), detail });
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail === undefined ? '' : ` :: ${JSON.stringify(detail)}`}`);
};

const { browser, close } = await launch(opt.chromium);
const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
page.setDefaultTimeout(Number(opt.timeout));
page.on('pageerror', (e) => console.log('[pageerror]', e.message.slice(0, 200)));
const shot = async (name) => {
  const file = path.join(opt.shots, `${opt.prefix}${name}.png`);
  await page.screenshot({ path: file });
  console.log('screenshot', file);
};

try {
  await page.goto(workbenchUrl(opt.url, opt.folder, { devExt: opt.installed ? undefined : opt['dev-ext'] }));
  await page.locator('.monaco-workbench').waitFor();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: opt.file }).first().waitFor();
  check('workbench loads with the folder', true);

  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => undefined);
  const { palette, openFile } = quickInput(page);
  await openFile(opt.file);
  check('manifest opens in the editor', true, opt.file);

  // The language server's errors are squiggles in the editor...
  await page.locator('.monaco-editor .squiggly-error').first().waitFor();
  check('error squiggles in the editor', true, await page.locator('.monaco-editor .squiggly-error').count());
  await shot('01-editor');

  // ...and rows in the Problems panel, with kubesim as their source.
  await page.keyboard.press('Control+Shift+M');
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: EXPECTED }).first();
  await row.waitFor();
  const rows = (await page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
  check('Problems panel lists the API server error', rows.some((r) => r.includes(EXPECTED)), `${rows.length - 1} rows`);
  check('diagnostic source is kubesim', rows.some((r) => r.includes(EXPECTED) && r.includes('kubesim')), rows.find((r) => r.includes(EXPECTED)));
  await shot('02-problems');

  // Apply from the command palette: kubectl's words in a notification, the pods in the sidebar.
  // Each quick input is awaited closed before the next opens, so no keystroke lands in an editor.
  await openFile('web.yaml');
  await palette('KubeSim: Apply Current Manifest');
  const toast = page.locator('.notifications-toasts .notification-list-item-message', { hasText: 'deployment.apps/web' }).first();
  await toast.waitFor();
  check('Apply Current Manifest reports as kubectl does', /deployment\.apps\/web (created|configured|unchanged), service\/web (created|configured|unchanged)/.test(await toast.innerText()), await toast.innerText());
  await page.keyboard.press('Control+J');
  await page.locator('.part.panel').waitFor({ state: 'hidden' });
  await page.locator('.activitybar .action-item a[aria-label^="KubeSim"]').first().click();
  // A wider sidebar (its sash dragged), so the screenshot shows the items' descriptions.
  const bar = await page.locator('.part.sidebar').boundingBox();
  if (bar) {
    await page.mouse.move(bar.x + bar.width + 1, bar.y + 400);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width + 280, bar.y + 400, { steps: 8 });
    await page.mouse.up();
  }
  await page.mouse.move(1100, 500);
  const podRows = page.locator('.pane-body .monaco-list-row', { hasText: /web-[a-z0-9]+-[a-z0-9]{5}.*Running/ });
  await page.waitForFunction(() => document.querySelectorAll('.pane-body .monaco-list-row').length > 0);
  await podRows.nth(2).waitFor({ timeout: 90_000 });
  const running = (await podRows.allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
  check('the Cluster tree shows the three pods Running', running.length === 3, running);
  const status = page.locator('.statusbar-item', { hasText: /rev \d+/ }).first();
  check('the status bar counts the running pods', /3 running, 0 pending/.test(await status.innerText()), (await status.innerText()).trim());
  await shot('03-cluster-tree');
  check('web.yaml is not modified', (await page.locator('.tabs-container .tab.dirty', { hasText: 'web.yaml' }).count()) === 0);

  // The control-plane panel, from the command palette: the etcd revisions the apply wrote (with
  // time travel to the Deployment's creation), a scheduling decision, and the apply's causal chain.
  await page.keyboard.press('Control+B');
  await palette('Notifications: Clear All Notifications');
  await palette('KubeSim: Show Control Plane');
  const panel = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  const rowsOf = (view) => panel.locator(`#view-${view} .vlist-row:not([hidden])`);
  // The panel opens on the Map (test/e2e/ui-map.mjs drives it); the record lists are the next tabs.
  await panel.locator('#tab-revisions').click();
  await rowsOf('revisions').first().waitFor();
  check('the panel lists etcd revisions', (await rowsOf('revisions').count()) > 0, await panel.locator('#view-revisions .status').innerText());
  await panel.locator('#revisions-filter-kind').click();
  await panel.locator('#revisions-filter-kind vscode-option', { hasText: 'Deployment' }).first().click();
  // The filter has applied (the status counts "N of M") before a filtered row is clicked.
  await panel.locator('#view-revisions .status', { hasText: / of [\d,]+ revisions/ }).waitFor();
  const created = rowsOf('revisions').filter({ hasText: '/registry/deployments/default/web' }).filter({ hasText: 'create' }).first();
  await created.click();
  const travel = panel.locator('#view-revisions pre.diff');
  await travel.waitFor();
  check('a revision shows the object as it was then, read through the API server', /\+ kind: Deployment/.test(await travel.innerText()), (await panel.locator('#view-revisions .detail h3').first().innerText()).trim());
  await shot('04-panel-revisions');

  await panel.locator('#tab-scheduler').click();
  await rowsOf('scheduler').filter({ hasText: 'attempt 1' }).first().click();
  const decision = panel.locator('#view-scheduler .detail h2');
  await decision.waitFor();
  const filterRows = await panel.locator('#view-scheduler .filters-table tbody tr').count();
  const scoreRows = await panel.locator('#view-scheduler .scores-table tbody tr').count();
  check('the Scheduler tab shows a scheduling decision with its filter and score tables', /→ kubesim-worker\d*$/.test((await decision.innerText()).trim()) && filterRows > 0 && scoreRows > 0, { decision: (await decision.innerText()).trim(), filterRows, scoreRows });
  await shot('05-panel-scheduler');

  await panel.locator('#tab-flow').click();
  await panel.locator('#flow-root').click();
  await panel.locator('#flow-root vscode-option', { hasText: 'deployments.apps default/web' }).first().click();
  const flowStatus = panel.locator('#view-flow .status', { hasText: 'deployments.apps default/web' });
  await flowStatus.waitFor();
  // The lanes as drawn (the Flow's model layer): full titles, folded or not.
  const lanes = await panel.locator('body').evaluate(() => window.kubesimPanel.flow().lanes.map((l) => l.title));
  const steps = await panel.locator('#view-flow .step .label').allTextContents();
  check(
    'the Flow tab follows the apply from the request to the pods and the EndpointSlice',
    ['API server', 'etcd', 'kube-scheduler'].every((l) => lanes.includes(l)) && lanes.some((l) => l.startsWith('kubelet ')) && steps.some((s) => s.includes('/registry/endpointslices/default/web')),
    { status: (await flowStatus.innerText()).trim(), lanes },
  );
  await shot('06-panel-flow');

  // Hidden (another editor in front: the webview is not retained) and shown again: the panel
  // re-syncs from the host and comes back on the same tab, request and selection.
  await page.locator('.tabs-container .tab', { hasText: 'web.yaml' }).click();
  await page.locator('iframe.webview.ready').waitFor({ state: 'hidden' });
  await page.locator('.tabs-container .tab', { hasText: 'KubeSim Control Plane' }).click();
  await panel.locator('#view-flow .status', { hasText: 'deployments.apps default/web' }).waitFor();
  const activeTab = await panel.locator('vscode-panels').getAttribute('activeid');
  await panel.locator('#tab-revisions').click();
  const reselected = panel.locator('#view-revisions .vlist-row.selected');
  await reselected.waitFor();
  check('hidden and shown again, the panel keeps its tab, flow request and selection', activeTab === 'tab-flow' && /create/.test(await reselected.innerText()), { activeTab, selected: (await reselected.innerText()).replace(/\s+/g, ' ').trim() });
} catch (err) {
  const [first, ...callLog] = String(err?.message ?? err).split('\n');
  check('unexpected error', false, first);
  // Playwright's call log says what the step waited for (hidden, detached, another element on top).
  if (callLog.length > 0) console.log(callLog.slice(0, 30).join('\n'));
  await shot('99-error').catch(() => undefined);
} finally {
  await close();
}

const ok = results.every((r) => r.ok);
console.log(`ui e2e: ${ok ? 'passed' : 'FAILED'} in ${Date.now() - t0} ms`);
process.exit(ok ? 0 : 1);
