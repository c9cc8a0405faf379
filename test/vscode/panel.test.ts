import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createCluster, type Cluster } from '../../src/engine/cluster';
import { SharedInformerFactory } from '../../src/engine/client/informer';
import { showPanel, type ControlPlanePanel, type PanelHost } from '../../src/extension/panel/index';
import { StateLog } from '../../src/extension/panel/state-log';
import { PanelFeed } from '../../src/extension/panel/feed';
import { EXTENSION_ID } from './support';

/** Waits for `ready` to hold, polling (webviews load asynchronously). */
async function until(what: string, ready: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function cspOf(html: string): Map<string, string[]> {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  assert.ok(content, 'the HTML has a Content-Security-Policy meta tag');
  const directives = new Map<string, string[]>();
  for (const part of content.replace(/&#39;|&apos;/g, "'").split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

const nonceOf = (html: string): string | undefined => /'nonce-([^']+)'/.exec(html)?.[1];

suite('kubesim control-plane panel', () => {
  let cluster: Cluster;
  let syncs = 0;
  let panel: ControlPlanePanel;
  const changed = new vscode.EventEmitter<void>();

  suiteSetup(async () => {
    cluster = await createCluster({ seed: 'panel-suite' });
    const factory = new SharedInformerFactory({ client: cluster.client(), clock: cluster.clock, random: cluster.random.fork('panel-suite'), component: 'panel-suite' });
    const state = new StateLog({ factory, trace: cluster.trace, clock: cluster.clock, machines: cluster.nodes().map((node) => ({ node, running: true })) });
    factory.start();
    await cluster.advance(0);
    const host: PanelHost = {
      connect: async (post) => {
        const feed = new PanelFeed({ trace: cluster.trace, client: cluster.client(), state, logs: cluster.logs }, post);
        const sync = (): Promise<void> => {
          syncs++;
          return feed.sync();
        };
        return { sync, hidden: () => feed.hidden(), read: (m) => feed.read(m), dispose: () => feed.dispose() };
      },
      onDidChangeCluster: changed.event,
    };
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    panel = showPanel({ extensionUri: extension.extensionUri, subscriptions: [] }, host);
  });

  suiteTeardown(async () => {
    panel.webviewPanel.dispose();
    changed.dispose();
    await cluster.close();
  });

  test('"Show Control Plane" opens the panel as an editor tab', async () => {
    await vscode.commands.executeCommand('kubesim.showControlPlane');
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    await until('the KubeSim Control Plane tab', () => tabs().some((t) => t.label === 'KubeSim Control Plane' && t.input instanceof vscode.TabInputWebview));
    const tab = tabs().find((t) => t.label === 'KubeSim Control Plane')!;
    assert.match((tab.input as vscode.TabInputWebview).viewType, /kubesim\.controlPlane$/);
  });

  test('the webview loads under its CSP, runs its script and asks the host for a sync', async () => {
    panel.reveal();
    await until('the webview to send "ready"', () => syncs > 0);
  });

  test('the CSP is strict: a nonce for scripts and styles, nothing remote, nothing inline', () => {
    const html = panel.html;
    const nonce = nonceOf(html);
    assert.ok(nonce && nonce.length >= 22, 'a nonce of at least 128 bits');
    const csp = cspOf(html);
    // cspSource is VS Code's origin for the extension's own files ("'self' https://*.vscode-cdn.net").
    const cspSource = panel.webviewPanel.webview.cspSource.split(/\s+/);
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.deepEqual(csp.get('script-src'), [`'nonce-${nonce}'`]);
    assert.deepEqual(csp.get('style-src'), [...cspSource, `'nonce-${nonce}'`]);
    assert.deepEqual(csp.get('img-src'), [...cspSource, 'data:']);
    assert.deepEqual(csp.get('font-src'), cspSource);
    // The graph's layout worker, from a blob: URL of the bundled script; nothing else may start one.
    assert.deepEqual(csp.get('worker-src'), ['blob:']);
    assert.equal(csp.get('connect-src'), undefined, 'no connections (default-src none)');
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
    // Every script carries the nonce and every resource is the extension's own, from dist/.
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    assert.ok(scripts.length > 0);
    for (const attrs of scripts) assert.match(attrs, new RegExp(`nonce="${nonce!.replace(/[+/=]/g, (c) => `\\${c}`)}"`));
    const urls = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    const own = panel.webviewPanel.webview.asWebviewUri(vscode.Uri.joinPath(vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri, 'dist')).toString();
    assert.deepEqual(
      urls.filter((u) => !u.startsWith(`${own}/`)),
      [],
      'no remote or foreign sources',
    );
    assert.doesNotMatch(html, /<script\b[^>]*>[^<\s]/, 'no inline script');
    const roots = panel.webviewPanel.webview.options.localResourceRoots?.map((u) => u.path.split('/').slice(-1)[0]);
    assert.deepEqual(roots, ['dist', 'media']);
  });

  test('each load gets a fresh nonce (hidden, then shown again)', async () => {
    const first = nonceOf(panel.html);
    const before = syncs;
    const doc = await vscode.workspace.openTextDocument({ content: 'elsewhere' });
    await vscode.window.showTextDocument(doc, { viewColumn: panel.webviewPanel.viewColumn });
    await until('the panel to be hidden', () => !panel.webviewPanel.visible);
    panel.reveal();
    await until('the reloaded webview to ask for a sync again', () => syncs > before);
    assert.notEqual(nonceOf(panel.html), first);
  });

  test('malformed messages from the webview are rejected and change nothing', async () => {
    const before = syncs;
    const hostile: unknown[] = [
      null,
      'ready',
      [{ type: 'ready' }],
      { type: 'exec', command: 'rm -rf /' },
      { type: 'ready', extra: true },
      { type: 'getRevision', requestId: 1, revision: -1, group: '', resource: 'secrets', namespace: 'kube-system', name: 'x' },
      { type: 'getRevision', requestId: 1, revision: 5, group: '', resource: 'secrets', namespace: 'kube-system', name: '../../etc/passwd' },
    ];
    for (const message of hostile) {
      const rejectedBefore = panel.rejected.length;
      const error = await panel.receive(message);
      assert.ok(error, `rejected: ${JSON.stringify(message)}`);
      assert.equal(panel.rejected.length, rejectedBefore + 1);
      assert.equal(panel.rejected.at(-1), error);
    }
    assert.equal(syncs, before, 'no rejected message reached the cluster');
    assert.equal(await panel.receive({ type: 'ready' }), undefined, 'a well-formed message still works');
    assert.equal(syncs, before + 1);
  });
});
