/**
 * Open Live Object's documents: read-only `kubesim:` YAML documents of an object as the API
 * server returns it to the current user, kept live by a watch on the object (updates coalesced
 * to one per 100 ms) until the document closes.
 */
import * as vscode from 'vscode';
import type { ClusterSession } from './session';
import { LIVE_SCHEME, liveRef, liveUri } from './live-ref';
import type { ObjectRef } from './manifest-objects';

const UPDATE_MS = 100;

/** Open in a tab: a document VS Code still lists after its tab closed has no model to update. */
function isShown(uri: string): boolean {
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri));
}

export class LiveDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly watches = new Map<string, () => void>();
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly session: ClusterSession) {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(LIVE_SCHEME, this),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme !== LIVE_SCHEME) return;
        const key = doc.uri.toString();
        this.watches.get(key)?.();
        this.watches.delete(key);
        clearTimeout(this.pending.get(key));
        this.pending.delete(key);
      }),
      // A new cluster (reset, import): every open live document re-reads and re-watches.
      session.onDidChangeCluster(() => {
        for (const stop of this.watches.values()) stop();
        this.watches.clear();
        for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === LIVE_SCHEME && isShown(doc.uri.toString())) this.emitter.fire(doc.uri);
      }),
    ];
  }

  /** Opens (or shows) the object's live document. */
  async open(ref: ObjectRef): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(liveUri(ref)));
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = liveRef(uri.path, uri.query);
    if (!ref) return `# ${uri.toString()} names no Kubernetes object\n`;
    const host = await this.session.get();
    const key = uri.toString();
    if (!this.watches.has(key)) this.watches.set(key, host.watchObject(ref, () => this.changed(uri)));
    return host.objectYaml(ref);
  }

  dispose(): void {
    for (const stop of this.watches.values()) stop();
    for (const t of this.pending.values()) clearTimeout(t);
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }

  private changed(uri: vscode.Uri): void {
    const key = uri.toString();
    if (this.pending.has(key)) return;
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        if (isShown(key)) this.emitter.fire(uri);
      }, UPDATE_MS),
    );
  }
}
