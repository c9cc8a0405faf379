/**
 * Apply Current Manifest (the whole file, every document, or the selection), Apply Folder,
 * Dry Run Current Manifest and Delete Resources in Manifest: kubectl apply / delete -f, sent with
 * the current user's identity, reported in kubectl's words.
 */
import * as vscode from 'vscode';
import type { ApplyReply as ApplyResult } from '../../protocol/engine';
import { commandHeader, formatResults } from '../messages';
import { clusterHost, progress, type Services } from './services';

const MANIFEST = /\.(ya?ml|json)$/i;

interface Manifest {
  /** As kubectl names the file: relative to the workspace. */
  name: string;
  text: string;
  /** "lines 3-10" when only the selection is applied. */
  part?: string;
}

function isManifestDocument(doc: vscode.TextDocument): boolean {
  return doc.languageId === 'yaml' || doc.languageId === 'json' || MANIFEST.test(doc.fileName);
}

/**
 * The manifest a command means: the file it was invoked on (explorer, editor title), else the
 * active editor's document, or its selection when it has one. Open documents are read with
 * their unsaved changes.
 */
async function manifestFor(arg: unknown, allowSelection: boolean): Promise<Manifest | undefined> {
  const editor = vscode.window.activeTextEditor;
  const uri = arg instanceof vscode.Uri ? arg : editor?.document.uri;
  if (!uri) {
    void vscode.window.showWarningMessage('KubeSim: open a manifest (YAML or JSON) first.');
    return undefined;
  }
  const name = uri.scheme === 'untitled' ? uri.path : vscode.workspace.asRelativePath(uri, false);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    if (!isManifestDocument(open)) {
      void vscode.window.showWarningMessage(`KubeSim: ${name} is not a YAML or JSON manifest.`);
      return undefined;
    }
    const sel = editor && editor.document === open && allowSelection && !editor.selection.isEmpty ? editor.selection : undefined;
    if (sel) return { name, text: open.getText(sel), part: `lines ${sel.start.line + 1}-${sel.end.line + 1}` };
    return { name, text: open.getText() };
  }
  return { name, text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) };
}

function report(s: Services, command: string, user: Parameters<typeof commandHeader>[1], results: readonly ApplyResult[], empty: string): void {
  const lines = results.map((r) => ({ ok: r.action !== 'failed', message: r.message, warnings: r.warnings }));
  s.output.report(commandHeader(command, user), formatResults(lines, empty));
}

async function apply(s: Services, arg: unknown, dryRun: boolean): Promise<void> {
  const m = await manifestFor(arg, true);
  if (!m) return;
  const host = await clusterHost(s);
  const results = await progress(`${dryRun ? 'dry run of' : 'applying'} ${m.name}`, () => host.apply(m.name, m.text, dryRun));
  const command = `kubectl apply -f ${m.name}${dryRun ? ' --dry-run=server' : ''}${m.part ? `   (${m.part})` : ''}`;
  report(s, command, host.user, results, 'error: no objects passed to apply');
}

async function applyFolder(s: Services, arg: unknown): Promise<void> {
  let folder = arg instanceof vscode.Uri ? arg : undefined;
  if (!folder) {
    const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Apply Folder', defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri });
    folder = picked?.[0];
  }
  if (!folder) return;
  const name = vscode.workspace.asRelativePath(folder, false);
  // kubectl apply -f <dir>: the folder's manifests in name order, not its subfolders (that is -R).
  const files = (await vscode.workspace.fs.readDirectory(folder))
    .filter(([f, type]) => type === vscode.FileType.File && MANIFEST.test(f))
    .map(([f]) => f)
    .sort();
  const host = await clusterHost(s);
  const results = await progress(`applying ${name}/`, async () => {
    const all: ApplyResult[] = [];
    for (const f of files) {
      const uri = vscode.Uri.joinPath(folder!, f);
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      all.push(...(await host.apply(vscode.workspace.asRelativePath(uri, false), text)));
    }
    return all;
  });
  report(s, `kubectl apply -f ${name}/`, host.user, results, `error: no objects passed to apply`);
}

async function deleteManifest(s: Services, arg: unknown): Promise<void> {
  const m = await manifestFor(arg, false);
  if (!m) return;
  const host = await clusterHost(s);
  const results = await progress(`deleting the objects of ${m.name}`, () => host.deleteManifest(m.name, m.text));
  report(s, `kubectl delete -f ${m.name}`, host.user, results, 'error: no objects passed to delete');
}

export function registerManifestCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubesim.apply', (arg?: unknown) => apply(s, arg, false)),
    vscode.commands.registerCommand('kubesim.dryRun', (arg?: unknown) => apply(s, arg, true)),
    vscode.commands.registerCommand('kubesim.applyFolder', (arg?: unknown) => applyFolder(s, arg)),
    vscode.commands.registerCommand('kubesim.delete', (arg?: unknown) => deleteManifest(s, arg)),
  ];
}
