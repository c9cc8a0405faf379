/**
 * The extension host side: starts the kubesim language server (dist/server.js) for YAML files.
 * Everything the server knows comes from the engine in its own process; this file only connects.
 */
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;
let started: Promise<void> | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = { module, transport: TransportKind.ipc };
  const clientOptions: LanguageClientOptions = { documentSelector: [{ language: 'yaml' }] };
  client = new LanguageClient('kubesim', 'KubeSim', serverOptions, clientOptions);
  // Not awaited: activation returns at once and the server comes up in the background. The
  // client reports a failed start itself (output channel and notification).
  started = client.start().catch(() => undefined);
}

export async function deactivate(): Promise<void> {
  await started;
  await client?.stop();
}
