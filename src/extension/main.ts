/**
 * The extension host side of kubesim: activation registers the commands, the Cluster view, the
 * status bar and live documents, and returns. The language client is loaded and started right
 * after; the engine is loaded by the session on first use (or right after activation when the
 * workspace holds a saved cluster, so a reload carries on where it was).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerClockCommands } from './commands/clock';
import { registerClusterCommands, showEtcd } from './commands/cluster';
import { registerEtcdCommands } from './commands/etcd';
import { registerEndpointCommands } from './commands/endpoint';
import { registerLiveCommands } from './commands/live';
import { registerManifestCommands } from './commands/manifest';
import { registerNodeCommands } from './commands/nodes';
import { registerWorkloadCommands } from './commands/workloads';
import { registerWalkthroughCommands } from './commands/walkthrough';
import type { Services } from './commands/services';
import { ApiEndpointController } from './endpoint/controller';
import { describeIdentity } from './identity';
import { LanguageServerLink } from './language-server-link';
import { LiveDocuments } from './live-document';
import { Output } from './output';
import { SNAPSHOT_FILE } from './saved-files';
import { ClusterSession } from './session';
import { parseSettings, settingsChange, type KubeSimSettings } from './settings';
import { StatusBar } from './status-bar';
import { ClusterTreeProvider } from './tree/provider';
import { EtcdTreeProvider } from './tree/etcd';

/** What the extension's tests reach through `extensions.getExtension('kubesim.kubesim').exports`. */
export interface KubeSimApi {
  /** Wall milliseconds activate() took. */
  readonly activationMs: number;
  readonly session: ClusterSession;
  readonly tree: ClusterTreeProvider;
  readonly output: Output;
  readonly statusBar: StatusBar;
  /** Start / Stop API Endpoint. */
  readonly apiEndpoint: ApiEndpointController;
  readonly languageServer: LanguageServerLink;
  /** Where the cluster is saved (the workspace storage's cluster.json); undefined without a folder. */
  readonly savedCluster: string | undefined;
  settings(): KubeSimSettings;
}

let session: ClusterSession | undefined;
let languageServer: LanguageServerLink | undefined;

function readSettings(output: Output): KubeSimSettings {
  const config = vscode.workspace.getConfiguration('kubesim');
  const { settings, problems } = parseSettings((key) => config.get(key));
  if (problems.length > 0) output.notify('warning', `KubeSim settings: ${problems.join('; ')}`);
  return settings;
}

export function activate(context: vscode.ExtensionContext): KubeSimApi {
  const started = performance.now();
  const output = new Output();
  let settings = readSettings(output);
  const client = new LanguageServerLink(context, () => {
    client.setUser(settings.user);
    client.setApplyOptions({ fieldValidation: settings.fieldValidation });
    session?.current?.resyncMirror();
  });
  languageServer = client;
  const report = (message: string): void => {
    output.append([`# ${message}`]);
    output.notify('error', message);
  };
  const file = context.storageUri ? path.join(context.storageUri.fsPath, SNAPSHOT_FILE) : undefined;
  const warn = (message: string): void => {
    output.append([`# ${message}`]);
    output.notify('warning', message);
  };
  const log = (line: string): void => output.append([line]);
  const s = new ClusterSession({ workerFile: path.join(context.extensionPath, 'dist', 'engine-worker.mjs'), settings: () => settings, file, mirror: (p) => client.mirror(p), report, warn, log });
  session = s;
  const tree = new ClusterTreeProvider(s);
  const etcdTree = new EtcdTreeProvider(s);
  const statusBar = new StatusBar(s);
  const live = new LiveDocuments(s);
  const services: Services = { context, session: s, output, tree, live, settings: () => settings };
  const apiEndpoint = new ApiEndpointController(services, statusBar);
  context.subscriptions.push(
    output,
    tree,
    statusBar,
    live,
    apiEndpoint,
    vscode.window.createTreeView('kubesim.cluster', { treeDataProvider: tree, showCollapseAll: true }),
    etcdTree,
    etcdTree.attach(vscode.window.createTreeView('kubesim.etcd', { treeDataProvider: etcdTree })),
    ...registerEtcdCommands(services, etcdTree, (member) => showEtcd(services, member)),
    ...registerManifestCommands(services),
    ...registerClockCommands(services),
    ...registerNodeCommands(services),
    ...registerWorkloadCommands(services),
    ...registerLiveCommands(services),
    ...registerClusterCommands(services),
    ...registerEndpointCommands(apiEndpoint),
    ...registerWalkthroughCommands(services),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('kubesim')) return;
      const before = settings;
      settings = readSettings(output);
      void settingsChanged(services, client, apiEndpoint, before, settings);
    }),
  );
  client.start();
  // A saved cluster carries on (a rollout continues after a reload) once activation is over.
  if (settings.persistence && file) {
    setTimeout(() => {
      void s.hasSaved().then((saved) => (saved ? s.get().then(() => undefined) : undefined)).catch((err: unknown) => report(`KubeSim: ${err instanceof Error ? err.message : String(err)}`));
    }, 0);
  }
  return { activationMs: performance.now() - started, session: s, tree, output, statusBar, apiEndpoint, languageServer: client, savedCluster: file, settings: () => settings };
}

/** A settings change reaches the running cluster at once where it can, else the user is told a reset is needed. */
async function settingsChanged(s: Services, client: LanguageServerLink, apiEndpoint: ApiEndpointController, before: KubeSimSettings, after: KubeSimSettings): Promise<void> {
  const change = settingsChange(before, after);
  const host = s.session.current;
  if (change.user) {
    client.setUser(after.user);
    if (host) host.user = after.user;
    void apiEndpoint.userChanged();
    s.output.append([`# applies and diagnostics now run as ${describeIdentity(after.user)}`, '']);
    vscode.window.setStatusBarMessage(`KubeSim: acting as ${describeIdentity(after.user)}`, 4000);
  }
  if (host && change.speed) void host.pacer.setSpeed(after.speed).catch(() => undefined);
  if (change.fieldValidation) client.setApplyOptions({ fieldValidation: after.fieldValidation });
  if (host && change.fieldValidation) host.fieldValidation = after.fieldValidation;
  if (change.persistence) await s.session.setPersistence(after.persistence);
  if (host && change.addNodes > 0) {
    s.output.append([`# kubesim.nodes.count: ${before.nodes.count} -> ${after.nodes.count}`]);
    for (let i = 0; i < change.addNodes; i++) {
      const result = await host.addNode(after);
      s.output.append(result.ok ? result.lines : [result.message]);
    }
    s.output.append(['']);
  }
  if (host && change.needReset.length > 0) {
    const verb = change.needReset.length === 1 ? 'takes' : 'take';
    const choice = await vscode.window.showInformationMessage(`KubeSim: ${change.needReset.join(', ')} ${verb} effect when the cluster is reset.`, 'Reset Cluster');
    if (choice === 'Reset Cluster') await vscode.commands.executeCommand('kubesim.reset');
  }
}

export async function deactivate(): Promise<void> {
  await session?.dispose();
  await languageServer?.stop();
}
