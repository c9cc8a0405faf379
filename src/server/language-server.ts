/**
 * The kubesim language server: diagnostics from the API server's pipeline (the Apply command's
 * request, in dry run) against a mirror of the live cluster, hover from the OpenAPI data, quick fixes. All logic lives here;
 * the extension only starts it and forwards the cluster's watch events and the current user.
 */
import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  TextDocumentSyncKind,
  TextDocuments,
  type CodeAction,
  type CodeActionParams,
  type Connection,
  type Hover,
  type HoverParams,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ADMIN_USER, ALL_AUTHENTICATED, type UserInfo } from '../engine/apiserver/authn/user';
import { MIRROR_STATE, MIRROR_SYNC, SET_APPLY_OPTIONS, SET_USER, type MirrorStateResult, type MirrorSyncParams, type SetApplyOptionsParams, type SetUserParams } from '../protocol/language-server';
import type { FieldValidation } from '../engine/apiserver/decode';
import { quickFixes } from './code-actions';
import { hover } from './hover';
import { MirrorCluster } from './mirror/mirror-cluster';
import { unitAt } from './units';
import { SOURCE, type DiagnosticData } from './validation/diagnostics';
import { Cancelled, FileValidator } from './validation/file-validator';
import { WorkspaceCrds } from './validation/workspace-crds';

/** Keystrokes closer together than this are validated once, after the last. */
export const DEBOUNCE_MS = 15;

export class KubesimLanguageServer {
  private readonly documents = new TextDocuments(TextDocument);
  private readonly files = new Map<string, FileValidator>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly lastChange = new Map<string, number>();
  /** The pass running per file; the next one waits for it. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly mirror: Promise<MirrorCluster>;
  private user: UserInfo = ADMIN_USER;
  /** The CRDs of the workspace's files, so that a file's custom resources are known by them. */
  private readonly crds = new WorkspaceCrds();
  private folders: string[] = [];
  private watchRegistration = false;
  /** The editor's default until it says otherwise. */
  private fieldValidation: FieldValidation = 'Strict';

  constructor(private readonly connection: Connection) {
    this.mirror = MirrorCluster.create();
  }

  listen(): void {
    const c = this.connection;
    c.onInitialize((p) => this.initialize(p));
    c.onInitialized(() => void this.initialized());
    c.onDidChangeWatchedFiles((p) => void this.watchedFilesChanged(p.changes));
    this.documents.onDidChangeContent((e) => {
      this.noteCrds(e.document);
      this.schedule(e.document.uri);
    });
    this.documents.onDidClose((e) => this.close(e.document.uri));
    c.onHover((p) => this.hover(p));
    c.onCodeAction((p) => this.codeActions(p));
    c.onNotification(MIRROR_SYNC, (p: MirrorSyncParams) => void this.mirrorSync(p));
    c.onNotification(SET_USER, (p: SetUserParams) => {
      // Authenticators add system:authenticated to every user they recognize.
      const groups = p.groups.includes(ALL_AUTHENTICATED) ? p.groups : [...p.groups, ALL_AUTHENTICATED];
      this.user = { username: p.username, groups, uid: p.uid ?? '', extra: {} };
      this.revalidateAll();
    });
    c.onNotification(SET_APPLY_OPTIONS, (p: SetApplyOptionsParams) => {
      if (p.fieldValidation !== 'Strict' && p.fieldValidation !== 'Warn' && p.fieldValidation !== 'Ignore') return;
      if (p.fieldValidation === this.fieldValidation) return;
      this.fieldValidation = p.fieldValidation;
      this.revalidateAll();
    });
    c.onRequest(MIRROR_STATE, async (): Promise<MirrorStateResult> => (await this.mirror).state());
    c.onShutdown(async () => {
      for (const f of this.files.values()) f.dispose();
      await (await this.mirror).close();
    });
    this.documents.listen(c);
    c.listen();
  }

