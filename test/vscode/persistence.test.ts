/**
 * The saved cluster in a real VS Code: a save that cannot be read (cut short, garbage) is moved
 * aside under a timestamped name and a warning names the path, a new cluster starts and is saved
 * in its place without touching the damaged file; a session that ends and starts again (what a
 * reload does to the extension host) brings the trace back with the cluster. Reload Window
 * itself, with the panel drawing the restored records, is test/e2e/ui-reload.mjs.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { KubeSimApi } from '../../src/extension/main';
import { EXTENSION_ID, repoPath } from './support';

function api(): KubeSimApi {
  return vscode.extensions.getExtension<KubeSimApi>(EXTENSION_ID)!.exports;
}

suite('kubesim saved cluster', () => {
  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  });
  suiteTeardown(async () => {
    await api().session.reset();
  });

  test('a truncated and a garbage save: moved aside, the user warned where, a new cluster saved in its place', async () => {
    const a = api();
    const path = a.savedCluster;
    assert.ok(path, 'a folder is open: the workspace has storage');
    await a.session.get();
    await a.session.save();
    const good = readFileSync(path, 'utf8');
    const damages: Array<[string, Buffer]> = [
      ['truncated', Buffer.from(good.slice(0, Math.floor(good.length / 3)))],
      ['garbage', Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 131 + 7) % 256))],
    ];
    for (const [what, bytes] of damages) {
      await a.session.dispose();
      writeFileSync(path, bytes);
      const notified = a.output.notifications.length;
      const host = await a.session.get();
      const warning = a.output.notifications.slice(notified).find((n) => n.severity === 'warning');
      assert.ok(warning, `${what}: a warning`);
      const m = /^KubeSim: the saved cluster could not be read \(not a KubeSim cluster snapshot: .*\); it was moved to (\S+\.damaged-\S+)\. A new cluster starts\.$/.exec(warning.message);
      assert.ok(!/[\u0000-\u001f\ufffd]/.test(warning.message), `one readable line: ${warning.message}`);
      assert.ok(m, warning.message);
      assert.deepEqual(readFileSync(m[1]!), bytes, `${what}: the damaged save is kept as it was`);
      assert.ok(a.output.text.includes(m[1]!), 'the path is in the KubeSim output too');
      assert.deepEqual(host.nodeNames().slice(0, 2), ['kubesim-control-plane', 'kubesim-worker']);
      await a.session.save();
      assert.match(readFileSync(path, 'utf8'), /^\{"format":"kubesim\/cluster-snapshot@1"/, 'the new cluster is saved in its place');
      assert.ok(existsSync(m[1]!), 'and the damaged one stays');
    }
  });

  test('a session that ends and starts again brings the trace back: the apply and its story', async () => {
    const a = api();
    await a.session.reset();
    const doc = await vscode.workspace.openTextDocument(repoPath('examples', 'web.yaml'));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('kubesim.apply', doc.uri);
    const before = await a.session.current!.traceRecords();
    const request = before.find((r) => r.type === 'api.request' && (r as unknown as { verb: string }).verb === 'patch' && (r as unknown as { resource: string }).resource === 'deployments');
    assert.ok(request, 'the apply is in the trace');
    await a.session.dispose();
    const host = await a.session.get();
    const after = await host.traceRecords();
    assert.equal(JSON.stringify(after.find((r) => r.id === request.id)), JSON.stringify(request));
    // Read while the cluster ran on, "before" may lack a record whose write was still under way (its id given, the record not yet in): the restored trace has every record of before, in order.
    const ids = new Set(before.map((r) => r.id));
    assert.deepEqual(
      after.filter((r) => ids.has(r.id)).map((r) => r.id),
      before.map((r) => r.id),
      'every record of before, in order',
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
