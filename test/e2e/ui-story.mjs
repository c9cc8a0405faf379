// The story of an apply and Step to next change in a RUNNING code-server with headless
// Chromium: applies examples/web.yaml from the command palette in a fresh workspace, opens the
// control plane's Story tab and asserts what it draws through the panel's model layer
// (window.kubesimPanel.story(): which step, in which state, for which pod) and the DOM rows
// drawn from it; follows the Service applied with it; applies a pod no node fits and checks the
// story stops at the scheduler with each node's reason; pauses and steps change by change.
// Screenshots in the dark and the light theme.
//   node test/e2e/ui-story.mjs [--url http://127.0.0.1:8123] [--shots test/e2e/screenshots] [--prefix ui-story-]
// Exit code 0 when every check passes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from './browser.mjs';
import { openWorkbench } from './workbench.mjs';

const opt = parseArgs(process.argv.slice(2), {
  url: process.env.CS_URL || 'http://127.0.0.1:8123',
  shots: 'test/e2e/screenshots',
  prefix: 'ui-story-',
  timeout: '60000',
  'dev-ext': '.',
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-ui-story-'));
for (const f of ['web.yaml', 'pending.yaml']) fs.copyFileSync(path.join('examples', f), path.join(folder, f));
fs.writeFileSync(
  path.join(folder, 'echo.yaml'),
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: echo\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: echo}\n  template:\n    metadata:\n      labels: {app: echo}\n    spec:\n      containers:\n        - name: echo\n          image: nginx:1.27\n',
);

const wb = await openWorkbench(opt, folder, opt.prefix);
const { page, panel, check, shot, palette, apply, setTheme, showPanel, until } = wb;
const story = () => until('the story', () => window.kubesimPanel.story(), (s) => s.story !== undefined);
const storyUntil = (what, ok) =>
  until(
    what,
    () => {
      const { story: s, entries } = window.kubesimPanel.story();
      return s && { title: s.title, state: s.state, outcome: s.outcome, steps: s.steps.map((x) => ({ phase: x.phase, title: x.title, state: x.state, pod: x.pod, actor: x.actor, text: x.text, items: (x.items ?? []).map((i) => i.text) })), pods: s.pods, blocks: entries.filter((e) => e.kind === 'pod').length };
    },
    (s) => s !== undefined && ok(s),
    90_000,
  );

let error;
try {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'web.yaml' }).first().waitFor();
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => undefined);
  await setTheme('dark');
  await palette('KubeSim: Show Control Plane');
  await panel.locator('#tab-story').waitFor();
  await page.keyboard.press('Control+B');
  await page.locator('.part.sidebar').waitFor({ state: 'hidden' });

  await apply('web.yaml', 'deployment.apps/web');
  await showPanel();
  await panel.locator('#tab-story').click();
  const web = await storyUntil('the Deployment\u2019s story to complete', (s) => s.title.endsWith('Deployment default/web') && s.state === 'complete' && s.steps.at(-1).phase === 'available');
  const spine = web.steps.filter((s) => !s.pod).map((s) => s.phase);
  check(
    'the story of the apply: request, authentication, authorization, admission, validation, etcd, the Deployment and ReplicaSet controllers, the writes',
    ['request', 'authentication', 'authorization', 'mutating-admission', 'validation', 'validating-admission', 'etcd', 'controller', 'written', 'controller', 'written'].every((p, i) => spine[i] === p),
    spine,
  );
  const perPod = web.pods.map((p) => web.steps.filter((s) => s.pod === p.pod && s.phase !== 'endpoints').map((s) => s.phase).join('>'));
  check('each pod: the scheduler\u2019s choice, the kubelet\u2019s steps, Ready', web.pods.length === 3 && perPod.every((x) => x === 'scheduler>kubelet>ready'), perPod);
  const sched = web.steps.find((s) => s.phase === 'scheduler');
  check('the scheduler step says how many nodes fit, who turned the others away and the top scores', /^3 of 4 nodes fit: TaintToleration turned away kubesim-control-plane .*Top scores: /.test(sched?.text ?? ''), sched?.text);
  const deploy = web.steps.find((s) => s.phase === 'controller');
  check('the Deployment controller\u2019s 409 Conflict and its successful retry read "retried", not failed', deploy?.state === 'retried' && /409 Conflict/.test(deploy.text), deploy);
  check('the story ends with the pods Ready behind the EndpointSlice and the Deployment Available', /^Done in [\d.]+s; 3 pods Ready\.$/.test(web.outcome) && web.steps.some((s) => s.phase === 'endpoints') && web.steps.at(-1).phase === 'available', web.outcome);
  // What is drawn is the model: one row per step, its state as its class, the pods in blocks side by side.
  const drawn = await panel.locator('#view-story .story-step').evaluateAll((rows) => rows.map((r) => [Number(r.dataset.step), r.dataset.phase, [...r.classList].find((c) => c.startsWith('state-'))]));
  check('every step is drawn, once, in its state', drawn.length === web.steps.length && drawn.every(([i, phase, state]) => web.steps[i].phase === phase && state === `state-${web.steps[i].state}`), { drawn: drawn.length, steps: web.steps.length });
  check('the three pods\u2019 blocks sit side by side', (await panel.locator('#view-story .pod-grid > .story-pod').count()) === 3 && web.blocks === 3);
  check('nothing in the Deployment\u2019s story is painted as stopped', (await panel.locator('#view-story .story-step.state-stopped').count()) === 0);
  await shot('01-apply-dark');

  // Keyboard: the steps are one list; arrows move, Enter opens a step's parts.
  await panel.locator('#view-story .story-step').first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const focused = await panel.locator('#view-story .story-step:focus').getAttribute('aria-label', { timeout: 10_000 }).catch(() => null);
  check('arrow keys move between the steps, each announced with its time, title and state', /^\+0\.000s, Authorization, done: Allowed/.test(focused ?? ''), focused);

  // Quiet by default: the record views open on the story, not the heartbeat; everything on request.
  const lists = () => panel.locator('body').evaluate(() => window.kubesimPanel.lists());
  const box = (id) => panel.locator(`#${id}`);
  await panel.locator('#tab-revisions').click();
  let l = await until('the revisions', () => window.kubesimPanel.lists(), (x) => x.revisions.rows.length > 0);
  const leaseRows = (x) => x.revisions.rows.filter((r) => r.cells[4].startsWith('/registry/leases/')).length;
  check('Revisions opens without Lease renewals or Event writes, and says what it hid', leaseRows(l) === 0 && !l.revisions.rows.some((r) => r.cells[4].startsWith('/registry/events/')) && /heartbeats?, [\d,]+ Event writes? hidden/.test(l.revisions.status), l.revisions.status);
  await box('revisions-quiet-heartbeats').click();
  l = await until('the heartbeats shown', () => window.kubesimPanel.lists(), (x) => leaseRows(x) > 0);
  check('"Heartbeats" shows the Lease renewals again', leaseRows(l) > 0, { leases: leaseRows(l), status: l.revisions.status });
  await box('revisions-quiet-heartbeats').click();
  await until('the heartbeats hidden again', () => window.kubesimPanel.lists(), (x) => leaseRows(x) === 0);
  // The panel's own reads: a revision's time travel reads through the API server as the panel.
  // The list is virtualized and follows the live end (the clock runs on after the apply), so the
  // create is found as a user finds it: by its kind, then back to every kind.
  const kindFilter = async (kind) => {
    await panel.locator('#revisions-filter-kind').click();
    await panel.locator('#revisions-filter-kind vscode-option', { hasText: kind }).first().click();
  };
  await kindFilter('Deployment');
  await until('only Deployments listed', () => window.kubesimPanel.lists(), (x) => x.revisions.rows.length > 0 && x.revisions.rows.every((r) => r.cells[3] === 'Deployment'));
  const created = panel.locator('#view-revisions .vlist-row:not([hidden])').filter({ hasText: '/registry/deployments/default/web' }).filter({ hasText: 'create' }).first();
  await created.click();
  await panel.locator('#view-revisions pre.diff').waitFor();
  await kindFilter('any');
  await until('every kind listed again', () => window.kubesimPanel.lists(), (x) => x.revisions.rows.some((r) => r.cells[3] === 'Pod'));
  await panel.locator('#tab-requests').click();
  l = await until('the requests', () => window.kubesimPanel.lists(), (x) => x.requests.rows.length > 0);
  check('Requests hides reads by default (the editor’s informers, the panel’s time travel)', !l.requests.rows.some((r) => ['get', 'list', 'watch'].includes(r.cells[3])) && /reads? hidden/.test(l.requests.status), l.requests.status);
  await box('requests-quiet-reads').click();
  l = await until('the reads shown', () => window.kubesimPanel.lists(), (x) => x.requests.rows.some((r) => r.cells[3] === 'list'));
  const panelReads = l.requests.rows.filter((r) => r.cells[2] === 'control-plane panel (its own read)');
  check('the panel’s own time-travel reads are labelled as its own, never as the user’s requests', panelReads.length >= 2 && panelReads.every((r) => r.cells[3] === 'list'), panelReads.map((r) => r.cells.slice(2, 6).join(' ')));
  await box('requests-quiet-reads').click();
  const conflicts = l.requests.rows.filter((r) => r.cells[6] === '409');
  check('a 409 Conflict is drawn as the retry it is, not as a failure', conflicts.length > 0 && conflicts.every((r) => r.tone === 'conflict'), conflicts.map((r) => [r.cells[7], r.tone]));
  // This apply only: the causal closure of the followed apply (the Deployment's).
  await box('requests-quiet-applyOnly').click();
  l = await until('this apply only', () => window.kubesimPanel.lists(), (x) => /outside this apply hidden/.test(x.revisions.status));
  check('"This apply only" keeps what the Deployment’s apply caused, in every list', l.revisions.rows.length > 10 && l.revisions.rows.every((r) => /\/default\/web/.test(r.cells[4])) && l.requests.rows.every((r) => r.cells[0] !== ''), { revisions: l.revisions.rows.length, keys: [...new Set(l.revisions.rows.map((r) => r.cells[4].split('/')[2]))] });
  await panel.locator('#tab-revisions').click();
  check('the box is one state for every list', await box('revisions-quiet-applyOnly').evaluate((b) => b.checked === true));
  await shot('04-revisions-quiet-dark');
  await box('revisions-quiet-applyOnly').click();
  await until('every apply again', () => window.kubesimPanel.lists(), (x) => !/outside this apply/.test(x.revisions.status));
  // The Flow: lanes fit the panel, idle lanes start folded, the 409 is retried.
  await panel.locator('#tab-flow').click();
  const flow = await until('the Flow', () => window.kubesimPanel.flow(), (f) => f !== undefined && f.steps.length > 0);
  const canvasWidth = await panel.locator('#view-flow .flow-canvas').evaluate((c) => c.clientWidth);
  check('every Flow lane fits the panel (no lane off-screen)', flow.lanes.every((ln) => 78 + ln.x + ln.width <= canvasWidth), { canvasWidth, lanes: flow.lanes.map((ln) => `${ln.title}@${ln.x}+${ln.width}${ln.collapsed ? ' folded' : ''}`) });
  check('lanes whose every record is a sync that changed nothing start folded', flow.lanes.filter((ln) => ln.collapsed).map((ln) => ln.title).every((t) => /taint-eviction|node-lifecycle/.test(t)) && flow.lanes.some((ln) => ln.collapsed), flow.lanes.filter((ln) => ln.collapsed).map((ln) => ln.title));
  check('the Flow draws the 409-then-retry as retried, and nothing of this apply as failed', flow.steps.some((x) => x.retried) && !flow.steps.some((x) => x.failed), flow.steps.filter((x) => x.retried || x.failed).map((x) => x.label));
  check('the Flow shows no Events lane while Events are hidden', !flow.lanes.some((ln) => ln.title === 'Events'));
  await shot('05-flow-dark');
  // The scheduler's filter table for four nodes fits the detail pane; its node column sticks.
  await panel.locator('#tab-scheduler').click();
  await panel.locator('#view-scheduler .vlist-row:not([hidden])', { hasText: 'attempt 1' }).first().click();
  const table = panel.locator('#view-scheduler .filters-table');
  await table.waitFor();
  const fits = await panel.locator('#view-scheduler .matrix-wrap').first().evaluate((w) => ({ scroll: w.scrollWidth, client: w.clientWidth, sticky: getComputedStyle(w.querySelector('th.node-col')).position }));
  check('the filter table for 4 nodes is readable without scrolling, its node column sticky', fits.scroll <= fits.client && fits.sticky === 'sticky', fits);
  const headings = await panel.locator('#view-scheduler .matrix th.plugin span').evaluateAll((spans) => spans.map((s) => ({ text: s.textContent, scroll: s.scrollHeight, client: s.clientHeight })));
  check('every filter and score plugin heading is drawn whole (none cut)', headings.length > 0 && headings.every((x) => x.scroll <= x.client + 1), headings.filter((x) => x.scroll > x.client + 1));
  await shot('06-scheduler-dark');
  await panel.locator('#view-scheduler .scores-table').first().scrollIntoViewIfNeeded();
  await shot('06-scheduler-scores-dark');
  await panel.locator('#tab-story').click();

  // The Service applied with it is its own story.
  await panel.locator('#view-story .story-siblings .record-link', { hasText: 'Service default/web' }).click();
  const svc = await storyUntil('the Service\u2019s story', (s) => s.title.endsWith('Service default/web'));
  check('the Service applied with it: its EndpointSlice created by the EndpointSlice controller', svc.state === 'complete' && svc.steps.at(-1).title === 'EndpointSlice created', svc.steps.at(-1));
  await panel.locator('#story-root').click();
  await panel.locator('#story-root vscode-option', { hasText: 'The latest apply' }).click();
  await storyUntil('the latest apply again', (s) => s.title.endsWith('Deployment default/web'));

  // A pod that fits nowhere: the story stops at the scheduler, with each node's reason.
  await apply('pending.yaml', 'pod/big');
  await showPanel();
  const big = await storyUntil('the pending pod\u2019s story to stop', (s) => s.title.endsWith('Pod default/big') && s.state === 'stopped');
  const stopped = big.steps.find((s) => s.state === 'stopped');
  check('the story of a pod no node fits stops at the scheduler with its FailedScheduling message', stopped?.phase === 'scheduler' && /^Could not schedule it: 0\/4 nodes are available: /.test(stopped.text), stopped?.text);
  check('the stopped step shows each node\u2019s rejection with the amounts', stopped.items.filter((i) => /^kubesim-worker\d?: NodeResourcesFit: Insufficient cpu: 64 requested, [\d.]+ free of 4$/.test(i)).length === 3, stopped.items);
  check('the stop is explained in the story\u2019s outcome', /^Stopped at Scheduler for Pod default\/big: Could not schedule it/.test(big.outcome), big.outcome);
  await panel.locator('#view-story .story-step.state-stopped .step-items').waitFor();
  await shot('02-pending-dark');

  // Step to next change: paused, an apply's effects come one change at a time, never a heartbeat.
  await palette('KubeSim: Pause');
  await apply('echo.yaml', 'deployment.apps/echo');
  const messages = [];
  for (let i = 0; i < 6; i++) {
    await palette('KubeSim: Step to Next Change');
    const item = page.locator('.statusbar-item', { hasText: /^KubeSim: (\+|nothing|no change)/ }).last();
    await item.waitFor();
    const text = (await item.innerText()).trim();
    messages.push(text);
    await page.waitForFunction((t) => ![...document.querySelectorAll('.statusbar-item')].some((e) => e.textContent?.trim() === t), text, { timeout: 8000 }).catch(() => undefined);
  }
  check('each Step moves to a change (a write, a reconcile, a scheduling decision, a kubelet step), never a Lease or a resync', messages.length === 6 && messages.every((m) => /^KubeSim: \+\S+: /.test(m) && !/leases|Lease|resync/.test(m)), messages);
  // Requests take virtual time (the etcd's Raft latency model), so a sync spans timers: Step stops
  // at the sync's first write (its ReplicaSet), and the reconcile's record comes when it ends.
  // The apply's own create is done by the time Apply answers `created` (the clock runs for the
  // apply's request even while paused), so the first Step may already be the controller's; when
  // the create is reported, it comes first.
  const controllerActs = (m) => /deployment-controller (reconcile default\/echo|create replicasets\.apps default\/echo-)/.test(m);
  const adminFirst = /admin create deployments\.apps default\/echo$/.test(messages[0] ?? '');
  check(
    'the first steps are the apply\u2019s own: its write (when not already answered) and the Deployment controller acting on it',
    (adminFirst ? messages.slice(1, 3) : messages.slice(0, 2)).some(controllerActs) && !messages.slice(1).some((m) => /admin create deployments/.test(m)),
    messages.slice(0, 3),
  );
  await palette('KubeSim: Resume');

  // The Cluster tree: nodes with requested of allocatable, pods under them without the node's
  // name again, events with their age; a click opens the object's details in the panel.
  await page.locator('.activitybar .action-item a[aria-label^="KubeSim"]').first().click();
  const nodeRow = page.locator('.pane-body .monaco-list-row', { hasText: /kubesim-worker2\s*Ready/ }).first();
  await nodeRow.waitFor();
  const nodeText = (await nodeRow.innerText()).replace(/\s+/g, ' ').trim();
  check('a node item shows requested of allocatable cpu, memory and pods', /Ready · cpu \d+m?\/4 · memory \d+(Mi|Gi|\.\dGi)?\/15\.\dGi · pods \d+\/110/.test(nodeText), nodeText);
  await nodeRow.locator('.monaco-tl-twistie').click();
  const podUnder = page.locator('.pane-body .monaco-list-row[aria-level="3"]', { hasText: /web-[a-z0-9]+-[a-z0-9]{5}/ }).first();
  await podUnder.waitFor();
  const podText = (await podUnder.innerText()).replace(/\s+/g, ' ').trim();
  check('a pod under its node does not repeat the node’s name', /1\/1 · Running/.test(podText) && !podText.includes('kubesim-worker'), podText);
  const podName = /web-[a-z0-9]+-[a-z0-9]{5}/.exec(podText)[0];
  await podUnder.click();
  await panel.locator('.object-details h2', { hasText: `Pod default/${podName}` }).waitFor();
  check('clicking a pod in the tree opens its details in the panel', true, podName);
  // The sidebar also holds the etcd members' view now, so the Cluster tree's Events group may be
  // below the fold (the tree renders only the rows in view): fold the node, then scroll to it.
  await nodeRow.locator('.monaco-tl-twistie').click();
  const eventsGroup = page.locator('.pane-body .monaco-list-row', { hasText: /^\s*Events/ }).first();
  for (let i = 0; i < 30 && !(await eventsGroup.isVisible()); i++) {
    await nodeRow.hover();
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(100);
  }
  await eventsGroup.click();
  const eventRow = page.locator('.pane-body .monaco-list-row', { hasText: /^\s*\d+[smh] ago · / }).first();
  for (let i = 0; i < 30 && !(await eventRow.isVisible()); i++) {
    await eventsGroup.hover();
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(100);
  }
  await eventRow.waitFor();
  check('events show their age', true, (await eventRow.innerText()).replace(/\s+/g, ' ').trim());
  await shot('07-tree-details-dark');
  await page.keyboard.press('Control+B');
  await panel.locator('#details-close').click();

  await setTheme('light');
  await showPanel();
  await panel.locator('#story-root').click();
  await panel.locator('#story-root vscode-option', { hasText: 'Deployment default/web' }).first().click();
  await storyUntil('the Deployment\u2019s story again', (s) => s.title.endsWith('Deployment default/web'));
  // The picker closes once the story is read (a click on the story's heading).
  await panel.locator('#view-story .story-header h2').click();
  await page.waitForTimeout(500);
  await shot('03-apply-light');
} catch (err) {
  error = err;
} finally {
  const ok = await wb.finish(error, 'ui story e2e');
  fs.rmSync(folder, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}
