// The cluster map, the scheduler's verdicts, replay and the map's filters in a RUNNING
// code-server with headless Chromium: applies examples/web.yaml and examples/pending.yaml from
// the command palette in a fresh workspace (a copy of both, so no saved cluster is restored),
// opens the control plane, and asserts what the map draws through its hit-test layer
// (window.kubesimPanel.map(): which pod is in which node, in which tone, and the canvas pixel
// there). Screenshots in the dark and the light theme.
//   node test/e2e/ui-map.mjs [--url http://127.0.0.1:8123] [--shots test/e2e/screenshots] [--prefix ui-map-]
// Exit code 0 when every check passes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, parseArgs, workbenchUrl } from './browser.mjs';
import { quickInput } from './workbench.mjs';

const opt = parseArgs(process.argv.slice(2), {
  url: process.env.CS_URL || 'http://127.0.0.1:8123',
  shots: 'test/e2e/screenshots',
  prefix: 'ui-map-',
  timeout: '60000',
  'dev-ext': '.',
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-ui-map-'));
for (const f of ['web.yaml', 'pending.yaml']) fs.copyFileSync(path.join('examples', f), path.join(folder, f));
fs.mkdirSync(opt.shots, { recursive: true });

const t0 = Date.now();
const results = [];
const check = (name, ok, detail) => {
  results.push({ name, ok: Boolean(ok) });
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail === undefined ? '' : ` :: ${JSON.stringify(detail).slice(0, 600)}`}`);
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

const { palette, openFile, apply } = quickInput(page);
/** VS Code's own themes, through the workspace's settings (VS Code applies them as they change). */
const THEMES = { dark: ['Default Dark Modern', 'vs-dark'], light: ['Default Light Modern', 'vs'], 'high-contrast': ['Default High Contrast', 'hc-black'] };
const setTheme = async (kind) => {
  const [name, cls] = THEMES[kind];
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': name }));
  await page.waitForFunction((c) => document.querySelector('.monaco-workbench')?.classList.contains(c), cls);
};

const panel = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
const body = panel.locator('body');
const map = () => body.evaluate(() => window.kubesimPanel.map());
const canvas = panel.locator('canvas.map-canvas');
/** Waits until the map's hit-test layer satisfies `ok` (the webview syncs and redraws asynchronously). */
const mapUntil = async (what, ok, timeout = 60_000) => {
  const end = Date.now() + timeout;
  let m;
  for (;;) {
    m = await map();
    if (ok(m)) return m;
    if (Date.now() > end) throw new Error(`timed out waiting for the map: ${what} (${JSON.stringify({ revision: m.revision, queue: m.queue, nodes: m.nodes.map((n) => [n.name, n.pods.length]) })})`);
    await page.waitForTimeout(250);
  }
};
const clickPod = async (key) => {
  const m = await map();
  const p = m.pods.find((x) => x.key === key);
  const box = await canvas.boundingBox();
  await page.mouse.click(box.x + p.rect.x + p.rect.w / 2, box.y + p.rect.y + p.rect.h / 2);
};
const webPods = (m) => m.pods.filter((p) => p.key.startsWith('default/web-'));

try {
  await page.goto(workbenchUrl(opt.url, folder, { devExt: opt['dev-ext'] }));
  await page.locator('.monaco-workbench').waitFor();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'web.yaml' }).first().waitFor();
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => undefined);
  await setTheme('dark');

  // The panel first: the history it replays begins before the applies.
  await palette('KubeSim: Show Control Plane');
  await canvas.waitFor();
  // The map gets the window's width: the side bar closed (Ctrl+B), as a learner would.
  await page.keyboard.press('Control+B');
  await page.locator('.part.sidebar').waitFor({ state: 'hidden' });
  const first = await mapUntil('the nodes', (m) => m.nodes.length >= 4);
  check('the map opens first and draws every node', first.nodes.length === 4 && first.nodes.some((n) => n.name === 'kubesim-control-plane' && n.state.includes('tainted')), first.nodes.map((n) => `${n.name} ${n.state} ${n.zone}`));
  const beforeApply = first.revision;

  await page.locator('.tabs-container .tab', { hasText: 'web.yaml' }).waitFor({ state: 'detached', timeout: 1 }).catch(() => undefined);
  await apply('web.yaml', 'deployment.apps/web');
  await page.locator('.tabs-container .tab', { hasText: 'KubeSim Control Plane' }).click();
  const ready = await mapUntil('three web pods Ready', (m) => webPods(m).length === 3 && webPods(m).every((p) => p.tone === 'ready'));
  const placed = webPods(ready);
  check('each web pod is drawn inside a worker node box, Ready', placed.every((p) => /^kubesim-worker\d?$/.test(p.node ?? '') && ready.nodes.find((n) => n.name === p.node)?.pods.includes(p.key)), placed.map((p) => `${p.key} in ${p.node}: ${p.toneLabel}`));
  // What is drawn: the canvas pixel at each pod's centre is its tone's theme colour.
  const pixels = [];
  for (const p of placed) pixels.push({ key: p.key, want: p.color, got: await body.evaluate((_, [x, y]) => window.kubesimPanel.map().pixel(x, y), [p.rect.x + p.rect.w / 2, p.rect.y + p.rect.h / 2]) });
  check('the squares are painted in the Ready colour (the theme\u2019s charts green)', pixels.every((x) => x.want === x.got), pixels);
  const hit = await body.evaluate((_, [x, y]) => window.kubesimPanel.map().at(x, y), [placed[0].rect.x + 2, placed[0].rect.y + 2]);
  check('the hit-test finds the pod under its square', hit?.pod === placed[0].key && hit?.node === placed[0].node, hit);
  await shot('01-dark');

  // A pod that fits nowhere: it waits in the scheduling queue; selecting it paints the verdicts.
  await apply('pending.yaml', 'pod/big');
  await page.locator('.tabs-container .tab', { hasText: 'KubeSim Control Plane' }).click();
  const queued = await mapUntil('the big pod in the queue', (m) => m.queue.includes('default/big'));
  check('an unbound pod waits in the scheduling queue lane, Pending', queued.pods.find((p) => p.key === 'default/big')?.tone === 'pending', queued.queue);
  await clickPod('default/big');
  const judged = await mapUntil('the verdicts', (m) => m.nodes.every((n) => n.verdict));
  const verdicts = Object.fromEntries(judged.nodes.map((n) => [n.name, n.verdict]));
  check(
    'selecting the pending pod paints every node with the scheduler\u2019s verdict, with the amounts',
    judged.nodes.filter((n) => n.name.startsWith('kubesim-worker')).every((n) => /^rejected: NodeResourcesFit: Insufficient cpu: 64 requested, [\d.]+ free of 4/.test(n.verdict)) &&
      /^rejected: TaintToleration: /.test(verdicts['kubesim-control-plane'] ?? ''),
    verdicts,
  );
  check('the verdict headline is the FailedScheduling message', /0\/4 nodes are available/.test(judged.verdictHeadline ?? ''), judged.verdictHeadline);
  const details = panel.locator('.object-details');
  await details.locator('h2', { hasText: 'Pod default/big' }).waitFor();
  await details.locator('.detail-items.events', { hasText: 'FailedScheduling' }).waitFor();
  check('the details open on the pod with its FailedScheduling event', true);
  // An event's age reads as kubectl get events prints it ("0s", "12s", "3m20s"), never raw milliseconds.
  const eventAge = (await details.locator('.detail-items.events li .hint').first().innerText()).trim();
  check('an event shows its age as kubectl does', /^(\d+[smhdy])+ ago\b/.test(eventAge), eventAge);
  await shot('02-pending-dark');

  // Filters: a label selector fades what it does not select, in place.
  await panel.locator('#map-filter-selector').click();
  await page.keyboard.type('app=web');
  const filtered = await mapUntil('the label filter', (m) => m.pods.filter((p) => p.matches).length === 3);
  check('the label selector app=web leaves the three web pods and fades the rest', filtered.pods.filter((p) => p.matches).every((p) => p.key.startsWith('default/web-')) && filtered.pods.some((p) => !p.matches), filtered.pods.map((p) => `${p.key}:${p.matches}`));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('app in (web');
  await panel.locator('.control-error', { hasText: 'unable to parse requirement' }).waitFor();
  check('a malformed selector is refused with the selector parser\u2019s error', true, await panel.locator('.control-error').first().innerText());
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await mapUntil('no filter', (m) => m.pods.every((p) => p.matches));

  // Replay: back to before the apply, then one change at a time, then live again.
  const timeline = panel.locator('canvas.timeline-canvas');
  await timeline.focus();
  await page.keyboard.press('Home');
  const back = await mapUntil('the state before the apply', (m) => m.revision !== undefined && m.revision <= beforeApply);
  check('scrubbing back to where history begins: before the apply, no web pods and no queue', webPods(back).length === 0 && back.queue.length === 0, { revision: back.revision, beforeApply });
  await shot('03-replay-dark');
  let stepped = back.revision;
  let steps = 0;
  let sawPending = false;
  while (steps < 400) {
    await page.keyboard.press('ArrowRight');
    const m = await mapUntil('the next change', (x) => x.revision !== stepped);
    steps++;
    stepped = m.revision;
    if (webPods(m).some((p) => p.tone === 'pending' || p.tone === 'creating')) sawPending = true;
    if (webPods(m).length === 3 && webPods(m).every((p) => p.tone === 'ready')) break;
  }
  check('Step to next change walks the apply write by write until the pods are Ready', sawPending && steps > 5, { steps, revision: stepped });
  const valueText = await timeline.getAttribute('aria-valuetext');
  check('the timeline says where replay stands', /^Replay · revision \d+ of \d+/.test(valueText ?? ''), valueText);
  await panel.locator('#timeline-live').click();
  const live = await mapUntil('live', (m) => m.queue.includes('default/big'));
  check('Live follows the cluster again', webPods(live).length === 3, live.revision);

  // Keyboard: the map's focus moves between nodes and announces them.
  await canvas.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  const announced = await panel.locator('.map-view .sr-only').innerText();
  check('arrow keys move between the map\u2019s nodes and announce them', /^kubesim-/.test(announced), announced);

  await setTheme('light');
  await page.locator('.tabs-container .tab', { hasText: 'KubeSim Control Plane' }).click();
  const lightReady = async () => body.evaluate(() => window.kubesimPanel.map().colorOf('ready'));
  const end = Date.now() + 20_000;
  while ((await lightReady()) === placed[0].color && Date.now() < end) await page.waitForTimeout(200);
  check('the map takes the light theme\u2019s colours', (await lightReady()) !== placed[0].color, { dark: placed[0].color, light: await lightReady() });
  await shot('04-pending-light');
  await panel.locator('#map-verdict-clear').click();
  await panel.locator('#details-close').click();
  await shot('05-light');
  await setTheme('high-contrast');
  await clickPod('default/big');
  await mapUntil('the verdicts in high contrast', (m) => m.nodes.every((n) => n.verdict));
  await page.waitForTimeout(300);
  await shot('06-pending-high-contrast');
} catch (err) {
  const [firstLine, ...callLog] = String(err?.message ?? err).split('\n');
  check('unexpected error', false, firstLine);
  if (callLog.length > 0) console.log(callLog.slice(0, 30).join('\n'));
  await shot('99-error').catch(() => undefined);
} finally {
  await close();
  fs.rmSync(folder, { recursive: true, force: true });
}

const ok = results.every((r) => r.ok);
console.log(`ui map e2e: ${ok ? 'passed' : 'FAILED'} in ${Date.now() - t0} ms`);
process.exit(ok ? 0 : 1);
