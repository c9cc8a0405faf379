/**
 * YAML text to SourceNodes, the way sigs.k8s.io/yaml (go-yaml v2, then JSON) reads it: YAML 1.1
 * scalars, map keys rendered as JSON strings, `<<` merge keys, aliases expanded. Every key is
 * kept in order, duplicates too: the caller decides whether the last one wins (kubectl, and
 * kube-apiserver's non-strict conversion) or whether they are an error (strict field validation).
 *
 * Bad input is reported per document, never thrown: syntax errors, nesting beyond `maxDepth`
 * (checked on the parser's token tree before anything recursive runs), and alias expansion
 * beyond `maxNodes` (the "billion laughs").
 */
import { Alias, Composer, Parser, Scalar, YAMLMap, YAMLSeq, isAlias, isMap, isScalar, isSeq, type Document, type Node as YamlNode } from 'yaml';
import type { CST } from 'yaml';
import { goQuote } from '../../api/gofmt';
import type { ObjectNode, SourceEntry, SourceNode, SourceSpan } from './source';
import { fastYamlDocuments } from './yaml-fast';
import { jsonKey, resolvedNode, resolvePlain, resolveTagged, type Resolved } from './yaml-scalars';

export interface YamlProblem {
  message: string;
  start: number;
  end: number;
}

/** A key repeated in one mapping (merged keys count), as go-yaml's strict mode reports them. */
export interface YamlDuplicate {
  /** Keys and list indexes down to the mapping holding the key. */
  path: Array<string | number>;
  key: string;
  /** The key as go-yaml prints it with %#v: "replicas" quoted, numbers and booleans bare. */
  goKey: string;
  keySpan: SourceSpan;
  /** Where the repeated key's value starts: go-yaml names that line. */
  valueStart: number;
}

export interface YamlDocument {
  start: number;
  end: number;
  /** Undefined for a document without content (only comments) or one with errors. */
  node?: SourceNode;
  errors: YamlProblem[];
  duplicates: YamlDuplicate[];
}

export interface YamlLimits {
  maxDepth: number;
  /** Nodes after alias expansion. */
  maxNodes: number;
}

class Fail {
  constructor(readonly problem: YamlProblem) {}
}

const MERGE_TAG = 'tag:yaml.org,2002:merge';

export function parseYamlDocuments(text: string, limits: YamlLimits): YamlDocument[] {
  // The fast path takes printable ASCII and line feeds only: what go-yaml's reader checks is moot there.
  const fast = fastYamlDocuments(text, limits);
  if (fast) return fast;
  const docs = generalYamlDocuments(asGoYamlReads(text), limits);
  return withReaderErrors(text, docs);
}

/**
 * go-yaml reads a carriage return not followed by a line feed, and a NEL (U+0085), as a line feed
 * (in scalars too); the yaml package does not. One character for one keeps every offset.
 */
function asGoYamlReads(text: string): string {
  return /\r(?!\n)|\u0085/.test(text) ? text.replace(/\r(?!\n)|\u0085/g, '\n') : text;
}

/** What go-yaml's reader refuses: C0 and C1 controls but tab, LF, CR and NEL; U+FFFE, U+FFFF; lone surrogates. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A document holding a character go-yaml's reader refuses fails with its error, and nothing else. */
function withReaderErrors(text: string, docs: YamlDocument[]): YamlDocument[] {
  CONTROL.lastIndex = 0;
  let m = CONTROL.exec(text);
  if (!m) return docs;
  if (docs.length === 0) docs.push({ start: 0, end: text.length, errors: [], duplicates: [] });
  for (const doc of docs) {
    if (m && m.index < doc.start) {
      CONTROL.lastIndex = doc.start;
      m = CONTROL.exec(text);
    }
    if (!m || m.index >= doc.end) continue;
    doc.errors = [{ message: 'yaml: control characters are not allowed', start: m.index, end: m.index + 1 }];
    doc.duplicates = [];
    delete doc.node;
  }
  return docs;
}

/** Any YAML, through the yaml package's parser and composer (the fast path's reference). */
export function generalYamlDocuments(text: string, limits: YamlLimits): YamlDocument[] {
  // The yaml package's parser recurses as deep as the text nests: a document nested far beyond
  // the limit is blanked out before it is parsed, and gets the depth error.
  const tooDeepDocs = farTooDeep(text, limits.maxDepth * 4);
  const docs = parsedDocuments(tooDeepDocs.length > 0 ? blanked(text, tooDeepDocs) : text, limits);
  for (const deep of tooDeepDocs) {
    const error: YamlProblem = { message: `yaml: exceeded max depth of ${limits.maxDepth}`, start: deep.at, end: deep.at + 1 };
    const holder = docs.find((d) => d.start <= deep.at && deep.at < d.end);
    if (holder) {
      holder.errors = [error];
      holder.duplicates = [];
      delete holder.node;
    } else {
      docs.push({ start: deep.start, end: deep.end, errors: [error], duplicates: [] });
      docs.sort((x, y) => x.start - y.start);
    }
  }
  return docs;
}

