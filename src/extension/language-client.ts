/**
 * The kubesim language server (dist/server.mjs) for YAML files (this module is its own bundle,
 * dist/language-client.js, loaded by language-server-link.ts), and the two things the extension
 * tells it beyond LSP: the live cluster's objects for its mirror (kubesim/mirrorSync) and whose
 * identity and field validation to validate with (kubesim/setUser, kubesim/setApplyOptions). Whenever the server (re)starts, `onReady` runs
 * so the extension can give it the full picture again.
 */
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { MIRROR_STATE, MIRROR_SYNC, SET_APPLY_OPTIONS, SET_USER, type MirrorStateResult, type MirrorSyncParams, type SetApplyOptionsParams, type SetUserParams } from '../protocol/language-server';
import type { Identity } from './identity';

export class KubeSimLanguageClient {
  private readonly client: LanguageClient;
  private started: Promise<void> | undefined;

  constructor(context: vscode.ExtensionContext, onReady: () => void) {
    const module = context.asAbsolutePath(path.join('dist', 'server.mjs'));
    const serverOptions: ServerOptions = { module, transport: TransportKind.ipc };
    const clientOptions: LanguageClientOptions = { documentSelector: [{ language: 'yaml' }] };
    this.client = new LanguageClient('kubesim', 'KubeSim', serverOptions, clientOptions);
    context.subscriptions.push(this.client.onDidChangeState((e) => e.newState === State.Running && onReady()));
  }

  /** Not awaited by activation: the server comes up in the background and reports its own failures. */
  start(): void {
    this.started = this.client.start().catch(() => undefined);
  }

  mirror(params: MirrorSyncParams): void {
    this.client.sendNotification(MIRROR_SYNC, params).catch(() => undefined);
  }

  setUser(user: Identity): void {
    const params: SetUserParams = { username: user.username, groups: [...user.groups] };
    this.client.sendNotification(SET_USER, params).catch(() => undefined);
  }

  setApplyOptions(params: SetApplyOptionsParams): void {
    this.client.sendNotification(SET_APPLY_OPTIONS, params).catch(() => undefined);
  }

  mirrorState(): Promise<MirrorStateResult> {
    return this.client.sendRequest(MIRROR_STATE);
  }

  async stop(): Promise<void> {
    await this.started;
    if (this.client.isRunning()) await this.client.stop();
  }
}
