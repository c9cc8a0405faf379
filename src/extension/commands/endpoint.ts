/**
 * Start API Endpoint and Stop API Endpoint: the editor's cluster for kubectl (endpoint/controller.ts).
 */
import * as vscode from 'vscode';
import type { ApiEndpointController } from '../endpoint/controller';

export function registerEndpointCommands(endpoint: ApiEndpointController): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubesim.startApiEndpoint', () => endpoint.start()),
    vscode.commands.registerCommand('kubesim.stopApiEndpoint', () => endpoint.stop()),
  ];
}