interface DeepRegion {
  /** The document's text, after its `---` line. */
  start: number;
  end: number;
  /** Where the nesting first went past the bound. */
  at: number;
}

/**
 * Documents whose nesting certainly exceeds `bound`, from a scan of the text alone: block levels
 * (indentation deeper than the line before, and each "- " a line starts with) and flow levels
 * (brackets outside quotes and comments). It can only overcount by brackets in plain scalars,
 * which is why the bound is a multiple of the real limit, checked exactly on the parse tree.
 */
function farTooDeep(text: string, bound: number): DeepRegion[] {
  const out: DeepRegion[] = [];
  let docStart = 0;
  let indents: number[] = [];
  let flow = 0;
  let at = -1;
  const close = (end: number) => {
    if (at >= 0) out.push({ start: docStart, end, at });
    at = -1;
    indents = [];
    flow = 0;
  };
  for (let lineStart = 0; lineStart < text.length; ) {
    let eol = text.indexOf('\n', lineStart);
    if (eol < 0) eol = text.length;
    const next = eol + 1;
    if (flow === 0 && (text.startsWith('---', lineStart) || text.startsWith('...', lineStart)) && /^(---|\.\.\.)(\s|$)/.test(text.slice(lineStart, lineStart + 4))) {
      close(lineStart);
      docStart = Math.min(next, text.length);
      lineStart = next;
      continue;
    }
    // A document known to be too deep: only its end is looked for.
    if (at >= 0) {
      lineStart = next;
      continue;
    }
    let i = lineStart;
    while (i < eol && text.charCodeAt(i) === 0x20) i++;
    const blank = i >= eol || text[i] === '#' || text[i] === '\r';
    if (!blank && flow === 0) {
      const column = i - lineStart;
      while (indents.length > 0 && indents[indents.length - 1]! >= column) indents.pop();
      indents.push(column);
      let dashes = 0;
      while (text[i] === '-' && (text[i + 1] === ' ' || i + 1 >= eol)) {
        dashes++;
        i += 2;
        while (i < eol && text.charCodeAt(i) === 0x20) i++;
      }
      if (indents.length + dashes > bound) at = lineStart + column;
    }
    // Flow levels on the line, outside quotes and comments.
    for (let j = i; j < eol && at < 0; j++) {
      const c = text[j];
      if (c === '"' || c === "'") {
        const q = c;
        for (j++; j < text.length && text[j] !== q; j++) if (q === '"' && text[j] === '\\') j++;
        if (text.indexOf('\n', lineStart) >= 0 && j > eol) {
          eol = text.indexOf('\n', j);
          if (eol < 0) eol = text.length;
        }
      } else if (c === '#' && (j === lineStart || /\s/.test(text[j - 1]!))) break;
      else if (c === '[' || c === '{') {
        if (++flow > bound) at = j;
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
    lineStart = eol + 1;
  }
  close(text.length);
  return out;
}

/**
 * The text with those documents' contents replaced by one comment of the same length, so every
 * offset stays and the parser reads each in one step (a region ends at a line's start, or at the
 * end of the text).
 */
function blanked(text: string, regions: readonly DeepRegion[]): string {
  const parts: string[] = [];
  let last = 0;
  for (const r of regions) {
    parts.push(text.slice(last, r.start));
    const length = r.end - r.start;
    const newline = r.end < text.length || text.endsWith('\n') ? 1 : 0;
    if (length > newline) parts.push('#' + ' '.repeat(length - newline - 1) + '\n'.repeat(newline));
    else parts.push(text.slice(r.start, r.end));
    last = r.end;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

function parsedDocuments(text: string, limits: YamlLimits): YamlDocument[] {
  const tokens = [...new Parser().parse(text)];
  const starts = tokens.filter((t) => t.type === 'document').map((t) => t.offset);
  const docs: YamlDocument[] = [];
  const strayErrors: YamlProblem[] = [];
  let docIndex = 0;
  tokens.forEach((token) => {
    if (token.type === 'error') {
      strayErrors.push({ message: token.message, start: token.offset, end: token.offset + token.source.length });
      return;
    }
    if (token.type !== 'document') return;
    const start = token.offset;
    const end = starts[++docIndex] ?? text.length;
    const deepAt = tooDeep(token, limits.maxDepth);
    if (deepAt !== undefined) {
      docs.push({ start, end, errors: [{ message: `yaml: exceeded max depth of ${limits.maxDepth}`, start: deepAt, end: deepAt + 1 }], duplicates: [] });
      return;
    }
    const composer = new Composer({ schema: 'failsafe', uniqueKeys: false, strict: false });
    for (const doc of [...composer.next(token), ...composer.end()]) docs.push(convertDocument(doc, start, end, limits));
  });
  // An error outside any document belongs to the one it follows (the first, before any).
  for (const e of strayErrors) {
    if (docs.length === 0) docs.push({ start: 0, end: text.length, errors: [], duplicates: [] });
    let holder = docs[0]!;
    for (const d of docs) if (d.start <= e.start) holder = d;
    holder.errors.push(e);
  }
  return docs;
}

/** The offset of the first collection nested deeper than `max`, walking the token tree iteratively. */
function tooDeep(doc: CST.Document, max: number): number | undefined {
  const stack: Array<[CST.Token, number]> = doc.value ? [[doc.value, 0]] : [];
  while (stack.length > 0) {
    const [t, depth] = stack.pop()!;
    if (t.type !== 'block-map' && t.type !== 'block-seq' && t.type !== 'flow-collection') continue;
    if (depth + 1 > max) return t.offset;
    for (const item of t.items) for (const part of [item.key, item.value]) if (part) stack.push([part, depth + 1]);
  }
  return undefined;
}

function convertDocument(doc: Document.Parsed, start: number, end: number, limits: YamlLimits): YamlDocument {
  const out: YamlDocument = { start, end, errors: [], duplicates: [] };
  const first = doc.errors[0];
  if (first) {
    out.errors.push({ message: first.message, start: first.pos[0], end: first.pos[1] });
    return out;
  }
  if (doc.contents === null) return out;
  try {
    out.node = new Converter(limits, out.duplicates).convert(doc.contents, 0, []);
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    out.errors.push(e.problem);
  }
  return out;
}

class Converter {
  private readonly anchors = new Map<string, SourceNode | 'pending'>();
  private readonly sizes = new Map<SourceNode, number>();
  private readonly heights = new Map<SourceNode, number>();
  private nodes = 0;

  constructor(
    private readonly limits: YamlLimits,
    private readonly duplicates: YamlDuplicate[],
  ) {}

  convert(node: YamlNode, depth: number, path: Array<string | number>): SourceNode {
    if (isAlias(node)) return this.alias(node, depth);
    const anchor = node.anchor;
    if (anchor) this.anchors.set(anchor, 'pending');
    this.count(1, node);
    let out: SourceNode;
    if (isScalar(node)) out = this.scalar(node);
    else if (isMap(node)) out = this.map(node, depth, path);
    else if (isSeq(node)) out = this.seq(node, depth, path);
    else throw new Fail({ message: 'yaml: unsupported node', ...span(node) });
    if (anchor) this.anchors.set(anchor, out);
    return out;
  }

  private alias(node: Alias, depth: number): SourceNode {
    const target = this.anchors.get(node.source);
    if (target === 'pending') throw new Fail({ message: `yaml: anchor '${node.source}' value contains itself`, ...span(node) });
    if (!target) throw new Fail({ message: `yaml: unknown anchor '${node.source}' referenced`, ...span(node) });
    if (depth + this.height(target) > this.limits.maxDepth) {
      throw new Fail({ message: `yaml: exceeded max depth of ${this.limits.maxDepth}`, ...span(node) });
    }
    this.count(this.size(target), node);
    return target;
  }

  private count(n: number, node: YamlNode): void {
    this.nodes += n;
    if (this.nodes > this.limits.maxNodes) throw new Fail({ message: 'yaml: document contains excessive aliasing', ...span(node) });
  }

  private scalar(node: Scalar): SourceNode {
    const s = span(node);
    // The yaml library itself resolves a few explicit tags (!!binary to bytes, !!timestamp to a Date).
    if (node.value instanceof Uint8Array) return { kind: 'string', value: Buffer.from(node.value).toString('utf8'), ...s };
    const text = typeof node.value === 'string' ? node.value : (node.source ?? String(node.value ?? ''));
    let r: Resolved;
    if (node.tag) {
      const tagged = resolveTagged(node.tag, text);
      if (tagged && !tagged.ok) throw new Fail({ message: tagged.error, ...s });
      r = tagged ? tagged.value : { kind: 'string', value: text };
    } else {
      r = node.type === 'PLAIN' ? resolvePlain(text) : { kind: 'string', value: text };
    }
    return resolvedNode(r, s, (special) => {
      throw new Fail({ message: `json: unsupported value: ${special}`, ...s });
    });
  }

  private map(node: YAMLMap, depth: number, path: Array<string | number>): ObjectNode {
    const out: ObjectNode = { kind: 'object', entries: [], ...span(node) };
    const seen = new Set<string>();
    const add = (entry: SourceEntry, keyId: string, goKey: string) => {
      if (seen.has(keyId)) this.duplicates.push({ path, key: entry.key, goKey, keySpan: entry.keySpan, valueStart: entry.value.start });
      seen.add(keyId);
      out.entries.push(entry);
    };
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null;
      const valueNode = pair.value as YamlNode | null;
      if (keyNode && isScalar(keyNode) && keyNode.value === '<<' && ((keyNode.type === 'PLAIN' && !keyNode.tag) || keyNode.tag === MERGE_TAG)) {
        for (const entry of this.merged(valueNode, keyNode, depth, path)) add(entry, `s:${entry.key}`, goQuote(entry.key));
        continue;
      }
      const { key, id, goKey, keySpan } = this.key(keyNode, node);
      const value = valueNode
        ? this.convert(valueNode, depth + 1, [...path, key])
        : ({ kind: 'null', start: keySpan.end, end: keySpan.end } as SourceNode);
      add({ key, keySpan, value }, id, goKey);
    }
    return out;
  }

  /** go-yaml v2's `<<`: a mapping, an alias of one, or a sequence of them, later ones first. */
  private merged(value: YamlNode | null, keyNode: YamlNode, depth: number, path: Array<string | number>): SourceEntry[] {
    const wantMap = () => new Fail({ message: 'yaml: map merge requires map or sequence of maps as the value', ...span(value ?? keyNode) });
    if (!value) throw wantMap();
    const sources = isSeq(value) ? [...(value.items as YamlNode[])].reverse() : [value];
    if (!isSeq(value) && !isMap(value) && !isAlias(value)) throw wantMap();
    const entries: SourceEntry[] = [];
    for (const source of sources) {
      if (!isMap(source) && !isAlias(source)) throw wantMap();
      const converted = this.convert(source, depth + 1, path);
      if (converted.kind !== 'object') throw wantMap();
      entries.push(...converted.entries);
    }
    return entries;
  }

  private key(keyNode: YamlNode | null, map: YAMLMap): { key: string; id: string; goKey: string; keySpan: SourceSpan } {
    let target: YamlNode | SourceNode | null = keyNode;
    if (keyNode && isAlias(keyNode)) target = this.alias(keyNode, 0);
    const keySpan = keyNode ? span(keyNode) : { start: span(map).start, end: span(map).start };
    let resolved: Resolved | undefined;
    if (target && isScalar(target)) {
      const node = this.scalar(target as Scalar);
      resolved = fromSource(node);
    } else if (target && 'kind' in target) {
      resolved = fromSource(target);
    }
    const key = resolved ? jsonKey(resolved) : undefined;
    if (key === undefined || !resolved) throw new Fail({ message: 'yaml: unsupported map key: only strings, numbers and booleans can be keys', ...keySpan });
    const goKey = resolved.kind === 'string' ? goQuote(key) : resolved.kind === 'number' ? resolved.text : key;
    return { key, id: `${resolved.kind[0]}:${key}`, goKey, keySpan };
  }

  private seq(node: YAMLSeq, depth: number, path: Array<string | number>): SourceNode {
    const items = (node.items as YamlNode[]).map((item, i) => this.convert(item, depth + 1, [...path, i]));
    return { kind: 'array', items, ...span(node) };
  }

  private size(node: SourceNode): number {
    const known = this.sizes.get(node);
    if (known !== undefined) return known;
    let n = 1;
    if (node.kind === 'object') for (const e of node.entries) n += this.size(e.value);
    if (node.kind === 'array') for (const item of node.items) n += this.size(item);
    this.sizes.set(node, n);
    return n;
  }

  private height(node: SourceNode): number {
    const known = this.heights.get(node);
    if (known !== undefined) return known;
    let h = 0;
    if (node.kind === 'object') for (const e of node.entries) h = Math.max(h, 1 + this.height(e.value));
    if (node.kind === 'array') for (const item of node.items) h = Math.max(h, 1 + this.height(item));
    this.heights.set(node, h);
    return h;
  }
}

function fromSource(node: SourceNode): Resolved | undefined {
  switch (node.kind) {
    case 'string':
      return { kind: 'string', value: node.value };
    case 'bool':
      return { kind: 'bool', value: node.value };
    case 'number':
      return { kind: 'number', value: node.value, text: node.text, int: /^-?\d+$/.test(node.text) };
    default:
      return undefined;
  }
}

function span(node: { range?: [number, number, number] | null }): SourceSpan {
  const r = node.range;
  return r ? { start: r[0], end: r[1] } : { start: 0, end: 0 };
}
