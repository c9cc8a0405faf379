/**
 * The common shape of manifests, parsed directly: block mappings and sequences (indentless ones
 * too), one-line plain and simply quoted scalars, one-line flow collections of scalars, `---`
 * between documents. The result is exactly what the general path (the yaml package's parser and
 * composer, then the converter in yaml-parse.ts) gives for such text, spans included, at a
 * fraction of the cost. Anything else -- comments, anchors, tags, block scalars, multi-line or
 * escaped scalars, tabs, non-ASCII text, and everything that is an error -- answers undefined
 * and takes the general path.
 */
import { goQuote } from '../../api/gofmt';
import type { ArrayNode, ObjectNode, SourceEntry, SourceNode, SourceSpan } from './source';
import type { YamlDocument, YamlDuplicate, YamlLimits } from './yaml-parse';
import { jsonKey, resolvedNode, resolvePlain, type Resolved } from './yaml-scalars';

/** A line with content: where it starts, its indentation and where its text ends (trailing spaces cut). */
interface Line {
  start: number;
  indent: number;
  /** Offset of the first non-space character. */
  content: number;
  /** Offset just past the last non-space character. */
  end: number;
  /** Offset of the line break, or the text's length. */
  eol: number;
  /** Offset of the next line (past the line break), or the text's length. */
  next: number;
}

/** Why the fast path gives up: the general path decides. */
const GIVE_UP = Symbol('give up');

/** Nesting the fast path handles; deeper documents go to the general path and its depth check. */
const MAX_FAST_DEPTH = 64;

/** A plain key: what manifests use as keys (names, label keys, numbers). */
const isKeyStart = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
const isKeyChar = (c: number): boolean => isKeyStart(c) || c === 0x2e || c === 0x2f || c === 0x2d;

