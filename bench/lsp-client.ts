/**
 * A minimal LSP client over stdio for the benchmark, behaving like VS Code's where servers care:
 * it answers workspace/configuration pulls with the given settings and acknowledges the
 * requests servers send clients. Timing is edit sent -> publishDiagnostics received.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { nowMs } from './report';

export interface Diag {
  message: string;
  severity?: number;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

interface Published {
  uri: string;
  version?: number;
  diagnostics: Diag[];
}

export interface Timed {
  ms: number;
  diagnostics: Diag[];
}

export interface LspClientOptions {
  command: string;
  args: string[];
  /** Answers to workspace/configuration, by section. */
  settings?: Record<string, unknown>;
  rootUri: string;
}

export class LspClient {
  private readonly proc: ChildProcess;
  private readonly conn: MessageConnection;
  private readonly listeners = new Set<(p: Published, at: number) => void>();
  private readonly versions = new Map<string, number>();
  private configPulls = 0;

  private constructor(options: LspClientOptions) {
    this.proc = spawn(options.command, options.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr!.resume();
    this.conn = createMessageConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    const settings = options.settings ?? {};
    this.conn.onRequest('workspace/configuration', (p: { items: Array<{ section?: string }> }) => {
      this.configPulls++;
      return p.items.map((it) => (it.section !== undefined && it.section in settings ? settings[it.section] : null));
    });
    for (const method of ['client/registerCapability', 'client/unregisterCapability', 'window/workDoneProgress/create', 'workspace/codeLens/refresh']) {
      this.conn.onRequest(method, () => null);
    }
    this.conn.onRequest('workspace/workspaceFolders', () => [{ uri: options.rootUri, name: 'bench' }]);
    this.conn.onNotification('textDocument/publishDiagnostics', (p: Published) => {
      const at = nowMs();
      for (const l of [...this.listeners]) l(p, at);
    });
    this.conn.onUnhandledNotification(() => undefined);
    this.conn.listen();
  }

  static async start(options: LspClientOptions): Promise<LspClient> {
    const client = new LspClient(options);
    await client.conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: options.rootUri,
      workspaceFolders: [{ uri: options.rootUri, name: 'bench' }],
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, workspaceFolders: true },
        textDocument: { synchronization: { dynamicRegistration: true }, publishDiagnostics: { relatedInformation: true, versionSupport: true } },
      },
      initializationOptions: {},
    });
    await client.conn.sendNotification('initialized', {});
    if (options.settings) {
      // Servers that pull settings (yaml-language-server) do so after this; wait for the pull.
      const before = client.configPulls;
      await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: options.settings });
      const t0 = nowMs();
      while (client.configPulls === before && nowMs() - t0 < 5000) await sleep(10);
      await sleep(300);
    }
    return client;
  }

  /** The first diagnostics for `uri` published after now (for `version`, when the server says). */
  private next(uri: string, version: number, timeoutMs = 60_000): Promise<{ p: Published; at: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(fn);
        reject(new Error(`no diagnostics for ${uri} v${version} within ${timeoutMs} ms`));
      }, timeoutMs);
      const fn = (p: Published, at: number) => {
        if (p.uri !== uri || (p.version !== undefined && p.version !== version)) return;
        this.listeners.delete(fn);
        clearTimeout(timer);
        resolve({ p, at });
      };
      this.listeners.add(fn);
    });
  }

  async open(uri: string, text: string, timeoutMs = 60_000): Promise<Timed> {
    this.versions.set(uri, 1);
    const wait = this.next(uri, 1, timeoutMs);
    const t0 = nowMs();
    await this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const { p, at } = await wait;
    return { ms: at - t0, diagnostics: p.diagnostics };
  }

  /** One incremental change replacing a range on one line. */
  async change(uri: string, line: number, start: number, end: number, text: string): Promise<Timed> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const wait = this.next(uri, version);
    const t0 = nowMs();
    await this.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line, character: start }, end: { line, character: end } }, text }],
    });
    const { p, at } = await wait;
    return { ms: at - t0, diagnostics: p.diagnostics };
  }

  /** Any request (hover, code actions), answered or rejected with the server's error. */
  request<T>(method: string, params: unknown): Promise<T> {
    return this.conn.sendRequest(method, params) as Promise<T>;
  }

  /** The server process's id, and whether it is still running. */
  get pid(): number | undefined {
    return this.proc.pid;
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  async close(uri: string): Promise<void> {
    await this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.conn.sendRequest('shutdown'), sleep(3000)]);
      await this.conn.sendNotification('exit');
    } catch {
      // The server may already be gone; it is killed below either way.
    }
    await Promise.race([new Promise((r) => this.proc.once('exit', r)), sleep(3000)]);
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    this.conn.dispose();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
