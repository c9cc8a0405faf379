/**
 * Manifest files as kubectl reads them, for the CLI and the language server: documents split on
 * `---` (or a stream of JSON objects), YAML 1.1 scalars, the last of repeated keys, empty
 * documents skipped; and kubectl's own checks before anything is sent (apiVersion and kind set).
 * Every document keeps its parse tree, so any field path an error names can be pointed at.
 */
import { goJson, goQuote } from '../../api/gofmt';
import type { JsonObject } from '../../api/types';
import { jsonPointer, parseFieldPath, type PathSegment } from './field-path';
import { parseJson } from './json-parse';
import { LineIndex, type SourceRange } from './line-index';
import { ETCD_MAX_REQUEST_BYTES, MAX_DEPTH, MAX_MANIFEST_BYTES, MAX_NODES, MAX_REQUEST_BODY_BYTES } from './limits';
import { firstUnrepresentableNumber, goFloat64Error, toJsonValue, type SourceNode, type SourceSpan } from './source';
import { irregularChunks } from './yaml-chunks';
import { parseYamlDocuments, type YamlDocument } from './yaml-parse';

export interface NodePosition {
  /** The key naming the value, where there is one (not for list items or the document). */
  key?: SourceRange;
  value: SourceRange;
}

export interface ManifestProblem {
  /** The error as kubectl prints it for this document, without the file name. */
  message: string;
  /** The same, as kubectl prints it with the file name. */
  kubectl: string;
  range: SourceRange;
}

export interface DuplicateKey {
  /** apimachinery field path of the repeated key. */
  path: string;
  range: SourceRange;
}

export interface ManifestDocument {
  /** Position among the file's non-empty documents, from 0. */
  index: number;
  fileName: string;
  range: SourceRange;
  /** Every key as written, duplicates included; absent when the document could not be parsed. */
  node?: SourceNode;
  /** The object kubectl sends for this document; absent when it has errors. */
  object?: JsonObject;
  errors: ManifestProblem[];
  /** Keys repeated in one mapping: kubectl keeps the last silently, so these are only warnings. */
  duplicates: DuplicateKey[];
  readonly lines: LineIndex;
}

const STOP_VALIDATE = 'if you choose to ignore these errors, turn validation off with --validate=false';

export interface ManifestOptions {
  /** kubectl's --validate: false skips its apiVersion/kind checks and only decodes. */
  validate?: boolean;
}

