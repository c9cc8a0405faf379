/**
 * The guided start's commands (contributes.walkthroughs in package.json): Open Example opens one of
 * the manifests bundled in examples/, Apply Example opens it and applies it as Apply Current
 * Manifest does, then marks the walkthrough's step done (a context key its completion event
 * waits for). Only the bundled examples are accepted: the argument comes from a command link.
 */
import * as vscode from 'vscode';
import type { Services } from './services';

/** The bundled examples and the walkthrough step each one completes. */
export const EXAMPLES: ReadonlyMap<string, string> = new Map([
  ['web.yaml', 'kubesim.walkthrough.applied.web'],
  ['pending.yaml', 'kubesim.walkthrough.applied.pending'],
  ['web-v2.yaml', 'kubesim.walkthrough.applied.rollout'],
]);

function exampleArg(arg: unknown): string | undefined {
  const name = Array.isArray(arg) ? arg[0] : arg;
  return typeof name === 'string' && EXAMPLES.has(name) ? name : undefined;
}

async function pickExample(arg: unknown, title: string): Promise<string | undefined> {
  return exampleArg(arg) ?? (await vscode.window.showQuickPick([...EXAMPLES.keys()], { title: `KubeSim: ${title}`, placeHolder: 'a bundled example manifest' }));
}

async function openExample(s: Services, name: string): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(s.context.extensionUri, 'examples', name);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
  return uri;
}

export function registerWalkthroughCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubesim.openExample', async (arg?: unknown) => {
      const name = await pickExample(arg, 'Open Example');
      if (name) await openExample(s, name);
    }),
    vscode.commands.registerCommand('kubesim.applyExample', async (arg?: unknown) => {
      const name = await pickExample(arg, 'Apply Example');
      if (!name) return;
      const uri = await openExample(s, name);
      await vscode.commands.executeCommand('kubesim.apply', uri);
      await vscode.commands.executeCommand('setContext', EXAMPLES.get(name)!, true);
    }),
  ];
}
