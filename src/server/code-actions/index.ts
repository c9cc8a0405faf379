/** Quick fixes for kubesim's diagnostics, each in its own file. */
import type { CodeAction } from 'vscode-languageserver';
import { apiVersionForKind } from './api-version';
import { dnsName } from './dns-name';
import { requiredField } from './required-field';
import { selectorLabels } from './selector-labels';
import type { FixContext, QuickFix } from './types';
import { unknownField } from './unknown-field';

const FIXES: readonly QuickFix[] = [selectorLabels, requiredField, apiVersionForKind, dnsName, unknownField];

export function quickFixes(ctx: FixContext): CodeAction[] {
  return FIXES.flatMap((fix) => fix(ctx));
}

export type { FixContext } from './types';