  private initialize(p?: InitializeParams): InitializeResult {
    const folders = p?.workspaceFolders?.map((f) => f.uri) ?? (p?.rootUri ? [p.rootUri] : []);
    this.folders = folders.map(filePathOf).filter((f): f is string => f !== undefined);
    this.watchRegistration = p?.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      },
      serverInfo: { name: 'kubesim' },
    };
  }

  /** After the handshake: watch the workspace's YAML files and read their CRDs. */
  private async initialized(): Promise<void> {
    if (this.watchRegistration) {
      await this.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{yaml,yml}' }] }).catch(() => undefined);
    }
    if (this.folders.length === 0) return;
    await this.crds.scan(this.folders, (file) => this.documents.all().some((d) => filePathOf(d.uri) === file));
    this.revalidateAll();
  }

  /** An open file's CRDs are its editor text's; a change revalidates the other files. */
  private noteCrds(doc: TextDocument): void {
    const file = filePathOf(doc.uri) ?? doc.uri;
    if (!this.isYaml(doc)) return;
    if (this.crds.update(file, doc.getText())) this.revalidateOthers(doc.uri);
  }

  private async watchedFilesChanged(changes: readonly { uri: string; type: FileChangeType }[]): Promise<void> {
    let changed = false;
    for (const c of changes) {
      const file = filePathOf(c.uri);
      if (!file || this.documents.all().some((d) => d.uri === c.uri)) continue;
      changed = (c.type === FileChangeType.Deleted ? this.crds.remove(file) : await this.crds.read(file)) || changed;
    }
    if (changed) this.revalidateAll();
  }

  private revalidateOthers(uri: string): void {
    for (const doc of this.documents.all()) if (doc.uri !== uri) this.schedule(doc.uri);
  }

  private isYaml(doc: TextDocument): boolean {
    return doc.languageId === 'yaml' || /\.ya?ml$/i.test(doc.uri);
  }

  /**
   * A change after a quiet spell is validated at once; changes that follow each other within
   * DEBOUNCE_MS (typing) are validated once, after the last.
   */
  private schedule(uri: string): void {
    const now = performance.now();
    const quiet = now - (this.lastChange.get(uri) ?? -Infinity) > DEBOUNCE_MS;
    this.lastChange.set(uri, now);
    clearTimeout(this.timers.get(uri));
    this.timers.set(
      uri,
      setTimeout(
        () => {
          this.timers.delete(uri);
          const previous = this.running.get(uri) ?? Promise.resolve();
          const pass = previous.then(() => this.validate(uri));
          this.running.set(uri, pass);
          void pass.finally(() => {
            if (this.running.get(uri) === pass) this.running.delete(uri);
          });
        },
        quiet ? 0 : DEBOUNCE_MS,
      ),
    );
  }

  private revalidateAll(): void {
    for (const doc of this.documents.all()) this.schedule(doc.uri);
  }

  private async mirrorSync(params: MirrorSyncParams): Promise<void> {
    await (await this.mirror).sync(params);
    this.revalidateAll();
  }

  private async validate(uri: string): Promise<void> {
    const doc = this.documents.get(uri);
    if (!doc || !this.isYaml(doc)) return;
    const mirror = await this.mirror;
    let file = this.files.get(uri);
    if (!file) {
      file = new FileValidator(fileNameOf(uri), mirror);
      this.files.set(uri, file);
    }
    file.setPreamble(this.crds.others(filePathOf(uri) ?? uri));
    const version = doc.version;
    try {
      const diagnostics = await file.validate(doc.getText(), { user: this.user, fieldValidation: this.fieldValidation }, () => this.documents.get(uri)?.version === version);
      if (this.documents.get(uri)?.version !== version) return;
      await this.connection.sendDiagnostics({ uri, version, diagnostics });
    } catch (err) {
      if (err instanceof Cancelled) return;
      const detail = err instanceof Error ? err.message : String(err);
      this.connection.console.error(`kubesim: validating ${uri} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      // Old diagnostics would be wrong now: say that this file was not checked, and why.
      if (this.documents.get(uri)?.version !== version) return;
      const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      await this.connection.sendDiagnostics({ uri, version, diagnostics: [{ range, severity: 2, source: 'kubesim', message: `kubesim could not check this file (an internal error: ${detail}); see the KubeSim output` }] });
    }
  }

  private close(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    this.lastChange.delete(uri);
    this.files.get(uri)?.dispose();
    this.files.delete(uri);
    // a closed file's CRDs are what is on disk again
    const file = filePathOf(uri);
    if (file) void this.crds.read(file).then((changed) => changed && this.revalidateAll());
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** The documents of the file as it is now (hover and quick fixes may come before validation). */
  private unitsOf(uri: string) {
    const doc = this.documents.get(uri);
    const file = this.files.get(uri);
    if (!doc || !file || !this.isYaml(doc)) return undefined;
    return file.analyze(doc.getText());
  }

  private hover(p: HoverParams): Hover | undefined {
    const units = this.unitsOf(p.textDocument.uri);
    const unit = units && unitAt(units, p.position);
    return unit?.validated ? hover(unit, p.position) : undefined;
  }

  private async codeActions(p: CodeActionParams): Promise<CodeAction[]> {
    const units = this.unitsOf(p.textDocument.uri);
    if (!units) return [];
    const registry = (await this.mirror).server.registry;
    return p.context.diagnostics
      .filter((d) => d.source === SOURCE)
      .flatMap((diagnostic) => {
        const unit = unitAt(units, diagnostic.range.start);
        if (!unit?.doc.node) return [];
        const field = (diagnostic.data as DiagnosticData | undefined)?.field ?? '';
        return quickFixes({ uri: p.textDocument.uri, unit, root: unit.doc.node, diagnostic, field, registry });
      });
  }
}

/** The local path of a file: URI, undefined for other schemes. */
function filePathOf(uri: string): string | undefined {
  try {
    const u = new URL(uri);
    return u.protocol === 'file:' ? decodeURIComponent(u.pathname) : undefined;
  } catch {
    return undefined;
  }
}

function fileNameOf(uri: string): string {
  try {
    return decodeURIComponent(new URL(uri).pathname.split('/').pop() ?? uri);
  } catch {
    return uri;
  }
}
