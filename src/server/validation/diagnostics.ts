/**
 * `kubesim validate`'s document reports as LSP diagnostics: the range is the offending YAML node
 * (the key of an unknown or missing field, the value of an invalid one; the `kind:` line for
 * what concerns the whole document), the message apimachinery's text, the code its error type.
 * Ranges are relative to the text the document was parsed from; the file validator shifts them.
 */
import { Diagnostic, DiagnosticSeverity, type Range } from 'vscode-languageserver';
import { positionOf, type ManifestDocument, type SourceRange } from '../../engine/apiserver/decode';
import type { LineIndex } from '../../engine/apiserver/decode/line-index';
import type { DocumentReport } from '../../engine/validator/validator';
import { entry, rangeStartingAt } from '../yaml-tree';
import { celErrorLocation, celRange } from './cel-position';

export const SOURCE = 'kubesim';

/** What a quick fix needs to know about the diagnostic it fixes. */
export interface DiagnosticData {
  field: string;
}

function toLsp(r: SourceRange): Range {
  return { start: { line: r.line - 1, character: r.column - 1 }, end: { line: r.endLine - 1, character: r.endColumn - 1 } };
}

/** The `kind: X` entry (or the document) for errors about the document as a whole. */
function documentRange(doc: ManifestDocument): SourceRange {
  const e = entry(doc.node, 'kind') ?? entry(doc.node, 'apiVersion');
  return e ? doc.lines.range(e.keySpan.start, e.value.end) : doc.range;
}

const NAMESPACE_ERROR = /namespaces "[^"]*" not found|unable to create new content in namespace \S+ because it is being terminated/;

function rangeFor(doc: ManifestDocument, field: string, line: number, column: number, message: string): SourceRange {
  const p = field ? positionOf(doc, field) : undefined;
  if (p) {
    const at = (r: SourceRange | undefined) => r && r.line === line && r.column === column;
    if (at(p.key)) return p.key!;
    if (at(p.value)) return p.value;
  }
  if (!field && NAMESPACE_ERROR.test(message)) {
    const ns = positionOf(doc, 'metadata.namespace');
    if (ns?.exact) return ns.value;
  }
  if (!field) return documentRange(doc);
  return rangeStartingAt(doc, line, column) ?? documentRange(doc);
}

function diagnostic(range: SourceRange, severity: DiagnosticSeverity, message: string, code: string | undefined, field: string): Diagnostic {
  const d = Diagnostic.create(toLsp(range), message, severity, code, SOURCE);
  const data: DiagnosticData = { field };
  d.data = data;
  return d;
}

const STRICT_WARNING = /(?:unknown|duplicate) field "([^"]*)"/;

/** A block value's range ends after its last line break: end it at its last character instead. */
function trimEnd(text: string, lines: LineIndex, r: SourceRange): SourceRange {
  if (r.endColumn !== 1 || r.endLine <= r.line) return r;
  let end = lines.offset(r.endLine, 1);
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  const p = lines.position(end);
  return { ...r, endLine: p.line, endColumn: p.column };
}

/** Diagnostics for one document; `text` is what it was parsed from. */
export function reportDiagnostics(doc: ManifestDocument, text: string, report: DocumentReport): Diagnostic[] {
  const out: Diagnostic[] = [];
  report.errors.forEach((e, i) => {
    const parseError = doc.errors[i];
    const range = parseError ? parseError.range : (celErrorRange(doc, text, e.field, e.detail) ?? trimEnd(text, doc.lines, rangeFor(doc, e.field, e.line, e.column, e.detail)));
    out.push(diagnostic(range, DiagnosticSeverity.Error, e.message, e.type || undefined, e.field));
  });
  for (const w of report.warnings) {
    const m = STRICT_WARNING.exec(w.message);
    const field = m ? m[1]! : '';
    const code = w.message.startsWith('unknown field') ? 'Unknown field' : w.message.startsWith('duplicate field') ? 'Duplicate field' : undefined;
    out.push(diagnostic(trimEnd(text, doc.lines, rangeFor(doc, field, w.line, w.column, w.message)), DiagnosticSeverity.Warning, w.message, code, field));
  }
  return out;
}

/** Expressions the API server trims before compiling them (their columns count from the trimmed text). */
const TRIMMED = /(matchConditions\[\d+\]\.expression|valueExpression)$/;

/** A CEL compile error under the character cel-go points at, inside the expression's YAML scalar. */
function celErrorRange(doc: ManifestDocument, text: string, field: string, detail: string): SourceRange | undefined {
  const loc = celErrorLocation(detail);
  if (!loc || !field) return undefined;
  // the API server reports a CRD whose versions share one schema under spec.validation
  const candidates = [field];
  if (field.startsWith('spec.validation.openAPIV3Schema')) {
    const versions = (doc.object?.['spec'] as { versions?: unknown[] } | undefined)?.versions ?? [];
    versions.forEach((_, i) => candidates.push(field.replace('spec.validation.', `spec.versions[${i}].schema.`)));
  }
  for (const f of candidates) {
    const p = positionOf(doc, f);
    if (p?.exact) return celRange(text, p.value, loc, TRIMMED.test(field));
  }
  return undefined;
}

export function shift(d: Diagnostic, lines: number): Diagnostic {
  if (lines === 0) return d;
  const { start, end } = d.range;
  return { ...d, range: { start: { line: start.line + lines, character: start.character }, end: { line: end.line + lines, character: end.character } } };
}
