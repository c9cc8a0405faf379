import { CodeActionKind, type CodeAction, type TextEdit } from 'vscode-languageserver';
import type { FixContext } from './types';

export function quickFix(ctx: FixContext, title: string, edits: Array<TextEdit | undefined>, preferred = false): CodeAction[] {
  const changes = edits.filter((e): e is TextEdit => e !== undefined);
  if (changes.length === 0) return [];
  return [{ title, kind: CodeActionKind.QuickFix, diagnostics: [ctx.diagnostic], isPreferred: preferred, edit: { changes: { [ctx.uri]: changes } } }];
}
