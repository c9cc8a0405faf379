/**
 * The kubesim language server: diagnostics from the API server's pipeline in dry-run against a
 * mirror of the live cluster, hover from the OpenAPI data, quick fixes. All logic lives here;
 * the extension only starts it and forwards the cluster's watch events and the current user.
 */
import {
  CodeActionKind,
  TextDocumentSyncKind,
  TextDocuments,
  type CodeAction,
  type CodeActionParams,
  type Connection,
  type Hover,
  type HoverParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ADMIN_USER, ALL_AUTHENTICATED, type UserInfo } from '../engine/apiserver/authn/user';
import { MIRROR_STATE, MIRROR_SYNC, SET_USER, type MirrorStateResult, type MirrorSyncParams, type SetUserParams } from '../protocol/language-server';
import { quickFixes } from './code-actions';
import { hover } from './hover';
import { MirrorCluster } from './mirror/mirror-cluster';
import { unitAt } from './units';
import { SOURCE, type DiagnosticData } from './validation/diagnostics';
import { Cancelled, FileValidator } from './validation/file-validator';

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

  constructor(private readonly connection: Connection) {
    this.mirror = MirrorCluster.create();
  }

  listen(): void {
    const c = this.connection;
    c.onInitialize(() => this.initialize());
    this.documents.onDidChangeContent((e) => this.schedule(e.document.uri));
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
    c.onRequest(MIRROR_STATE, async (): Promise<MirrorStateResult> => (await this.mirror).state());
    c.onShutdown(async () => {
      for (const f of this.files.values()) f.dispose();
      await (await this.mirror).close();
    });
    this.documents.listen(c);
    c.listen();
  }

  private initialize(): InitializeResult {
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      },
      serverInfo: { name: 'kubesim' },
    };
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
    const version = doc.version;
    try {
      const diagnostics = await file.validate(doc.getText(), this.user, () => this.documents.get(uri)?.version === version);
      if (this.documents.get(uri)?.version !== version) return;
      await this.connection.sendDiagnostics({ uri, version, diagnostics });
    } catch (err) {
      if (err instanceof Cancelled) return;
      this.connection.console.error(`kubesim: validating ${uri} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }

  private close(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    this.lastChange.delete(uri);
    this.files.get(uri)?.dispose();
    this.files.delete(uri);
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

function fileNameOf(uri: string): string {
  try {
    return decodeURIComponent(new URL(uri).pathname.split('/').pop() ?? uri);
  } catch {
    return uri;
  }
}
