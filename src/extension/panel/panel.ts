/**
 * The control-plane panel's host side. The webview is not retained while hidden
 * (retainContextWhenHidden false): each time it loads it keeps its own UI state (vscode.setState)
 * and asks for a sync; the feed (feed.ts, beside the cluster) answers with the records the trace
 * buffer still holds, then streams new ones in batches. Messages from the webview are validated
 * before anything is done.
 */
import * as vscode from 'vscode';
import { parseWebviewMessage, type GetDetailsMessage, type GetRevisionMessage, type HostMessage, type ShowDetailsMessage, type WebviewMessage } from '../../protocol/panel';
import type { ViewKind } from '../../protocol/cluster-state';
import { createNonce, panelHtml } from './html';
import type { PanelHost } from './host';
import type { PanelConnection } from './feed';
import type { EtcdAction } from '../../protocol/etcd';
import type { OperationReply } from '../../protocol/engine';

export const PANEL_VIEW_TYPE = 'kubesim.controlPlane';

/** Scripts on, nothing retained while hidden, local resources only from dist/ and media/. */
export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/** The command each etcd view action runs. */
const ETCD_COMMANDS: Record<EtcdAction, string> = {
  stop: 'kubesim.etcd.stopMember',
  start: 'kubesim.etcd.startMember',
  partition: 'kubesim.etcd.partitionMember',
  heal: 'kubesim.etcd.healMember',
  slow: 'kubesim.etcd.slowMember',
  compact: 'kubesim.etcd.compact',
  defragment: 'kubesim.etcd.defragmentMember',
  disarm: 'kubesim.etcd.disarmAlarms',
};

export class ControlPlanePanel {
  /** The feed of the cluster the webview was last synced with. */
  private connection: Promise<PanelConnection> | undefined;
  /** The webview asked for a sync and has not been hidden since: records flow. */
  private live = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposeListeners = new Set<() => void>();
  /** Details asked for before the webview was ready (the panel was just opened). */
  private pendingDetails: ShowDetailsMessage | undefined;
  private pendingEtcd: HostMessage | undefined;
  /** Malformed messages the webview sent, with the reason each was rejected (newest last). */
  readonly rejected: string[] = [];

  constructor(
    readonly webviewPanel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly host: PanelHost,
  ) {
    const webview = webviewPanel.webview;
    this.render();
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) =>
        this.receive(raw).catch((err: unknown) => void vscode.window.showErrorMessage(`KubeSim Control Plane: ${err instanceof Error ? err.message : String(err)}`)),
      ),
      webviewPanel.onDidChangeViewState(() => {
        if (webviewPanel.visible) return;
        // The webview is gone; the next load gets a fresh nonce and re-syncs.
        this.live = false;
        void this.connection?.then((c) => c.hidden()).catch(() => undefined);
        this.render();
      }),
      host.onDidChangeCluster(() => void this.reconnect()),
      webviewPanel.onDidDispose(() => this.dispose()),
    );
  }

  /** The HTML the webview was last given (its CSP carries this load's nonce). */
  get html(): string {
    return this.webviewPanel.webview.html;
  }

  onDidDispose(listener: () => void): void {
    this.disposeListeners.add(listener);
  }

  reveal(): void {
    this.webviewPanel.reveal();
  }

  /**
   * Handles one message from the webview. A malformed one is rejected (recorded in `rejected`,
   * nothing else happens) and its reason returned; a valid one is acted on.
   */
  async receive(raw: unknown): Promise<string | undefined> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.rejected.push(parsed.error);
      if (this.rejected.length > 100) this.rejected.shift();
      return parsed.error;
    }
    await this.act(parsed.message);
    return undefined;
  }

  private async act(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.sync();
      case 'getRevision':
      case 'getDetails':
        return this.read(message);
      case 'scrubbed':
        // The walkthrough's "Scrub back to before the apply" step waits for this context key.
        await vscode.commands.executeCommand('setContext', 'kubesim.walkthrough.scrubbed', true);
        return;
      case 'etcdAction': {
        // The same command the sidebar's action runs (it reports what it did, or why not); the view shows its result.
        let result: OperationReply | undefined;
        try {
          result = await vscode.commands.executeCommand<OperationReply | undefined>(ETCD_COMMANDS[message.action], message.member);
        } catch (err) {
          result = { ok: false, message: err instanceof Error ? err.message : String(err) };
        }
        result ??= { ok: false, message: 'nothing was done' };
        this.post({ type: 'etcd.result', action: message.action, member: message.member, ok: result.ok, lines: result.ok ? result.lines : [result.message] });
        return;
      }
    }
  }

  private async sync(): Promise<void> {
    this.connection ??= this.host.connect((m) => this.post(m));
    const connection = await this.connection;
    this.live = true;
    await connection.sync();
    if (this.pendingEtcd) this.post(this.pendingEtcd);
    this.pendingEtcd = undefined;
    if (this.pendingDetails) this.post(this.pendingDetails);
    this.pendingDetails = undefined;
  }

  /** Brings the etcd tab forward (with a member selected); sent once the webview has synced when it is still loading. */
  showEtcd(member?: string): void {
    const message: HostMessage = { type: 'showEtcd', ...(member ? { member } : {}) };
    if (this.live) this.post(message);
    else this.pendingEtcd = message;
  }

  /** Opens an object's details in the panel; sent once the webview has synced when it is still loading. */
  showDetails(ref: { kind: ViewKind; namespace?: string; name: string }): void {
    const message: ShowDetailsMessage = { type: 'showDetails', kind: ref.kind, name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) };
    if (this.live) this.post(message);
    else this.pendingDetails = message;
  }

  private async read(message: GetRevisionMessage | GetDetailsMessage): Promise<void> {
    this.connection ??= this.host.connect((m) => this.post(m));
    await (await this.connection).read(message);
  }

  /** The cluster was replaced: the next sync connects to the new one's feed. */
  private async reconnect(): Promise<void> {
    const old = this.connection;
    this.connection = undefined;
    await old?.then((c) => c.dispose()).catch(() => undefined);
    if (this.live) await this.sync();
  }

  private render(): void {
    const webview = this.webviewPanel.webview;
    const asset = (file: string): string => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', file)).toString();
    webview.html = panelHtml({ cspSource: webview.cspSource, scriptUri: asset('webview.js'), styleUri: asset('webview.css'), nonce: createNonce() });
  }

  private post(message: HostMessage): void {
    void this.webviewPanel.webview.postMessage(message);
  }

  private dispose(): void {
    this.live = false;
    void this.connection?.then((c) => c.dispose()).catch(() => undefined);
    this.connection = undefined;
    for (const d of this.disposables) d.dispose();
    for (const listener of this.disposeListeners) listener();
  }
}
