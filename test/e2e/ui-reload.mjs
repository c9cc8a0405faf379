// Reload Window keeps the story: in a RUNNING code-server with headless Chromium, applies
// examples/web.yaml in a fresh workspace, finds the apply's request in the control-plane panel's
// model layer (window.kubesimPanel.app.store), reloads the window (the extension host restarts;
// the cluster and its trace come back from the workspace storage), opens the panel again and
// asserts the same request record, the records before it and the Deployment's etcd revisions are
// drawn again. Screenshots before and after, dark theme.
//   node test/e2e/ui-reload.mjs [--url http://127.0.0.1:8123] [--shots test/e2e/screenshots] [--prefix ui-reload-]
// Exit code 0 when every check passes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from './browser.mjs';
import { openWorkbench } from './workbench.mjs';

const opt = parseArgs(process.argv.slice(2), {
  url: process.env.CS_URL || 'http://127.0.0.1:8123',
  shots: 'test/e2e/screenshots',
  prefix: 'ui-reload-',
  timeout: '60000',
  'dev-ext': '.',
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-ui-reload-'));
fs.copyFileSync(path.join('examples', 'web.yaml'), path.join(folder, 'web.yaml'));

const wb = await openWorkbench(opt, folder, opt.prefix);
const { page, panel, check, shot, palette, apply, setTheme, until } = wb;

/** The panel's record of the apply (the server-side apply of the Deployment), and what it holds. */
const applyRecord = () => {
  // Until the panel's script has run (it shows "Loading the control plane…"), there is no model.
  const store = window.kubesimPanel?.app?.store;
  if (!store) return { size: 0, revisions: [] };
  const records = [...store.records];
  const r = records.find((x) => x.type === 'api.request' && x.verb === 'patch' && x.resource === 'deployments' && x.name === 'web' && !x.dryRun);
  return { record: r && JSON.stringify(r), id: r?.id, size: store.size, first: records[0]?.id, revisions: records.filter((x) => x.type === 'store.revision' && String(x.key).startsWith('/registry/deployments/default/web')).map((x) => x.id) };
};

let error;
try {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'web.yaml' }).first().waitFor();
  await setTheme('dark');
  await apply('web.yaml', 'deployment.apps/web');
  await palette('KubeSim: Show Control Plane');
  const before = await until('the apply in the panel', applyRecord, (v) => v.id !== undefined && v.revisions.length > 0);
  await panel.locator('#tab-revisions').click();
  // Scrub back a few changes: the replay position is part of what the panel keeps.
  await panel.locator('canvas.timeline-canvas').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await panel.locator('#tab-revisions').click();
  const kept = await until('the panel scrubbed back, on Revisions', () => ({ tab: window.kubesimPanel?.app.state.tab, replay: window.kubesimPanel?.app.state.replay }), (v) => v.tab === 'revisions' && v.replay !== undefined);
  await shot('01-before-reload');
  // The autosaver writes at most once a second: let it write what the panel shows.
  await page.waitForTimeout(2500);

  await palette('Developer: Reload Window');
  await page.locator('.monaco-workbench').waitFor();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'web.yaml' }).first().waitFor();
  // The panel comes back by itself (its WebviewPanelSerializer), with the state it saved.
  const restored = await until('the restored panel', () => ({ tab: window.kubesimPanel?.app.state.tab, replay: window.kubesimPanel?.app.state.replay }), (v) => v.tab !== undefined, 60_000);
  check('after Reload Window the panel is restored on the tab and at the replay position it showed', restored.tab === kept.tab && restored.replay === kept.replay, { before: kept, after: restored });
  await palette('KubeSim: Show Control Plane');
  const after = await until('the restored story in the panel', applyRecord, (v) => v.id === before.id && v.size >= before.size);
  check('after Reload Window the panel shows the apply\u2019s request as it was', after.record === before.record, { id: after.id, records: `${before.size} before, ${after.size} after` });
  check('and every record before it, from the same first one', after.first === before.first && before.revisions.every((id) => after.revisions.includes(id)), { first: [before.first, after.first], deploymentRevisions: after.revisions.length });
  await panel.locator('#tab-revisions').click();
  await panel.locator('#revisions-filter-kind').click();
  await panel.locator('#revisions-filter-kind vscode-option', { hasText: 'Deployment' }).first().click();
  await panel.locator('#view-revisions .status', { hasText: / of [\d,]+ revisions/ }).waitFor();
  const rows = panel.locator('#view-revisions .vlist-row:not([hidden])', { hasText: '/registry/deployments/default/web' });
  await rows.first().waitFor();
  const created = rows.filter({ hasText: 'create' });
  check('the Revisions tab lists the Deployment\u2019s revisions of before the reload, its creation first', (await created.count()) >= 1 && /create/.test(await rows.first().innerText()), (await panel.locator('#view-revisions .status').innerText()).trim());
  await shot('02-after-reload');

  // A tab chosen just before the learner turns to another editor is kept: the panel is not kept
  // while hidden, so what it saves must be saved by the time it goes (a write held back for a
  // moment was lost, and the panel came back on the tab before).
  await panel.locator('#tab-graph').click();
  await page.locator('.tabs-container .tab', { hasText: 'web.yaml' }).first().click();
  await page.locator('.tabs-container .tab.active', { hasText: 'web.yaml' }).waitFor();
  await page.locator('.tabs-container .tab', { hasText: 'KubeSim Control Plane' }).first().click();
  const shown = await until('the panel shown again', () => window.kubesimPanel?.app?.state.tab, (v) => v !== undefined);
  check('a tab chosen just before switching editors is the tab the panel comes back on', shown === 'graph', shown);
} catch (err) {
  error = err;
}
process.exit((await wb.finish(error, 'ui reload e2e')) ? 0 : 1);
