import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import type { ResourceRegistry } from '../../engine/api/registry';
import type { SourceNode } from '../../engine/apiserver/decode';
import type { Unit } from '../units';

/** What a quick fix sees: the diagnostic it fixes and the document it is in. */
export interface FixContext {
  uri: string;
  unit: Unit;
  root: SourceNode;
  diagnostic: Diagnostic;
  /** The apimachinery field path the diagnostic names ("" for the document). */
  field: string;
  registry: ResourceRegistry;
}

export type QuickFix = (ctx: FixContext) => CodeAction[];
