// The etcd view and the sidebar's etcd actions in a RUNNING code-server with headless Chromium:
// opens the control plane on its etcd tab in a fresh workspace and asserts what is drawn
// through its hit-test layer (window.kubesimPanel.etcd(): which member leads, terms, log
// lengths, messages in flight), stops the leader from the sidebar's inline action and waits
// for a new leader with a higher term to be drawn, starts it again, partitions a follower and
// heals it. The watch cache table and the watchers chart: what the API server's caches hold and
// serve, etcd's one watch per cache, the pods of an apply in the pods cache. Screenshots in the
// dark, light and high-contrast themes.
//   node test/e2e/ui-etcd.mjs [--url http://127.0.0.1:8123] [--shots test/e2e/screenshots] [--prefix ui-etcd-]
// Exit code 0 when every check passes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, parseArgs, workbenchUrl } from './browser.mjs';
import { quickInput, withRetries } from './workbench.mjs';

const opt = parseArgs(process.argv.slice(2), {
  url: process.env.CS_URL || 'http://127.0.0.1:8123',
  shots: 'test/e2e/screenshots',
  prefix: 'ui-etcd-',
  timeout: '60000',
  'dev-ext': '.',
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-ui-etcd-'));
fs.copyFileSync(path.join('examples', 'web.yaml'), path.join(folder, 'web.yaml'));
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
  // Notifications (a progress that ended, an operation's summary) would cover the picture.
  await page.keyboard.press('Escape').catch(() => undefined);
  await page.locator('.notifications-toasts .codicon-notifications-clear-all, .notification-toast .codicon-close').first().click({ timeout: 500 }).catch(() => undefined);
  const file = path.join(opt.shots, `${opt.prefix}${name}.png`);
  await page.screenshot({ path: file });
  console.log('screenshot', file);
};

const { palette, openFile } = quickInput(page);
const THEMES = { dark: ['Default Dark Modern', 'vs-dark'], light: ['Default Light Modern', 'vs'], 'high-contrast': ['Default High Contrast', 'hc-black'] };
const setTheme = async (kind) => {
  const [name, cls] = THEMES[kind];
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': name }));
  await page.waitForFunction((c) => document.querySelector('.monaco-workbench')?.classList.contains(c), cls);
};

const panel = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
const body = panel.locator('body');
const etcd = () => body.evaluate(() => window.kubesimPanel.etcd());
const etcdUntil = async (what, ok, timeout = 60_000) => {
  const end = Date.now() + timeout;
  let m;
  for (;;) {
    m = await etcd();
    if (ok(m)) return m;
    if (Date.now() > end) throw new Error(`timed out waiting for the etcd view: ${what} (${JSON.stringify({ leader: m.leader, members: m.members.map((x) => [x.name, x.role, x.state, x.term]) })})`);
    await page.waitForTimeout(200);
  }
};
/** The sidebar's row of a member, and one of its inline actions. */
const memberRow = (name) => page.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) }).first();
const inline = async (name, action) => {
  const row = memberRow(name);
  await row.hover();
  await row.locator(`.action-label[aria-label="${action}"]`).click();
};

