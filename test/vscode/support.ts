import * as path from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'kubesim.kubesim';

/** The repository (the extension under development) the suites run from. */
export function repoPath(...parts: string[]): string {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return path.join(ext.extensionPath, ...parts);
}

/** The kubesim diagnostics of a document once they satisfy `ready` (they arrive asynchronously). */
export function kubesimDiagnostics(uri: vscode.Uri, ready: (d: vscode.Diagnostic[]) => boolean, timeoutMs = 30_000): Promise<vscode.Diagnostic[]> {
  const current = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'kubesim');
  return new Promise((resolve, reject) => {
    const done = (value: vscode.Diagnostic[] | Error) => {
      sub.dispose();
      clearTimeout(timer);
      if (value instanceof Error) reject(value);
      else resolve(value);
    };
    const check = () => {
      const d = current();
      if (ready(d)) done(d);
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => done(new Error(`timed out waiting for kubesim diagnostics on ${uri.toString()}: have ${JSON.stringify(current().map(summary))}`)), timeoutMs);
    check();
  });
}

export interface DiagnosticSummary {
  range: [number, number, number, number];
  severity: string;
  code: string;
  message: string;
}

export function summary(d: vscode.Diagnostic): DiagnosticSummary {
  const code = typeof d.code === 'object' ? String(d.code.value) : String(d.code ?? '');
  return { range: [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character], severity: vscode.DiagnosticSeverity[d.severity], code, message: d.message };
}
