/**
 * The extension's side of the language server, without loading vscode-languageclient during
 * activation: the client bundle (dist/language-client.js, language-client.ts) is loaded and
 * started right after activation returns. What is sent before then waits for it.
 */
import type * as vscode from 'vscode';
import type { MirrorStateResult, MirrorSyncParams, SetApplyOptionsParams } from '../protocol/language-server';
import { loadLanguageClient } from './host-loader';
import type { Identity } from './identity';
import type { KubeSimLanguageClient } from './language-client';

export class LanguageServerLink {
  private client: Promise<KubeSimLanguageClient> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly onReady: () => void,
  ) {}

  /** Loads and starts the client once activation is over. */
  start(): void {
    this.client = new Promise((resolve, reject) =>
      setImmediate(() => {
        try {
          const module = loadLanguageClient(this.context.extensionPath);
          const client = new module.KubeSimLanguageClient(this.context, this.onReady);
          client.start();
          resolve(client);
        } catch (err) {
          reject(err);
        }
      }),
    );
    this.client.catch(() => undefined);
  }

  mirror(params: MirrorSyncParams): void {
    void this.client?.then((c) => c.mirror(params), () => undefined);
  }

  setUser(user: Identity): void {
    void this.client?.then((c) => c.setUser(user), () => undefined);
  }

  setApplyOptions(params: SetApplyOptionsParams): void {
    void this.client?.then((c) => c.setApplyOptions(params), () => undefined);
  }

  async mirrorState(): Promise<MirrorStateResult | undefined> {
    return (await this.client)?.mirrorState();
  }

  async stop(): Promise<void> {
    await (await this.client?.catch(() => undefined))?.stop();
  }
}