/** A character only the general path reads (see fastYamlDocuments). */
const GENERAL_ONLY = /[^\n\x20-\x7e]|[#&*!|>\\]/;

export function fastYamlDocuments(text: string, limits: YamlLimits): YamlDocument[] | undefined {
  // Tabs, carriage returns, other controls, comments, anchors, aliases, tags, block scalars,
  // escapes and non-ASCII text: the general path.
  if (GENERAL_ONLY.test(text)) return undefined;
  try {
    return new FastParser(text, limits).documents();
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    throw e;
  }
}

class FastParser {
  private readonly lines: Line[] = [];
  /** Document markers (`---` lines) by line index. */
  private readonly markers = new Set<number>();
  private at = 0;
  /**
   * Where the last node read ends with what follows it on its line (the yaml package's range[2]):
   * past the line break for a value, at the line break for an empty one. A block collection ends
   * where its last value does.
   */
  private after = 0;
  private nodes = 0;
  private duplicates: YamlDuplicate[] = [];

  constructor(
    private readonly text: string,
    private readonly limits: YamlLimits,
  ) {
    let start = 0;
    while (start < text.length) {
      let eol = text.indexOf('\n', start);
      if (eol < 0) eol = text.length;
      const next = eol < text.length ? eol + 1 : eol;
      let content = start;
      while (content < eol && text.charCodeAt(content) === 0x20) content++;
      if (content < eol) {
        let end = eol;
        while (text.charCodeAt(end - 1) === 0x20) end--;
        const indent = content - start;
        const head = text.charCodeAt(content);
        if (indent === 0 && (head === 0x25 || text.startsWith('...', content))) throw GIVE_UP;
        if (indent === 0 && text.startsWith('---', content)) {
          if (end !== content + 3) throw GIVE_UP;
          this.markers.add(this.lines.length);
        }
        this.lines.push({ start, indent, content, end, eol, next });
      }
      start = next;
    }
  }

  documents(): YamlDocument[] {
    const docs: YamlDocument[] = [];
    const starts: number[] = [];
    const bodies: Array<{ first: number; last: number; marker?: Line }> = [];
    let i = 0;
    while (i < this.lines.length) {
      const marker = this.markers.has(i) ? this.lines[i++] : undefined;
      const first = i;
      while (i < this.lines.length && !this.markers.has(i)) i++;
      starts.push(marker ? marker.start : this.lines[first]!.start);
      bodies.push({ first, last: i, marker });
    }
    bodies.forEach((b, k) => {
      const start = starts[k]!;
      const end = starts[k + 1] ?? this.text.length;
      this.duplicates = [];
      let node: SourceNode;
      if (b.first === b.last) {
        // Only a marker: the empty document's value is an empty plain scalar just after it.
        const at = b.marker!.eol;
        node = { kind: 'null', start: at, end: at };
      } else {
        this.at = b.first;
        const line = this.lines[b.first]!;
        node = this.block(line, line.content, 0, []);
        if (this.at !== b.last) throw GIVE_UP;
      }
      this.count();
      docs.push({ start, end, node, errors: [], duplicates: this.duplicates });
    });
    return docs;
  }

  /** One more node (keys counted too, to stay clear of the limit); near the limit the general path decides. */
  private count(): void {
    if (++this.nodes > this.limits.maxNodes / 2) throw GIVE_UP;
  }

  /** The node that starts at `col` of the current line: a sequence, a mapping or a one-line value. */
  private block(line: Line, col: number, depth: number, path: Array<string | number>): SourceNode {
    if (depth > MAX_FAST_DEPTH) throw GIVE_UP;
    if (this.isDash(line) && col === line.content) return this.sequence(depth, path);
    if (this.keyEnd(col, line) !== undefined) return this.mapping(col, depth, path);
    return this.inlineLine(col, line, depth);
  }

  private isSpaceOrEnd(at: number, line: Line): boolean {
    return at >= line.end || this.text.charCodeAt(at) === 0x20;
  }

  /** Where the key starting at `col` ends (before its colon), if a mapping key starts there. */
  private keyEnd(col: number, line: Line): number | undefined {
    const text = this.text;
    let i = col;
    const q = text.charCodeAt(i);
    if (q === 0x22 || q === 0x27) {
      const close = text.indexOf(q === 0x22 ? '"' : "'", i + 1);
      if (close < 0 || close >= line.end) return undefined;
      i = close + 1;
    } else {
      if (!isKeyStart(q)) return undefined;
      while (i < line.end && isKeyChar(text.charCodeAt(i))) i++;
    }
    if (text.charCodeAt(i) !== 0x3a || !this.isSpaceOrEnd(i + 1, line)) return undefined;
    return i;
  }

  /** A block mapping whose first key starts at offset `col` of the current line. */
  private mapping(col: number, depth: number, path: Array<string | number>): ObjectNode {
    const node: ObjectNode = { kind: 'object', entries: [], start: col, end: col };
    const column = col - this.lines[this.at]!.start;
    const keys = new KeysSeen();
    let keyAt = col;
    for (;;) {
      const line = this.lines[this.at]!;
      const keyEnd = this.keyEnd(keyAt, line);
      if (keyEnd === undefined) throw GIVE_UP;
      const key = this.key(keyAt, keyEnd);
      let value: SourceNode;
      let valueAt = keyEnd + 1;
      while (valueAt < line.end && this.text.charCodeAt(valueAt) === 0x20) valueAt++;
      if (valueAt < line.end) value = this.inlineLine(valueAt, line, depth + 1);
      else {
        this.at++;
        const next = this.lines[this.at];
        const nested = next !== undefined && !this.markers.has(this.at);
        if (nested && next.indent > column) value = this.block(next, next.content, depth + 1, [...path, key.key]);
        else if (nested && next.indent === column && this.isDash(next)) value = this.sequence(depth + 1, [...path, key.key]);
        else {
          value = { kind: 'null', start: line.eol, end: line.eol };
          this.after = line.eol;
          this.count();
        }
      }
      if (keys.repeats(key)) this.duplicates.push({ path, key: key.key, goKey: goKeyOf(key), keySpan: key.span, valueStart: value.start });
      node.entries.push({ key: key.key, keySpan: key.span, value });
      node.end = this.after;
      const following = this.lines[this.at];
      if (following === undefined || this.markers.has(this.at) || following.indent < column) return node;
      if (following.indent > column) throw GIVE_UP;
      keyAt = following.content;
    }
  }

  /** Whether a line is a sequence item: a dash followed by a space or the line's end. */
  private isDash(line: Line): boolean {
    return this.text.charCodeAt(line.content) === 0x2d && this.isSpaceOrEnd(line.content + 1, line);
  }

  /** A block sequence whose first item is the current line. */
  private sequence(depth: number, path: Array<string | number>): ArrayNode {
    const first = this.lines[this.at]!;
    const column = first.indent;
    const node: ArrayNode = { kind: 'array', items: [], start: first.content, end: first.content };
    for (let index = 0; ; index++) {
      const line = this.lines[this.at]!;
      let itemAt = line.content + 1;
      while (itemAt < line.end && this.text.charCodeAt(itemAt) === 0x20) itemAt++;
      if (itemAt >= line.end) {
        // The item is on the following lines; an empty item is the general path's.
        this.at++;
        const next = this.lines[this.at];
        if (next === undefined || this.markers.has(this.at) || next.indent <= column) throw GIVE_UP;
        node.items.push(this.block(next, next.content, depth + 1, [...path, index]));
      } else {
        // A sequence in a sequence on one line: the general path.
        if (this.text.charCodeAt(itemAt) === 0x2d && this.isSpaceOrEnd(itemAt + 1, line)) throw GIVE_UP;
        node.items.push(this.keyEnd(itemAt, line) !== undefined ? this.mapping(itemAt, depth + 1, [...path, index]) : this.inlineLine(itemAt, line, depth + 1));
      }
      node.end = this.after;
      const following = this.lines[this.at];
      if (following === undefined || this.markers.has(this.at) || following.indent < column) return node;
      if (following.indent > column) throw GIVE_UP;
      // An indentless sequence ends where its mapping's next key starts.
      if (!this.isDash(following)) return node;
    }
  }

  private inlineLine(col: number, line: Line, depth: number): SourceNode {
    const value = this.inline(col, line, depth);
    this.at++;
    this.after = line.next;
    return value;
  }

  /** A value that fills the rest of the line from `col`. */
  private inline(col: number, line: Line, depth: number): SourceNode {
    const c = this.text.charCodeAt(col);
    if (c === 0x7b || c === 0x5b) {
      const { node, end } = this.flow(col, line.end, depth);
      if (end !== line.end) throw GIVE_UP;
      return node;
    }
    if (c === 0x22 || c === 0x27) {
      const node = this.quoted(col, line.end);
      if (node.end !== line.end) throw GIVE_UP;
      return node;
    }
    return this.plain(col, line.end, false);
  }

  private quoted(col: number, limit: number): SourceNode {
    const quote = this.text[col]!;
    const close = this.text.indexOf(quote, col + 1);
    // A doubled single quote is an escape: the general path.
    if (close < 0 || close >= limit || (quote === "'" && this.text[close + 1] === "'")) throw GIVE_UP;
    this.count();
    return { kind: 'string', value: this.text.slice(col + 1, close), start: col, end: close + 1 };
  }

  /** A plain scalar from `col` to `end` (block context) or to the next flow indicator (flow context). */
  private plain(col: number, end: number, flow: boolean): SourceNode {
    const text = this.text;
    const c = text.charCodeAt(col);
    // Indicators that may not start a plain scalar; "-", "?" and ":" only when followed by a space.
    if (c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x25 || c === 0x40 || c === 0x60 || c === 0x22 || c === 0x27) throw GIVE_UP;
    if ((c === 0x2d || c === 0x3f || c === 0x3a) && (col + 1 >= end || text.charCodeAt(col + 1) === 0x20 || (flow && isFlowIndicator(text.charCodeAt(col + 1))))) throw GIVE_UP;
    let i = col;
    let last = col;
    for (; i < end; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 0x3a && (i + 1 >= end || text.charCodeAt(i + 1) === 0x20 || (flow && isFlowIndicator(text.charCodeAt(i + 1))))) {
        // In a flow collection a key ends here; in a block value it would be a mapping: the general path.
        if (flow) break;
        throw GIVE_UP;
      }
      if (flow && isFlowIndicator(ch)) break;
      if (ch !== 0x20) last = i + 1;
    }
    const value = text.slice(col, last);
    this.count();
    return fromResolved(resolvePlain(value), { start: col, end: last });
  }

  /** A flow mapping or sequence of scalars on one line; `end` is the offset just past it. */
  private flow(col: number, limit: number, depth: number): { node: SourceNode; end: number } {
    if (depth > MAX_FAST_DEPTH) throw GIVE_UP;
    const text = this.text;
    const isMap = text.charCodeAt(col) === 0x7b;
    const close = isMap ? 0x7d : 0x5d;
    const span = { start: col, end: col };
    const entries: SourceEntry[] = [];
    const items: SourceNode[] = [];
    const keys = new KeysSeen();
    this.count();
    let i = skipSpaces(text, col + 1, limit);
    if (text.charCodeAt(i) === close) {
      span.end = i + 1;
      return { node: isMap ? { kind: 'object', entries, ...span } : { kind: 'array', items, ...span }, end: span.end };
    }
    for (;;) {
      if (i >= limit) throw GIVE_UP;
      const c = text.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) throw GIVE_UP;
      const scalar = c === 0x22 || c === 0x27 ? this.quoted(i, limit) : this.plain(i, limit, true);
      i = skipSpaces(text, scalar.end, limit);
      if (isMap) {
        if (text.charCodeAt(i) !== 0x3a || !(i + 1 < limit && text.charCodeAt(i + 1) === 0x20)) throw GIVE_UP;
        const key = this.flowKey(scalar);
        i = skipSpaces(text, i + 1, limit);
        const vc = text.charCodeAt(i);
        if (i >= limit || vc === 0x2c || vc === close || vc === 0x7b || vc === 0x5b) throw GIVE_UP;
        const value = vc === 0x22 || vc === 0x27 ? this.quoted(i, limit) : this.plain(i, limit, true);
        // Flow mappings report repeated keys as block mappings do, with the mapping's own path unknown here: the general path.
        if (keys.repeats(key)) throw GIVE_UP;
        entries.push({ key: key.key, keySpan: key.span, value });
        i = skipSpaces(text, value.end, limit);
      } else {
        items.push(scalar);
      }
      const sep = text.charCodeAt(i);
      if (sep === close) {
        span.end = i + 1;
        return { node: isMap ? { kind: 'object', entries, ...span } : { kind: 'array', items, ...span }, end: span.end };
      }
      if (sep !== 0x2c) throw GIVE_UP;
      i = skipSpaces(text, i + 1, limit);
      // A trailing comma before the closing bracket: the general path.
      if (text.charCodeAt(i) === close) throw GIVE_UP;
    }
  }

  /** A block mapping key from `col` to `end` (its colon). */
  private key(col: number, end: number): Key {
    const q = this.text.charCodeAt(col);
    const span = { start: col, end };
    const text = q === 0x22 || q === 0x27 ? undefined : this.text.slice(col, end);
    if (text === '<<') throw GIVE_UP;
    this.count();
    return keyOf(text === undefined ? { kind: 'string', value: this.text.slice(col + 1, end - 1), ...span } : fromResolved(resolvePlain(text), span));
  }

  private flowKey(scalar: SourceNode): Key {
    if (scalar.kind === 'string' && scalar.value === '<<' && this.text.charCodeAt(scalar.start) !== 0x22 && this.text.charCodeAt(scalar.start) !== 0x27) throw GIVE_UP;
    return keyOf(scalar);
  }
}

