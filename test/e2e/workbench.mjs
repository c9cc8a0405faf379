// The workbench as a learner drives it, for the UI runs: a page at 1400x900 in a RUNNING
// code-server, the command palette, Quick Open, Apply with its notification, the theme through
// the workspace settings, the control-plane panel's frame and its model layer
// (window.kubesimPanel), and a check/shot log that ends the run with an exit code.
import fs from 'node:fs';
import path from 'node:path';
import { launch, workbenchUrl } from './browser.mjs';

export async function openWorkbench(opt, folder, prefix) {
  fs.mkdirSync(opt.shots, { recursive: true });
  const results = [];
  const check = (name, ok, detail) => {
    results.push({ name, ok: Boolean(ok) });
    console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail === undefined ? '' : ` :: ${JSON.stringify(detail).slice(0, 700)}`}`);
  };
  const { browser, close } = await launch(opt.chromium);
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  page.setDefaultTimeout(Number(opt.timeout ?? 60000));
  page.on('pageerror', (e) => console.log('[pageerror]', e.message.slice(0, 200)));
  const shot = async (name) => {
    const file = path.join(opt.shots, `${prefix}${name}.png`);
    await page.screenshot({ path: file });
    console.log('screenshot', file);
  };
  const { palette, openFile, apply } = quickInput(page);
  /** Default Dark Modern or Default Light Modern, through the workspace's settings. */
  const setTheme = async (kind) => {
    fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': kind === 'dark' ? 'Default Dark Modern' : 'Default Light Modern' }));
    await page.waitForFunction((dark) => document.querySelector('.monaco-workbench')?.classList.contains('vs-dark') === dark, kind === 'dark');
  };
  const panel = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  const showPanel = () => page.locator('.tabs-container .tab', { hasText: 'KubeSim Control Plane' }).click();
  /** Polls `read` in the panel (window.kubesimPanel) until `ok` holds. */
  const until = async (what, read, ok, timeout = 60_000) => {
    const end = Date.now() + timeout;
    let v;
    for (;;) {
      v = await panel.locator('body').evaluate(read);
      if (ok(v)) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 600)}`);
      await page.waitForTimeout(250);
    }
  };
  await page.goto(workbenchUrl(opt.url, folder, { devExt: opt['dev-ext'] }));
  await page.locator('.monaco-workbench').waitFor();
  const t0 = Date.now();
  return {
    page,
    panel,
    check,
    shot,
    palette,
    openFile,
    apply,
    setTheme,
    showPanel,
    until,
    async finish(err, label) {
      if (err) {
        const [firstLine, ...callLog] = String(err?.message ?? err).split('\n');
        check('unexpected error', false, firstLine);
        if (callLog.length > 0) console.log(callLog.slice(0, 30).join('\n'));
        await shot('99-error').catch(() => undefined);
      }
      await close();
      const ok = results.every((r) => r.ok);
      console.log(`${label}: ${ok ? 'passed' : 'FAILED'} in ${Date.now() - t0} ms`);
      return ok;
    },
  };
}

/**
 * Runs `step` up to `tries` times: each try but the last is given `ms` as its bound (the last runs
 * under the page's default timeout) and throws when its effect did not show in that time;
 * `again(attempt)` runs before the next try. For a UI action a focus race can swallow.
 */
export async function withRetries(step, { tries = 3, ms, again = async () => undefined }) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step(attempt < tries ? ms : undefined, attempt);
    } catch (err) {
      if (attempt >= tries) throw err;
      await again(attempt);
    }
  }
}

/**
 * The command palette, Quick Open and Apply Current Manifest with its notification, as a learner
 * uses them: for every UI run, whether it opens the workbench here or on its own.
 */
export function quickInput(page) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const widget = page.locator('.quick-input-widget');
  // A key pressed while a webview is taking the focus (the panel opening, a frame reloading) can
  // be swallowed before the webview forwards it to the workbench, and a quick input that did open
  // closes when a webview takes the focus from it: when the text cannot be typed in a few seconds,
  // open it again, the last time with the focus moved to the workbench.
  const open = (key, text) =>
    withRetries(async (timeout, attempt) => {
      await widget.waitFor({ state: 'hidden' });
      if (attempt === 3) await page.evaluate(() => document.activeElement?.blur?.());
      await page.keyboard.press(key);
      await input.fill(text, { timeout });
    }, { ms: 5000 });
  const palette = async (command, pick = command) => {
    await open('F1', `>${command}`);
    // Enter runs the focused row: wait until the list has filtered down to it (the list renders
    // after the input, so a row further down, or the last list's row, may hold the focus first).
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: pick }).first().waitFor();
    await page.keyboard.press('Enter');
  };
  const openFile = async (file) => {
    await open('Control+P', file);
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: file }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: file }).waitFor();
  };
  const apply = async (file, expect) => {
    await openFile(file);
    await palette('KubeSim: Apply Current Manifest');
    try {
      await page.locator('.notifications-toasts .notification-list-item-message', { hasText: expect }).first().waitFor();
    } catch (err) {
      // Say what the editor said instead: every notification it shows.
      await palette('Notifications: Show Notifications').catch(() => undefined);
      const said = await page.locator('.notifications-center .notification-list-item-message').allInnerTexts().catch(() => []);
      throw new Error(`applying ${file}: no notification "${expect}"; the notifications: ${JSON.stringify(said)} (${err.message.split('\n')[0]})`);
    }
    await palette('Notifications: Clear All Notifications');
  };
  return { palette, openFile, apply };
}