export function parseManifest(text: string, fileName = '<stdin>', options: ManifestOptions = {}): ManifestDocument[] {
  const lines = new LineIndex(text);
  if (Buffer.byteLength(text, 'utf8') > MAX_MANIFEST_BYTES) {
    const message = `file is larger than ${MAX_MANIFEST_BYTES} bytes`;
    return [{ index: 0, fileName, range: lines.range(0, 0), errors: [{ message, kubectl: `error reading ${fileName}: ${message}`, range: lines.range(0, 0) }], duplicates: [], lines }];
  }
  const raw = /^\s*\{/.test(text) ? jsonDocuments(text, fileName, lines) : yamlDocuments(text, fileName, lines);
  const docs = raw.filter((d) => d.errors.length > 0 || (d.node !== undefined && d.node.kind !== 'null'));
  docs.forEach((d, i) => {
    d.index = i;
    if (d.errors.length === 0 && d.node) check(d, options.validate ?? true);
  });
  return docs;
}

/**
 * kubectl reads JSON files as a stream (encoding/json's Decoder in apimachinery's
 * YAMLOrJSONDecoder): a truncated document is io.ErrUnexpectedEOF, a syntax error carries the
 * byte offset after the offending character.
 */
function jsonStreamError(text: string, error: { message: string; offset: number }): string {
  if (error.offset >= text.length) return 'unexpected EOF';
  return `json: offset ${Buffer.byteLength(text.slice(0, error.offset), 'utf8') + 1}: ${error.message}`;
}

function jsonDocuments(text: string, fileName: string, lines: LineIndex): ManifestDocument[] {
  const docs: ManifestDocument[] = [];
  let at = 0;
  while (at < text.length && /\S/.test(text.slice(at))) {
    const parsed = parseJson(text, MAX_DEPTH, at, true);
    if (!parsed.ok) {
      const { message, offset } = parsed.error;
      const range = lines.range(offset, Math.min(offset + 1, text.length));
      docs.push(doc(fileName, lines, lines.range(at, text.length), [{ message, kubectl: `error parsing ${fileName}: ${jsonStreamError(text, parsed.error)}`, range }]));
      break;
    }
    const { node, end } = parsed.value;
    docs.push(doc(fileName, lines, lines.range(node.start, node.end), [], node));
    at = end;
  }
  return docs;
}

function yamlDocuments(text: string, fileName: string, lines: LineIndex): ManifestDocument[] {
  const limits = { maxDepth: MAX_DEPTH, maxNodes: MAX_NODES };
  const irregular = irregularChunks(text);
  if (!irregular) {
    // kubectl's pieces are YAML's documents; go-yaml counts lines from the start of each piece,
    // which starts after its `---` unless nothing came before it.
    return parseYamlDocuments(text, limits).map((y) => yamlDocument(y, y.start > 0 && text.startsWith('---', y.start) ? lines.position(y.start).line + 1 : lines.position(y.start).line, fileName, lines));
  }
  const docs: ManifestDocument[] = [];
  for (const chunk of irregular.chunks) {
    // go-yaml skips a byte order mark at the start of each piece, and reads its first document only.
    const start = text.charCodeAt(chunk.start) === 0xfeff ? chunk.start + 1 : chunk.start;
    const first = parseYamlDocuments(text.slice(start, chunk.end), limits)[0];
    if (!first) continue;
    docs.push(yamlDocument(shifted(first, start), lines.position(chunk.start).line, fileName, lines));
  }
  const bad = irregular.separatorError;
  if (bad) {
    const range = lines.range(bad.start, bad.end);
    docs.push(doc(fileName, lines, range, [{ message: bad.message, kubectl: `error parsing ${fileName}: ${bad.message}`, range }]));
  }
  return docs;
}

/** A parsed YAML document as a manifest document; `firstLine` is the line go-yaml counts as its line 1. */
function yamlDocument(y: YamlDocument, firstLine: number, fileName: string, lines: LineIndex): ManifestDocument {
  const errors = y.errors.map((p) => {
    const line = Math.max(1, lines.position(p.start).line - firstLine + 1);
    const core = /^(yaml|json): /.test(p.message) ? p.message : `yaml: line ${line}: ${p.message}`;
    const message = `error converting YAML to JSON: ${core}`;
    return { message, kubectl: `error parsing ${fileName}: ${message}`, range: lines.range(p.start, Math.max(p.end, p.start + 1)) };
  });
  const d = doc(fileName, lines, lines.range(y.start, y.end), errors, errors.length === 0 ? y.node : undefined);
  d.duplicates = y.duplicates.map((dup) => ({ path: fieldPath([...dup.path, dup.key]), range: lines.range(dup.keySpan.start, dup.keySpan.end) }));
  return d;
}

/** A document parsed from a piece of the text, with its offsets moved to the whole text's. */
function shifted(y: YamlDocument, by: number): YamlDocument {
  if (by === 0) return y;
  const span = <T extends SourceSpan>(x: T): T => ({ ...x, start: x.start + by, end: x.end + by });
  const seen = new Map<SourceNode, SourceNode>();
  const node = (n: SourceNode): SourceNode => {
    // Aliases share a node: shift it once.
    const done = seen.get(n);
    if (done) return done;
    let out: SourceNode;
    if (n.kind === 'object') out = { ...span(n), entries: n.entries.map((e) => ({ key: e.key, keySpan: span(e.keySpan), value: node(e.value) })) };
    else if (n.kind === 'array') out = { ...span(n), items: n.items.map(node) };
    else out = span(n);
    seen.set(n, out);
    return out;
  };
  const out: YamlDocument = {
    start: y.start + by,
    end: y.end + by,
    errors: y.errors.map(span),
    duplicates: y.duplicates.map((d) => ({ ...d, keySpan: span(d.keySpan), valueStart: d.valueStart + by })),
  };
  if (y.node) out.node = node(y.node);
  return out;
}

function doc(fileName: string, lines: LineIndex, range: SourceRange, errors: ManifestProblem[], node?: SourceNode): ManifestDocument {
  const d: ManifestDocument = { index: 0, fileName, range, errors, duplicates: [], lines };
  if (node) d.node = node;
  return d;
}

/**
 * kubectl's checks before sending: with validation an object with string apiVersion and kind,
 * without it only what decoding into an unstructured object needs; then a size etcd can store.
 */
function check(d: ManifestDocument, validate: boolean): void {
  const node = d.node!;
  const whole = d.lines.range(node.start, node.end);
  const fail = (message: string, kubectl: string) => void d.errors.push({ message, kubectl, range: whole });
  // kubectl reads the JSON into interface{} values first (its validation, then its decoder): a
  // number beyond float64 stops it there. From YAML such a number is a string already.
  const huge = firstUnrepresentableNumber(node);
  if (huge) {
    const range = d.lines.range(huge.start, huge.end);
    const reason = goFloat64Error(huge);
    const message = validate ? `error validating data: ${reason}; ${STOP_VALIDATE}` : reason;
    return void d.errors.push({ message, kubectl: validate ? `error validating ${goQuote(d.fileName)}: ${message}` : `unable to decode ${goQuote(d.fileName)}: ${message}`, range });
  }
  if (validate) {
    const problems = validationProblems(node);
    if (problems.length > 0) {
      const message = `error validating data: ${aggregate(problems)}; ${STOP_VALIDATE}`;
      return fail(message, `error validating ${goQuote(d.fileName)}: ${message}`);
    }
  } else {
    const message = undecodable(node);
    if (message) return fail(message, `unable to decode ${goQuote(d.fileName)}: ${message}`);
  }
  const object = toJsonValue(node) as JsonObject;
  const size = Buffer.byteLength(JSON.stringify(object), 'utf8');
  if (size > ETCD_MAX_REQUEST_BYTES) {
    const message = size > MAX_REQUEST_BODY_BYTES ? `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}` : 'etcdserver: request is too large';
    return fail(message, `Error from server: ${message}`);
  }
  d.object = object;
}

/** kubectl's getObjectKind (pkg/validation): what must be there before the schema is consulted. */
function validationProblems(node: SourceNode): string[] {
  if (node.kind !== 'object') return ['invalid object to validate'];
  const problems: string[] = [];
  const last = (key: string) => [...node.entries].reverse().find((e) => e.key === key)?.value;
  const apiVersion = last('apiVersion');
  if (!apiVersion || apiVersion.kind === 'null') problems.push('apiVersion not set');
  else if (apiVersion.kind !== 'string') problems.push("apiVersion isn't string type");
  else if (apiVersion.value.split('/').length > 2) problems.push(`unexpected GroupVersion string: ${apiVersion.value}`);
  const kind = last('kind');
  if (!kind || kind.kind === 'null') problems.push('kind not set');
  else if (kind.kind !== 'string') problems.push("kind isn't string type");
  return problems;
}

/** unstructured.UnstructuredJSONScheme's Decode errors. */
function undecodable(node: SourceNode): string | undefined {
  if (node.kind !== 'object') return `json: cannot unmarshal ${node.kind} into Go value of type unstructured.detector`;
  const kind = [...node.entries].reverse().find((e) => e.key === 'kind')?.value;
  if (kind?.kind === 'string' && kind.value !== '') return undefined;
  return `Object 'Kind' is missing in '${goJson(toJsonValue(node))}'`;
}

/** utilerrors.NewAggregate's text: one message as is, several in brackets. */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

function fieldPath(segments: Array<string | number>): string {
  let s = '';
  for (const seg of segments) s += typeof seg === 'number' ? `[${seg}]` : s === '' ? seg : `.${seg}`;
  return s;
}

/**
 * Where a field is: `spec.template.spec.containers[0].image`, `metadata.labels[app]`. Map keys
 * holding dots may also come dotted (`metadata.labels.app.kubernetes.io/name`, as decode errors
 * write them). When the field is not in the document (a required field that is missing), the
 * nearest enclosing value is given, with `exact` false.
 */
export function positionOf(d: ManifestDocument, path: string): (NodePosition & { exact: boolean }) | undefined {
  if (!d.node) return undefined;
  const segments = parseFieldPath(path);
  let node: SourceNode = d.node;
  let keySpan: SourceSpan | undefined;
  for (let i = 0; i < segments.length; i++) {
    const first = segments[i]!;
    let next: ReturnType<typeof step>;
    // A key with dots in it, split by a dotted path: the longest run of names that is a key wins.
    let run = 1;
    if ('name' in first && node.kind === 'object') while (i + run < segments.length && 'name' in segments[i + run]!) run++;
    for (let k = run; !next && k >= 1; k--) {
      const names = segments.slice(i, i + k).map((s) => ('name' in s ? s.name : s.bracket));
      next = step(node, k === 1 ? first : { name: names.join('.') });
      if (next) i += k - 1;
    }
    if (!next) return { ...position(d, node, keySpan), exact: false };
    node = next.node;
    keySpan = next.keySpan;
  }
  return { ...position(d, node, keySpan), exact: true };
}

function step(node: SourceNode, segment: PathSegment): { node: SourceNode; keySpan?: SourceSpan } | undefined {
  const key = 'name' in segment ? segment.name : segment.bracket;
  if (node.kind === 'object') {
    for (let i = node.entries.length - 1; i >= 0; i--) {
      const e = node.entries[i]!;
      if (e.key === key) return { node: e.value, keySpan: e.keySpan };
    }
    return undefined;
  }
  if (node.kind === 'array' && 'bracket' in segment && /^\d+$/.test(key)) {
    const item = node.items[Number(key)];
    return item ? { node: item } : undefined;
  }
  return undefined;
}

function position(d: ManifestDocument, node: SourceNode, keySpan: SourceSpan | undefined): NodePosition {
  const value = d.lines.range(node.start, node.end);
  return keySpan ? { key: d.lines.range(keySpan.start, keySpan.end), value } : { value };
}

/** Every value's position by JSON pointer ("/spec/replicas"); for repeated keys, the last. */
export function positions(d: ManifestDocument): Map<string, NodePosition> {
  const out = new Map<string, NodePosition>();
  if (!d.node) return out;
  const stack: Array<{ node: SourceNode; path: Array<string | number>; keySpan?: SourceSpan }> = [{ node: d.node, path: [] }];
  while (stack.length > 0) {
    const { node, path, keySpan } = stack.pop()!;
    out.set(jsonPointer(path), position(d, node, keySpan));
    if (node.kind === 'object') {
      const last = new Map<string, (typeof node.entries)[number]>();
      for (const e of node.entries) last.set(e.key, e);
      for (const e of last.values()) stack.push({ node: e.value, path: [...path, e.key], keySpan: e.keySpan });
    } else if (node.kind === 'array') {
      node.items.forEach((item, i) => stack.push({ node: item, path: [...path, i] }));
    }
  }
  return out;
}
