// The object graph during a rolling update in a RUNNING code-server with headless Chromium:
// applies examples/web.yaml from the command palette in a fresh workspace, opens the control
// plane's Graph tab, applies examples/web-v2.yaml (a new image) and asserts what the graph draws
// through its model layer (window.kubesimPanel.graph(): which ReplicaSet is new and which old,
// where each is drawn, the Terminating pods until they are gone, the owner, routing and
// selector edges, the status colours), then the keyboard, the details on click, replay back to
// before the apply, and the light and high-contrast themes. Screenshots of each.
//   node test/e2e/ui-graph.mjs [--url http://127.0.0.1:8123] [--shots test/e2e/screenshots] [--prefix ui-graph-]
// Exit code 0 when every check passes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from './browser.mjs';
import { openWorkbench } from './workbench.mjs';

const opt = parseArgs(process.argv.slice(2), {
  url: process.env.CS_URL || 'http://127.0.0.1:8123',
  shots: 'test/e2e/screenshots',
  prefix: 'ui-graph-',
  timeout: '60000',
  'dev-ext': '.',
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-ui-graph-'));
for (const f of ['web.yaml', 'web-v2.yaml']) fs.copyFileSync(path.join('examples', f), path.join(folder, f));
// The other workload controllers: their pods hang off them on the graph.
fs.writeFileSync(
  path.join(folder, 'workloads.yaml'),
  `apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent, namespace: default }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec: { containers: [{ name: agent, image: busybox:1.36 }] }
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: default }
spec:
  replicas: 2
  serviceName: db
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec: { containers: [{ name: db, image: postgres:16 }] }
---
apiVersion: batch/v1
kind: Job
metadata: { name: once, namespace: default }
spec:
  template:
    spec: { restartPolicy: Never, containers: [{ name: once, image: busybox:1.36 }] }
`,
);

const wb = await openWorkbench(opt, folder, opt.prefix);
const { page, panel, check, shot, palette, apply, showPanel, until } = wb;
const graph = () => panel.locator('body').evaluate(() => window.kubesimPanel.graph());
const graphUntil = (what, ok, timeout = 90_000) => until(what, () => window.kubesimPanel.graph(), (g) => !g.pending && ok(g), timeout);
const ofKind = (g, kind) => g.nodes.filter((n) => n.kind === kind && n.namespace === 'default');
const webSets = (g) => ofKind(g, 'ReplicaSet').filter((n) => n.name.startsWith('web-'));
const webPods = (g) => ofKind(g, 'Pod').filter((n) => n.name.startsWith('web-'));
const setTheme = async (name, cls) => {
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': name }));
  await page.waitForFunction((c) => document.querySelector('.monaco-workbench')?.classList.contains(c), cls);
};

let error;
try {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'web.yaml' }).first().waitFor();
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => undefined);
  await setTheme('Default Dark Modern', 'vs-dark');
  await palette('KubeSim: Show Control Plane');
  await panel.locator('#tab-graph').waitFor();
  await page.keyboard.press('Control+B');
  await page.locator('.part.sidebar').waitFor({ state: 'hidden' });

  await apply('web.yaml', 'deployment.apps/web');
  await showPanel();
  await panel.locator('#tab-graph').click();
  const one = await graphUntil('the Deployment 3/3 ready, its ReplicaSet and three Ready pods behind the Service', (g) => webSets(g).length === 1 && webPods(g).length === 3 && webPods(g).every((p) => p.tone === 'ready') && ofKind(g, 'EndpointSlice').some((s) => s.name.startsWith('web-') && s.endpoints.filter((e) => e.condition === 'ready').length === 3) && ofKind(g, 'Deployment').some((d) => d.name === 'web' && d.status === '3/3 ready'));
  const [rs1] = webSets(one);
  const dep = ofKind(one, 'Deployment').find((n) => n.name === 'web');
  const svc = ofKind(one, 'Service').find((n) => n.name === 'web');
  const slice = ofKind(one, 'EndpointSlice').find((n) => n.name.startsWith('web-'));
  const has = (g, type, from, to) => g.edges.some((e) => e.type === type && e.from === from && e.to === to);
  check(
    'Deployment -> ReplicaSet -> Pods and Service -> EndpointSlice -> endpoints -> Pods, with owner and routing edges',
    has(one, 'owner', dep.id, rs1.id) && webPods(one).every((p) => has(one, 'owner', rs1.id, p.id) && has(one, 'routing', slice.id, p.id)) && has(one, 'owner', svc.id, slice.id),
    one.edges.map((e) => `${e.type} ${e.from} -> ${e.to}`),
  );
  const xs = [dep, rs1, webPods(one)[0], slice, svc].map((n) => n.rect.x);
  check('the columns stand left to right: Deployments, ReplicaSets, Pods, EndpointSlices, Services', xs.every((x, i) => i === 0 || x > xs[i - 1]), xs);
  check('the ReplicaSet says it is the new one, revision 1', rs1.role === 'new' && rs1.revision === 1 && dep.status === '3/3 ready', { rs1, dep: dep.status });
  const ready = await panel.locator('body').evaluate(() => window.kubesimPanel.map().colorOf('ready'));
  check('Ready pods are drawn in the theme\u2019s Ready colour (charts green), as on the map', webPods(one).every((p) => p.color === ready), { ready, pods: webPods(one).map((p) => p.color) });
  const hit = await panel.locator('body').evaluate((_, [x, y]) => window.kubesimPanel.graph().at(x, y), [rs1.rect.x + 20, rs1.rect.y + 20]);
  check('the hit-test finds the ReplicaSet under its box', hit === rs1.id, hit);
  check('ELK laid the graph out in its Web Worker (blob: worker under the panel\u2019s CSP), not on the main thread', one.layoutThread === 'worker', { layoutThread: one.layoutThread, layoutMs: one.layoutMs });
  const scale = await panel.locator('body').evaluate(() => window.kubesimPanel.graphView.camera().scale);
  check('the auto-fit keeps the boxes readable: the columns fit the width, at least 0.8', scale >= 0.8, { scale });
  await shot('01-dark');

  // The rolling update: web-v2.yaml changes the image.
  await apply('web-v2.yaml', 'deployment.apps/web');
  await showPanel();
  const seen = { both: false, newAbove: true, oldMovedDown: false, terminating: new Set(), terminatingFromOld: true, shot: false, orders: [] };
  const end = Date.now() + 120_000;
  let last;
  for (;;) {
    const g = await graph();
    last = g;
    const sets = webSets(g);
    if (sets.length === 2) {
      const n = sets.find((s) => s.role === 'new');
      const o = sets.find((s) => s.role === 'old');
      if (n && o) {
        seen.both = true;
        seen.orders.push(`${n.revision}:${n.order}/${o.revision}:${o.order}`);
        if (!g.pending && !(n.rect.y < o.rect.y && n.order < o.order && n.revision === 2 && o.revision === 1)) seen.newAbove = false;
        if (o.id === rs1.id && o.rect.y > rs1.rect.y) seen.oldMovedDown = true;
        for (const p of webPods(g).filter((p) => p.tone === 'terminating')) {
          seen.terminating.add(p.id);
          if (!g.edges.some((e) => e.type === 'owner' && e.from === o.id && e.to === p.id)) seen.terminatingFromOld = false;
        }
      }
    }
    const done = sets.length === 2 && sets.find((s) => s.role === 'new')?.status === '3/3 ready' && sets.find((s) => s.role === 'old')?.status === 'scaled down' && webPods(g).length === 3 && webPods(g).every((p) => p.tone === 'ready');
    if (done && !g.pending) break;
    if (Date.now() > end) throw new Error(`timed out waiting for the rollout to finish: ${JSON.stringify(sets)}`);
    await page.waitForTimeout(150);
  }
  check('during the rollout both ReplicaSets are drawn, the new (revision 2) above the old (revision 1)', seen.both && seen.newAbove, seen.orders.slice(0, 12));
  check('the old ReplicaSet visibly moves down as the new one appears above it', seen.oldMovedDown, { before: rs1.rect.y });
  const after = last;
  check('when the rollout is done the old ReplicaSet is scaled down below the new', webSets(after)[0].role === 'new' && webSets(after).find((s) => s.role === 'old').rect.y > webSets(after).find((s) => s.role === 'new').rect.y, { sets: webSets(after).map((s) => `${s.name} ${s.role} ${s.status} y=${Math.round(s.rect.y)}`) });
  const newRs = webSets(after).find((s) => s.role === 'new');
  const afterSlice = ofKind(after, 'EndpointSlice').find((n) => n.name.startsWith('web-'));
  check('the Service routes to the three new pods, each endpoint ready', webPods(after).every((p) => has(after, 'owner', newRs.id, p.id) && after.edges.some((e) => e.type === 'routing' && e.from === afterSlice.id && e.to === p.id && e.condition === 'ready')), afterSlice.endpoints);
  await shot('03-rolled-out-dark');

  // Replay the rollout change by change, backwards from its end to the first apply's state:
  // the graph re-renders at each revision the timeline steps to.
  const timeline = panel.locator('canvas.timeline-canvas');
  await timeline.focus();
  let at = after.revision;
  let steps = 0;
  const replayed = { terminating: new Set(), fromOld: true, both: 0, newAbove: true, shot: false };
  while (at > one.revision && steps < 600) {
    await page.keyboard.press('ArrowLeft');
    const g = await graphUntil('the previous change', (x) => x.revision !== at);
    steps++;
    at = g.revision;
    const sets = webSets(g);
    const n = sets.find((x) => x.role === 'new');
    const o = sets.find((x) => x.role === 'old');
    if (n && o) {
      replayed.both++;
      // Before the Deployment controller records revision 2 on the Deployment, the revision-1
      // ReplicaSet is still its new one (drawn below the revision-2 one): what the store says.
      if (n.revision === 2 && !(n.rect.y < o.rect.y && n.order < o.order)) replayed.newAbove = false;
      if (n.revision !== 2) replayed.early = (replayed.early ?? 0) + 1;
      for (const p of webPods(g).filter((p) => p.tone === 'terminating')) {
        replayed.terminating.add(p.id);
        if (!g.edges.some((e) => e.type === 'owner' && e.from === o.id && e.to === p.id)) replayed.fromOld = false;
        if (!replayed.shot) {
          replayed.shot = true;
          await shot('02-rollout-dark');
        }
      }
    }
  }
  check('replayed change by change, the old pods are drawn Terminating under the old ReplicaSet, the new one above it', replayed.terminating.size >= 1 && replayed.fromOld && replayed.both > 0 && replayed.newAbove, { steps, terminating: [...replayed.terminating], both: replayed.both, newAbove: replayed.newAbove, fromOld: replayed.fromOld, early: replayed.early });
  check('the Terminating pods are gone at the end of the rollout', [...replayed.terminating].every((id) => !after.nodes.some((n) => n.id === id)));
  await panel.locator('#timeline-live').click();
  await graphUntil('live again', (g) => g.revision === after.revision || g.revision > after.revision);
  const scrubbedScale = await panel.locator('body').evaluate(() => window.kubesimPanel.graphView.camera());
  check('after the scrub the auto-fit still fits the columns to the width (the picture does not shrink to fit its height)', scrubbedScale.autoFit && scrubbedScale.scale >= 0.8, scrubbedScale);

  // A click opens the shared details view; the keyboard moves along the columns.
  const box = await panel.locator('svg.graph-svg').boundingBox();
  await page.mouse.click(box.x + newRs.rect.x + 30, box.y + newRs.rect.y + 30);
  await panel.locator('.object-details h2', { hasText: `ReplicaSet default/${newRs.name}` }).waitFor();
  check('a click on a box opens its details (the same view as the map\u2019s)', true);
  await page.keyboard.press('ArrowDown');
  const down = await graph();
  check('ArrowDown moves to the next ReplicaSet in the column (the old one)', down.focused === webSets(after).find((s) => s.role === 'old').id, down.focused);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const left = await graph();
  check('ArrowLeft goes to the owner (the Deployment)', left.focused === dep.id, left.focused);
  const announced = await panel.locator('.graph-view .sr-only').innerText();
  check('the focused box is announced with its status sentence', /^Deployment default\/web: 3 desired/.test(announced), announced);
  await panel.locator('#details-close').click();
  const closedScale = await panel.locator('body').evaluate(() => window.kubesimPanel.graphView.camera());
  check('after the details pane opened and closed (and the keyboard moved the focus) the zoom fits the width again', closedScale.autoFit && closedScale.scale >= 0.8, closedScale);

  // Replay: back to before the apply, the graph shows only what was there.
  await panel.locator('canvas.timeline-canvas').focus();
  await page.keyboard.press('Home');
  const back = await graphUntil('the graph before the apply', (g) => g.revision !== undefined && g.revision < (one.revision ?? 0) && webPods(g).length === 0);
  check('scrubbed back to before the apply, the graph has no web Deployment, ReplicaSet or pods', ofKind(back, 'Deployment').length === 0 && webSets(back).length === 0, { revision: back.revision, nodes: back.nodes.map((n) => n.id) });
  await panel.locator('#timeline-live').click();
  await graphUntil('live again', (g) => webSets(g).length === 2);

  await setTheme('Default Light Modern', 'vs');
  await showPanel();
  const lightEnd = Date.now() + 20_000;
  let light;
  while (Date.now() < lightEnd) {
    light = await graph();
    if (webPods(light)[0]?.color && webPods(light)[0].color !== ready) break;
    await page.waitForTimeout(200);
  }
  check('the graph takes the light theme\u2019s colours', webPods(light)[0]?.color !== ready, { dark: ready, light: webPods(light)[0]?.color });
  await shot('04-light');
  await setTheme('Default High Contrast', 'hc-black');
  await page.waitForTimeout(500);
  await shot('05-high-contrast');

  // DaemonSet, StatefulSet and Job: each pod under its owner, with the controller's counts.
  await setTheme('Default Dark Modern', 'vs-dark');
  await apply('workloads.yaml', 'daemonset.apps/agent');
  await showPanel();
  await panel.locator('#tab-graph').click();
  const owned = (g, kind, prefix) => ofKind(g, 'Pod').filter((p) => p.name.startsWith(prefix)).every((p) => g.edges.some((e) => e.type === 'owner' && e.to === p.id && e.from.startsWith(`${kind}/default/`)));
  const w = await graphUntil('the DaemonSet, StatefulSet and Job with their pods', (g) => ofKind(g, 'DaemonSet').length === 1 && ofKind(g, 'StatefulSet')[0]?.status === '2/2 ready' && ofKind(g, 'Pod').filter((p) => p.name.startsWith('db-')).length === 2 && ofKind(g, 'Pod').some((p) => p.name.startsWith('once-')) && ofKind(g, 'Pod').some((p) => p.name.startsWith('agent-')));
  check('DaemonSet, StatefulSet and Job pods hang off their owners (no pod floats ownerless)', owned(w, 'DaemonSet', 'agent-') && owned(w, 'StatefulSet', 'db-') && owned(w, 'Job', 'once-'), w.nodes.filter((n) => n.column === 1).map((n) => `${n.id} ${n.status}`));
  check('they stand in the pod owners\u2019 column, below the ReplicaSets', ['DaemonSet', 'StatefulSet', 'Job'].every((k) => ofKind(w, k).every((n) => n.column === 1 && n.rect.y > Math.max(...webSets(w).map((r) => r.rect.y)))), w.nodes.filter((n) => n.column === 1).map((n) => `${n.id} y=${Math.round(n.rect.y)}`));
  await shot('06-workloads-dark');
} catch (err) {
  error = err;
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
}
const ok = await wb.finish(error, 'ui graph e2e');
process.exit(ok ? 0 : 1);
