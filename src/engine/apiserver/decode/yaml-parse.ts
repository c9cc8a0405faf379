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
import { jsonKey, resolvePlain, resolveTagged, type Resolved } from './yaml-scalars';

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
  return fastYamlDocuments(text, limits) ?? generalYamlDocuments(text, limits);
}

/** Any YAML, through the yaml package's parser and composer (the fast path's reference). */
export function generalYamlDocuments(text: string, limits: YamlLimits): YamlDocument[] {
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
  if (strayErrors.length > 0) {
    if (docs.length === 0) docs.push({ start: 0, end: text.length, errors: [], duplicates: [] });
    docs[docs.length - 1]!.errors.push(...strayErrors);
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
      if (tagged && 'error' in tagged) throw new Fail({ message: tagged.error, ...s });
      r = tagged ?? { kind: 'string', value: text };
    } else {
      r = node.type === 'PLAIN' ? resolvePlain(text) : { kind: 'string', value: text };
    }
    switch (r.kind) {
      case 'null':
        return { kind: 'null', ...s };
      case 'bool':
        return { kind: 'bool', value: r.value, ...s };
      case 'number':
        return { kind: 'number', value: r.value, text: r.text, ...s };
      case 'string':
        return { kind: 'string', value: r.value, ...s };
      case 'float-special':
        throw new Fail({ message: `json: unsupported value: ${r.text}`, ...s });
    }
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
