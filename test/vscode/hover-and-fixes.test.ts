import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { kubesimDiagnostics, repoPath } from './support';

async function openYaml(content: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content });
  await vscode.window.showTextDocument(doc);
  return doc;
}

async function quickFixes(doc: vscode.TextDocument, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  return vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
}

suite('kubesim hover and quick fixes', () => {
  test('hover on a field shows its type and description from the OpenAPI data', async () => {
    const doc = await openYaml(readFileSync(repoPath('examples', 'broken.yaml'), 'utf8'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(8, 4));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /`replicas` <integer>/);
    assert.match(text, /Number of desired pods/);
    const kind = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(4, 8));
    assert.match(kind.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n'), /\*\*Deployment\*\* \(apps\/v1\)/);
  });

  test('the selector quick fix makes the template labels match, and the error goes', async () => {
    const doc = await openYaml(readFileSync(repoPath('examples', 'broken.yaml'), 'utf8'));
    const diagnostics = await kubesimDiagnostics(doc.uri, (d) => d.some((x) => x.message.includes('`selector` does not match')));
    const selector = diagnostics.find((d) => d.message.includes('`selector` does not match'))!;
    const actions = await quickFixes(doc, selector);
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Add the selector’s labels to the pod template', 'Make the selector match the pod template’s labels'],
    );
    assert.ok(await vscode.workspace.applyEdit(actions[0]!.edit!));
    assert.equal(doc.lineAt(15).text, '        app: web');
    await kubesimDiagnostics(doc.uri, (d) => d.length > 0 && !d.some((x) => x.message.includes('`selector` does not match')));
  });

  test('a Deployment under extensions/v1beta1 gets "no matches for kind" and the apps/v1 fix', async () => {
    const doc = await openYaml('apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: web\n');
    const [noMatch] = await kubesimDiagnostics(doc.uri, (d) => d.length > 0);
    assert.equal(noMatch!.message, 'no matches for kind "Deployment" in version "extensions/v1beta1"');
    const [fix] = await quickFixes(doc, noMatch!);
    assert.equal(fix!.title, 'Change apiVersion to apps/v1');
    assert.ok(await vscode.workspace.applyEdit(fix!.edit!));
    assert.equal(doc.lineAt(0).text, 'apiVersion: apps/v1');
  });
});
