// Headless Chromium (Debian's /usr/bin/chromium through playwright-core) for driving code-server.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function parseArgs(argv, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const key = a.slice(2);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out[key] = true;
    else out[key] = next, i++;
  }
  return out;
}

/** The workbench URL for a folder; a development extension and tests go in the `payload`. */
export function workbenchUrl(base, folder, { devExt, tests } = {}) {
  const host = new URL(base).host;
  const payload = [['skipWelcome', 'true']];
  if (devExt) payload.push(['extensionDevelopmentPath', `vscode-remote://${host}${path.resolve(devExt)}`]);
  if (tests) payload.push(['extensionTestsPath', `vscode-remote://${host}${path.resolve(tests)}`]);
  return `${base.replace(/\/$/, '')}/?folder=${encodeURIComponent(path.resolve(folder))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** Chromium writes ~/.config/chromium and ~/.cache/dconf: it gets a throwaway HOME. */
export async function launch(executablePath = process.env.CHROMIUM || '/usr/bin/chromium') {
  if (!fs.existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath} (apt-get install chromium)`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-e2e-browser-'));
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: `${home}/.config`, XDG_CACHE_HOME: `${home}/.cache` },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    async close() {
      await browser.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
