// The guided start in a RUNNING code-server with headless Chromium: opens the "Get started with
// KubeSim" walkthrough (contributes.walkthroughs) from the command palette, checks its five steps,
// runs each step's command buttons (apply the bundled examples, stop a node) and checks that each
// step is marked done by its completion event and that the cluster did what the step says (the
// web pods Ready, the big pod Pending, the new ReplicaSet on the graph, a node stopped).
// Screenshots in the dark and the light theme.
//   node test/e2e/ui-walkthrough.mjs [--url http://127.0.0.1:8123] [--shots test/e2e/screenshots] [--prefix ui-walkthrough-]
// Exit code 0 when every check passes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from './browser.mjs';
import { openWorkbench } from './workbench.mjs';

const opt = parseArgs(process.argv.slice(2), {
  url: process.env.CS_URL || 'http://127.0.0.1:8123',
  shots: 'test/e2e/screenshots',
  prefix: 'ui-walkthrough-',
  timeout: '60000',
  'dev-ext': '.',
});

// An empty workspace: the walkthrough brings its own examples.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-ui-walkthrough-'));
const wb = await openWorkbench(opt, folder, opt.prefix);
const { page, panel, check, shot, palette, setTheme, until } = wb;
const TITLES = ['Apply a Deployment and a Service', 'A Pending pod and the scheduler\u2019s verdicts', 'A rolling update on the graph', 'Scrub back to before the apply', 'Stop a node: eviction and rescheduling'];
const walkthrough = page.locator('.gettingStartedContainer');
const step = (title) => walkthrough.locator('.getting-started-step', { hasText: title.replace('\u2019', "'") }).first();
const isDone = (title) => step(title).locator('.codicon-pass-filled, .codicon.complete').count().then((n) => n > 0);
const doneUntil = async (title) => {
  const end = Date.now() + 60_000;
  while (!(await isDone(title))) {
    if (Date.now() > end) return false;
    await page.waitForTimeout(250);
  }
  return true;
};
const open = async (title) => {
  await step(title).locator('.step-title').first().click();
  await page.waitForTimeout(300);
};
const run = async (title, label) => {
  await open(title);
  const button = step(title).getByRole('button', { name: label }).first();
  await button.waitFor();
  await button.click();
};
const backToWalkthrough = () => page.locator('.tabs-container .tab', { hasText: 'Walkthrough' }).click();
const toast = (text) => page.locator('.notifications-toasts .notification-list-item-message', { hasText: text }).first().waitFor();

let error;
try {
  await setTheme('dark');
  await palette('Welcome: Open Walkthrough...');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with KubeSim' }).first().click();
  await walkthrough.locator('.getting-started-category', { hasText: 'Get started with KubeSim' }).first().waitFor().catch(() => undefined);
  await step(TITLES[0]).waitFor();
  await page.keyboard.press('Control+B');
  await page.locator('.part.sidebar').waitFor({ state: 'hidden' });
  const titles = await walkthrough.locator('.getting-started-step .step-title').allInnerTexts();
  check('the walkthrough lists its five steps, in order', TITLES.every((t, i) => (titles[i] ?? '').replace("'", '\u2019').includes(t)), titles);
  await open(TITLES[0]);
  const media = await page.frameLocator('iframe.webview.ready').frameLocator('#active-frame').locator('body').innerText({ timeout: 15_000 }).catch(() => '');
  check('a step shows its markdown (media/walkthrough/apply.md)', /kubectl apply -f/.test(media), media.slice(0, 160));
  await shot('01-dark');

  await run(TITLES[0], 'Apply web.yaml');
  await toast('deployment.apps/web');
  check('Apply web.yaml opens the bundled example and applies it (deployment.apps/web created)', await page.locator('.tabs-container .tab', { hasText: 'web.yaml' }).count() > 0);
  await palette('Notifications: Clear All Notifications');
  await backToWalkthrough();
  check('step 1 is marked done by its completion event', await doneUntil(TITLES[0]));

  await run(TITLES[1], 'Apply pending.yaml');
  await toast('pod/big');
  await palette('Notifications: Clear All Notifications');
  await backToWalkthrough();
  check('step 2 is marked done', await doneUntil(TITLES[1]));

  await run(TITLES[2], 'Show Control Plane');
  // The Map lays out its model while it is shown: read it there, then go to the Graph (the pods
  // take virtual time to come up now that requests do, so they may not be Ready yet when the tab
  // changes, and a hidden Map keeps the model it last drew).
  await panel.locator('#tab-map').click();
  await until('the web pods Ready and the big pod Pending', () => window.kubesimPanel?.map(), (m) => m !== undefined && m.pods.filter((p) => p.key.startsWith('default/web-') && p.tone === 'ready').length === 3 && m.queue.includes('default/big'), 90_000);
  await panel.locator('#tab-graph').click();
  check('the cluster did what steps 1 and 2 say: three web pods Ready, the big pod Pending in the queue', true);
  await backToWalkthrough();
  await run(TITLES[2], 'Apply web-v2.yaml');
  await toast('deployment.apps/web');
  await palette('Notifications: Clear All Notifications');
  await page.locator('.tabs-container .tab', { hasText: 'KubeSim Control Plane' }).click();
  const g = await until('the new ReplicaSet on the graph', () => window.kubesimPanel.graph(), (x) => x.nodes.filter((n) => n.kind === 'ReplicaSet' && n.name.startsWith('web-')).length === 2, 90_000);
  check('step 3\u2019s rollout is on the graph: a revision-2 ReplicaSet, new', g.nodes.some((n) => n.kind === 'ReplicaSet' && n.revision === 2 && n.role === 'new'));
  await backToWalkthrough();
  check('step 3 is marked done', await doneUntil(TITLES[2]));

  await run(TITLES[3], 'Show Control Plane');
  await panel.locator('canvas.timeline-canvas').waitFor();
  await backToWalkthrough();
  await page.waitForTimeout(2000);
  check('step 4 is not done by opening the panel: it waits for a scrub', !(await isDone(TITLES[3])));
  await page.locator('.tabs-container .tab', { hasText: 'KubeSim Control Plane' }).click();
  await panel.locator('canvas.timeline-canvas').focus();
  await page.keyboard.press('Home');
  const back = await until('the graph before the apply', () => window.kubesimPanel.graph(), (x) => !x.pending && x.revision !== undefined && !x.nodes.some((n) => n.name.startsWith('web')), 60_000);
  check('step 4: scrubbed back to before the apply, no web objects on the graph', true, back.revision);
  await panel.locator('#timeline-live').click();
  await backToWalkthrough();
  check('step 4 is marked done', await doneUntil(TITLES[3]));

  await run(TITLES[4], 'Stop Node');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'kubesim-worker3' }).first().click();
  check('step 5 is marked done when a node is stopped', await doneUntil(TITLES[4]));
  // The step's markdown is drawn in its own frame, again after the quick pick closed: shoot it drawn.
  const mediaBody = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame').locator('body');
  await mediaBody.filter({ hasText: 'node monitor grace period' }).waitFor({ timeout: 15_000 }).catch(() => undefined);
  const stepMedia = await mediaBody.innerText({ timeout: 5_000 }).catch(() => '');
  check('step 5 shows its markdown (media/walkthrough/stop-node.md)', /node monitor grace period/.test(stepMedia), stepMedia.slice(0, 160));
  await shot('02-done-dark');
  await setTheme('light');
  await page.waitForTimeout(500);
  await shot('03-done-light');
} catch (err) {
  error = err;
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
}
const ok = await wb.finish(error, 'ui walkthrough e2e');
process.exit(ok ? 0 : 1);
