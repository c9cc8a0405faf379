/**
 * Show Control Plane, Reset Cluster, Switch User, and Export / Import Cluster Snapshot.
 */
import * as vscode from 'vscode';
import { describeIdentity, identitySpec, parseIdentity, ADMIN } from '../identity';
import { loadPanel } from '../host-loader';
import { serializeClusterSnapshot } from '../snapshot';
import { clusterHost, progress, updateSetting, type Services } from './services';

async function showControlPlane(s: Services): Promise<void> {
  loadPanel(s.context.extensionPath).showPanel(s.context, s.session);
}

/** Opens the panel on its etcd tab, with a member selected when one was clicked. */
export async function showEtcd(s: Services, member?: string): Promise<void> {
  loadPanel(s.context.extensionPath).showPanel(s.context, s.session).showEtcd(member);
}

async function reset(s: Services): Promise<void> {
  const choice = await vscode.window.showWarningMessage('Reset the simulated cluster? Everything applied to it is lost; a new cluster starts from the kubesim settings.', { modal: true }, 'Reset Cluster');
  if (choice !== 'Reset Cluster') return;
  const host = await progress('resetting the cluster', () => s.session.reset());
  s.output.append([`# cluster reset: ${host.nodeNames().length} nodes, seed "${host.seed}"`, '']);
  vscode.window.setStatusBarMessage('KubeSim: the cluster was reset', 4000);
}

async function switchUser(s: Services): Promise<void> {
  const current = s.settings().user;
  const host = await clusterHost(s);
  const known = await host.knownSubjects();
  const items: (vscode.QuickPickItem & { spec?: string })[] = [
    { label: ADMIN.username, description: 'cluster admin (system:masters)', spec: ADMIN.username },
    ...known.map((k) => ({ label: k.spec, description: k.description, spec: k.spec })),
    { label: '$(edit) Another user…', description: 'a name with groups (jane:dev,qa) or system:serviceaccount:<namespace>:<name>' },
  ];
  for (const item of items) if (item.spec === identitySpec(current)) item.description = `${item.description ?? ''} (current)`.trim();
  const picked = await vscode.window.showQuickPick(items, { title: 'KubeSim: Switch User', placeHolder: `applies and diagnostics now run as ${describeIdentity(current)}` });
  if (!picked) return;
  let spec = picked.spec;
  if (spec === undefined) {
    spec = await vscode.window.showInputBox({
      title: 'KubeSim: Switch User',
      prompt: 'User name with optional groups, or a service account',
      placeHolder: 'jane:dev,qa   or   system:serviceaccount:default:builder',
      validateInput: (v) => {
        const id = parseIdentity(v);
        return id.ok ? undefined : id.error;
      },
    });
    if (spec === undefined) return;
  }
  // The setting is the one source of the identity; its change handler tells the cluster host and the language server.
  await updateSetting('user', spec);
}

async function exportSnapshot(s: Services): Promise<void> {
  const host = await clusterHost(s);
  const target = await vscode.window.showSaveDialog({
    title: 'KubeSim: Export Cluster Snapshot',
    filters: { 'KubeSim snapshot': ['json'] },
    defaultUri: vscode.workspace.workspaceFolders?.[0] ? vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'kubesim-snapshot.json') : undefined,
  });
  if (!target) return;
  // The worker writes a file on this machine's disk itself (the cluster never crosses to this thread); elsewhere it comes here to be written.
  let exported: { revision: number; nodes: number };
  if (target.scheme === 'file') exported = await progress('exporting the snapshot', () => host.exportSnapshot(target.fsPath));
  else {
    const snapshot = await host.snapshot();
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(serializeClusterSnapshot(snapshot)));
    exported = { revision: snapshot.store.revision, nodes: snapshot.nodes.length };
  }
  s.output.append([`# snapshot exported to ${vscode.workspace.asRelativePath(target, false)}: etcd revision ${exported.revision}, ${exported.nodes} nodes`, '']);
  vscode.window.setStatusBarMessage(`KubeSim: snapshot exported (etcd revision ${exported.revision})`, 4000);
}

async function importSnapshot(s: Services): Promise<void> {
  const picked = await vscode.window.showOpenDialog({ title: 'KubeSim: Import Cluster Snapshot', filters: { 'KubeSim snapshot': ['json'] }, canSelectMany: false });
  if (!picked?.[0]) return;
  if (s.session.current) {
    const choice = await vscode.window.showWarningMessage('Replace the running cluster with the snapshot?', { modal: true }, 'Import');
    if (choice !== 'Import') return;
  }
  // The worker reads and checks the file; the running cluster is replaced only once the snapshot's runs.
  let host;
  try {
    host = await progress('importing the snapshot', () => s.session.restore(picked[0]!.fsPath));
  } catch (err) {
    void vscode.window.showErrorMessage(`KubeSim: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  const { revision } = await host.summary();
  s.output.append([`# snapshot imported from ${vscode.workspace.asRelativePath(picked[0], false)}: etcd revision ${revision}, ${host.nodeNames().length} nodes`, '']);
}

export function registerClusterCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubesim.showControlPlane', () => showControlPlane(s)),
    // Reload Window brings the panel back as it was (the webview's saved state); the panel's
    // module loads only when there is one to restore.
    vscode.window.registerWebviewPanelSerializer('kubesim.controlPlane', {
      deserializeWebviewPanel: async (webviewPanel) => void loadPanel(s.context.extensionPath).restorePanel(s.context, s.session, webviewPanel),
    }),
    vscode.commands.registerCommand('kubesim.reset', () => reset(s)),
    vscode.commands.registerCommand('kubesim.switchUser', () => switchUser(s)),
    vscode.commands.registerCommand('kubesim.exportSnapshot', () => exportSnapshot(s)),
    vscode.commands.registerCommand('kubesim.importSnapshot', () => importSnapshot(s)),
  ];
}
