/**
 * The control-plane panel's host side. The webview is not retained while hidden
 * (retainContextWhenHidden false): each time it loads it keeps its own UI state (vscode.setState)
 * and asks for a sync; the host answers with the records the trace buffer still holds, then
 * streams new ones in batches. Messages from the webview are validated before anything is done.
 */
import * as vscode from 'vscode';
import type { TraceRecord } from '../../engine/trace/types';
import { parseWebviewMessage, type GetRevisionMessage, type HostMessage, type PanelRecord, type WebviewMessage } from '../../protocol/panel';
import { RecordBatcher } from './batcher';
import { createNonce, panelHtml } from './html';
import { objectAtRevision } from './time-travel';
import type { PanelCluster, PanelHost } from './host';

export const PANEL_VIEW_TYPE = 'kubesim.controlPlane';

/** Records per message and milliseconds between messages (DESIGN.md invariant 8). */
const MAX_BATCH = 2000;
const BATCH_INTERVAL_MS = 50;

/** Scripts on, nothing retained while hidden, local resources only from dist/ and media/. */
export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export class ControlPlanePanel {
  private cluster: PanelCluster | undefined;
  private unsubscribe: (() => void) | undefined;
  private batcher: RecordBatcher<PanelRecord> | undefined;
  /** The webview asked for a sync and has not been hidden since: records flow. */
  private live = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposeListeners = new Set<() => void>();
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
        this.batcher?.clear();
        this.render();
      }),
      host.onDidChangeCluster(() => {
        if (this.live) void this.sync();
      }),
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
        return this.timeTravel(message);
    }
  }

  private async sync(): Promise<void> {
    const cluster = await this.host.cluster();
    if (cluster.trace !== this.cluster?.trace || !this.batcher) {
      this.unsubscribe?.();
      this.batcher?.clear();
      this.cluster = cluster;
      // Bounded by the buffer: more queued records than it holds would have fallen off anyway.
      const batcher = new RecordBatcher<PanelRecord>((records, dropped) => this.post({ type: 'records', records, dropped }), {
        maxBatch: MAX_BATCH,
        intervalMs: BATCH_INTERVAL_MS,
        capacity: cluster.trace.capacity,
      });
      this.batcher = batcher;
      this.unsubscribe = cluster.trace.subscribe((record) => {
        if (this.live) batcher.push(record as PanelRecord);
      });
    }
    const batcher = this.batcher;
    batcher.clear();
    this.live = true;
    const records: readonly TraceRecord[] = cluster.trace.records();
    const kinds: Record<string, string> = {};
    for (const r of cluster.client.server.registry.all()) kinds[`${r.group}/${r.resource}`] ??= r.kind;
    this.post({ type: 'reset', capacity: cluster.trace.capacity, firstId: Math.max(1, cluster.trace.next - cluster.trace.capacity), total: records.length, kinds });
    batcher.pushAll(records as readonly PanelRecord[]);
  }

  private async timeTravel(ask: GetRevisionMessage): Promise<void> {
    const cluster = this.cluster ?? (await this.host.cluster());
    const read = (revision: number) =>
      objectAtRevision(cluster.client, ask, revision).catch((err: unknown) => ({ state: 'error' as const, revision, code: 500, message: String(err) }));
    const [at, before] = await Promise.all([read(ask.revision), read(ask.revision - 1)]);
    this.post({ type: 'revision', requestId: ask.requestId, at, before });
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
    this.batcher?.clear();
    this.unsubscribe?.();
    for (const d of this.disposables) d.dispose();
    for (const listener of this.disposeListeners) listener();
  }
}