interface Key {
  key: string;
  resolved: Resolved;
  span: SourceSpan;
}

/**
 * The keys of one mapping so far. A key repeats one before it when it is the same JSON key from a
 * scalar of the same kind (1 and "1" differ). Small mappings are scanned; large ones get a set.
 */
class KeysSeen {
  private readonly keys: Key[] = [];
  private ids: Set<string> | undefined;

  /** Whether the key was seen before; it is seen from now on. */
  repeats(k: Key): boolean {
    let seen = false;
    if (this.ids) seen = this.ids.has(id(k));
    else for (const other of this.keys) if (other.key === k.key && other.resolved.kind === k.resolved.kind) seen = true;
    this.keys.push(k);
    if (this.ids) this.ids.add(id(k));
    else if (this.keys.length > 16) this.ids = new Set(this.keys.map(id));
    return seen;
  }
}

const id = (key: Key): string => `${key.resolved.kind}:${key.key}`;

function isFlowIndicator(c: number): boolean {
  return c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
}

function skipSpaces(text: string, at: number, limit: number): number {
  while (at < limit && text.charCodeAt(at) === 0x20) at++;
  return at;
}

/** A resolved scalar as a node; values JSON cannot hold are the general path's error. */
const fromResolved = (r: Resolved, span: SourceSpan): SourceNode => resolvedNode(r, span, giveUp);

const giveUp = (): never => {
  throw GIVE_UP;
};

/** As the converter keys a mapping: the JSON key, and the scalar it came from. */
function keyOf(node: SourceNode): Key {
  let resolved: Resolved;
  switch (node.kind) {
    case 'string':
      resolved = { kind: 'string', value: node.value };
      break;
    case 'bool':
      resolved = { kind: 'bool', value: node.value };
      break;
    case 'number':
      resolved = { kind: 'number', value: node.value, text: node.text, int: /^-?\d+$/.test(node.text) };
      break;
    default:
      throw GIVE_UP;
  }
  const key = jsonKey(resolved);
  if (key === undefined) throw GIVE_UP;
  return { key, resolved, span: { start: node.start, end: node.end } };
}

/** The key as go-yaml prints it with %#v, for a repeated key's message. */
function goKeyOf(k: Key): string {
  return k.resolved.kind === 'string' ? goQuote(k.key) : k.resolved.kind === 'number' ? k.resolved.text : k.key;
}