try {
  await page.goto(workbenchUrl(opt.url, folder, { devExt: opt['dev-ext'] }));
  await page.locator('.monaco-workbench').waitFor();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'web.yaml' }).first().waitFor();
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => undefined);
  await setTheme('dark');

  await palette('KubeSim: Show etcd');
  await panel.locator('canvas.etcd-canvas').waitFor();
  const first = await etcdUntil('three members and a leader', (m) => m.members.length === 3 && m.leader);
  const lead = first.members.find((m) => m.name === first.leader);
  check('the etcd tab draws three members, one of them leader', first.members.filter((m) => m.role === 'leader').length === 1 && first.members.every((m) => m.state === 'running'), first.members.map((m) => `${m.name} ${m.role} t${m.term}`));
  check('every member is drawn at the leader\u2019s term with its log and commit index', first.members.every((m) => m.term === lead.term && m.logLength > 0 && m.commitIndex > 0 && m.appliedIndex <= m.commitIndex), first.members.map((m) => [m.name, m.term, m.logLength, m.commitIndex, m.appliedIndex]));
  const flying = await etcdUntil('a message in flight', (m) => m.inFlight.length > 0);
  const hb = flying.inFlight.find((x) => x.from === flying.leader || x.to === flying.leader);
  check('Raft messages are drawn in flight between the leader and its followers', hb && flying.members.some((m) => m.name === hb.to), flying.inFlight.slice(0, 4).map((x) => `${x.msgType} ${x.from}->${x.to} ${x.progress.toFixed(2)}`));
  check('the db size chart draws the engine\u2019s figure', flying.charts.find((c) => c.field === 'dbSizeBytes')?.reported && flying.charts.find((c) => c.field === 'dbSizeBytes').last > 0, flying.charts);
  const axes = flying.charts.filter((c) => c.axis);
  const rel = axes.map((c) => (c.cursorX === undefined ? undefined : (c.cursorX - c.x) / c.w));
  check('the charts share one time axis and draw the cursor at the same place in each, inside its box', axes.length >= 3 && axes.every((c) => c.axis.t0 === axes[0].axis.t0 && c.axis.t1 === axes[0].axis.t1) && rel.every((r) => r !== undefined && r > 0 && r < 1 && Math.abs(r - rel[0]) < 0.01), axes.map((c) => ({ field: c.field, axis: c.axis, cursorX: c.cursorX, x: c.x, w: c.w })));
  // Positions and the hit-test read in one go: the canvas may have been laid out again since `first`.
  const hit = await body.evaluate(() => {
    const e = window.kubesimPanel.etcd();
    const m = e.members.find((x) => x.name === e.leader);
    return m ? { leader: m.name, at: e.at(m.x, m.y), x: m.x, y: m.y } : { leader: undefined };
  });
  check('the hit-test finds the leader under its circle', hit.leader !== undefined && hit.at === hit.leader, hit);

  // The watch cache: drawn from the same frame as the members, busiest first, the cut accounted for.
  const cached = await etcdUntil('the watch cache table', (m) => m.watchCache?.reported && m.watchCache.rows.length > 0);
  const wc = cached.watchCache;
  const byWatchers = wc.rows.every((r, i) => i === 0 || wc.rows[i - 1].watchers >= r.watchers);
  check('the watch cache table lists resources busiest first, and what it does not show adds up to the totals', byWatchers && wc.rows.length + wc.hidden.resources === wc.resources && wc.rows.reduce((n, r) => n + r.watchers, 0) + wc.hidden.watchers === wc.watchers && wc.rows.reduce((n, r) => n + r.objects, 0) + wc.hidden.objects === wc.objects, { rows: wc.rows.map((r) => `${r.resource} rv${r.resourceVersion} o${r.objects} w${r.watchers}`), hidden: wc.hidden });
  check('the controllers’ informers are served by the caches; etcd serves one watch per cache', wc.watchers > 0 && wc.etcdWatchers > 0 && wc.etcdWatchers <= wc.resources, { apiserver: wc.watchers, etcd: wc.etcdWatchers, resources: wc.resources });
  check('no cache is ahead of etcd’s revision', wc.etcdRevision !== undefined && wc.rows.every((r) => r.resourceVersion <= wc.etcdRevision), { etcd: wc.etcdRevision, rows: wc.rows.map((r) => r.resourceVersion) });
  const rowBoxes = wc.rows.every((r) => r.x >= wc.x && r.x + r.w <= wc.x + wc.w + 1 && r.y >= wc.y && r.y + r.h <= wc.y + wc.h + 1);
  const chartsTop = Math.min(...cached.charts.map((c) => c.y));
  check('the table’s rows are drawn inside its box, above the charts', rowBoxes && wc.y + wc.h <= chartsTop, { box: [wc.x, wc.y, wc.w, wc.h], chartsTop });
  const wchart = cached.charts.find((c) => c.field === 'watchers');
  const apiLine = wchart.lines.find((l) => l.key === 'apiserverWatchers');
  check('the watchers chart draws the API server’s watchers beside etcd’s, from the same frames', apiLine?.points > 0 && apiLine.atCursor === wc.watchers && wchart.atCursor === wc.etcdWatchers, wchart.lines);
  const hover = await body.evaluate((_, [x, y]) => window.kubesimPanel.etcdView.describeAt(x, y), [wc.rows[0].x + 20, wc.rows[0].y + wc.rows[0].h / 2]);
  check('hovering a row tells its figures', hover.startsWith(`${wc.rows[0].resource}: watch cache at resource version ${wc.rows[0].resourceVersion}`), hover);

  // An apply: its pods land in the pods cache, which the kubelets' and controllers' watches read.
  await openFile('web.yaml');
  await palette('KubeSim: Apply Current Manifest');
  await page.locator('.notifications-toasts .notification-list-item-message', { hasText: 'deployment.apps/web' }).first().waitFor();
  await palette('Notifications: Clear All Notifications');
  await palette('KubeSim: Show etcd');
  const applied = await etcdUntil('the pods of web.yaml in the pods cache', (m) => (m.watchCache?.rows.find((r) => r.resource === 'pods')?.objects ?? 0) >= 3);
  const podsRow = applied.watchCache.rows.find((r) => r.resource === 'pods');
  check('the pods cache holds the applied pods and serves their watchers', podsRow.objects >= 3 && podsRow.watchers > 0 && podsRow.resourceVersion > (wc.rows.find((r) => r.resource === 'pods')?.resourceVersion ?? 0), podsRow);

  // The lens: paused, it stays at an instant; a step moves to the next message record, and what is
  // drawn in the air is what the records place there at that instant.
  await panel.locator('#etcd-lens-play').click();
  const paused = await etcdUntil('the lens paused', (m) => !m.lens.playing);
  await panel.locator('#etcd-lens-next').click();
  const stepped = await etcdUntil('a step to the next message record', (m) => m.time !== paused.time);
  check('Step moves the etcd view to the next message record (virtual time moves forward, members from the frame before it)', stepped.time > paused.time && stepped.frameTime <= stepped.time, { from: paused.time, to: stepped.time });
  check('messages drawn at the instant are placed by their records (sent at or before it, arriving after it)', stepped.inFlight.every((x) => x.sentAt <= stepped.time && (x.endAt === undefined || x.endAt >= stepped.time || x.state !== 'flying')), stepped.inFlight.map((x) => `${x.msgType} ${x.from}->${x.to} ${x.progress.toFixed(2)}`));
  await panel.locator('#etcd-lens-play').click();

  // Maintenance from the view: Compact answers with etcdctl's line.
  await panel.locator('#etcd-compact').click();
  await panel.locator('.etcd-result', { hasText: 'compacted revision' }).waitFor();
  check('Compact from the etcd view answers with etcdctl’s line', true, await panel.locator('.etcd-result').innerText());

  // The sidebar's etcd section, with each member's role.
  await palette('KubeSim: Focus on etcd View', 'etcd');
  await memberRow(lead.name).waitFor();
  const leaderText = await memberRow(lead.name).innerText();
  check('the sidebar lists the members, the leader as leader', /leader · term \d+/.test(leaderText), leaderText);
  await shot('01-dark');

  // Stop the leader from its inline action: a new leader with a higher term is drawn.
  await inline(lead.name, 'Stop etcd Member');
  const stopped = await etcdUntil('the old leader stopped', (m) => m.members.find((x) => x.name === lead.name)?.state === 'stopped');
  check('the stopped leader is drawn stopped', stopped.members.find((x) => x.name === lead.name).state === 'stopped');
  const elected = await etcdUntil('a new leader', (m) => m.leader && m.leader !== lead.name, 30_000);
  const next = elected.members.find((m) => m.name === elected.leader);
  check('a new leader is elected and drawn with a higher term', next.term > lead.term, { old: [lead.name, lead.term], now: [next.name, next.term] });
  await memberRow(lead.name).locator('.label-description', { hasText: 'stopped' }).waitFor();
  check('the sidebar shows the old leader stopped', true, await memberRow(lead.name).innerText());
  await shot('02-new-leader-dark');

  // Start it again: it rejoins as a follower of the new leader and catches up.
  await inline(lead.name, 'Start etcd Member');
  const back = await etcdUntil('the old leader caught up', (m) => {
    const x = m.members.find((y) => y.name === lead.name);
    return x?.state === 'running' && x.role === 'follower' && x.term === next.term && x.commitIndex >= next.commitIndex;
  });
  check('the restarted member follows at the new term and catches up', back.leader === next.name, back.members.map((m) => [m.name, m.role, m.term, m.commitIndex]));

  // Partition a follower, then heal it from the sidebar.
  const follower = back.members.find((m) => m.role === 'follower').name;
  // From the row's context menu. In one CI run the chosen item did not run (why is not found: the
  // menu stays open through the members' refreshes, checked over 5 s five times): open it again,
  // saying so, if the partition has not happened in 10 s.
  await withRetries(
    async (timeout) => {
      await memberRow(follower).click({ button: 'right' });
      const item = page.locator('.context-view .action-label', { hasText: 'Partition etcd Member' });
      await item.waitFor();
      await item.hover();
      await page.keyboard.press('Enter');
      await etcdUntil('the follower partitioned', (m) => m.members.find((x) => x.name === follower)?.partitioned, timeout);
    },
    {
      ms: 10_000,
      again: async (attempt) => {
        console.log(`the context menu's Partition etcd Member did not run (attempt ${attempt}); opening the menu again`);
        await page.keyboard.press('Escape');
      },
    },
  );
  check('a partitioned follower is drawn cut off', true, follower);
  await page.waitForTimeout(1500);
  await shot('03-partitioned-dark');
  await inline(follower, 'Heal etcd Member');
  const healed = await etcdUntil('healed', (m) => m.members.every((x) => !x.partitioned && x.state === 'running') && m.leader);
  check('after Heal every member is running and connected, with a leader', healed.members.length === 3, healed.members.map((m) => [m.name, m.role, m.term]));
  // After Compact and the stopped leader, every watch cache still has its etcd watch (a watch
  // moved from a compacted revision is canceled by etcd: the cache lists and watches again).
  const fed = await etcdUntil('one etcd watch per watch cache', (m) => m.watchCache && m.watchCache.etcdWatchers === m.watchCache.resources, 15_000).catch(() => undefined);
  const fedNow = fed ?? (await etcd());
  check('after the faults every watch cache is fed by its own etcd watch', fed !== undefined, { etcdWatchers: fedNow.watchCache?.etcdWatchers, resources: fedNow.watchCache?.resources });

  await setTheme('light');
  await page.waitForTimeout(1500);
  await shot('04-light');
  await setTheme('high-contrast');
  await page.waitForTimeout(1500);
  await shot('05-high-contrast');
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
console.log(`ui etcd e2e: ${ok ? 'passed' : 'FAILED'} in ${Date.now() - t0} ms`);
process.exit(ok ? 0 : 1);
