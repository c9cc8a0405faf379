/**
 * Lookups in a parsed manifest document (offsets are into the text it was parsed from): the
 * path of the node under the cursor, the node an error position names, entries by key.
 */
import { parseFieldPath, type ManifestDocument, type SourceNode, type SourceRange } from '../engine/apiserver/decode';

type ObjectNode = Extract<SourceNode, { kind: 'object' }>;
export type Entry = ObjectNode['entries'][number];

export interface PathAt {
  path: Array<string | number>;
  /** The cursor is on the key naming the value (or on a list item's dash), not inside the value. */
  onKey: boolean;
  node: SourceNode;
}

/** The innermost key or value containing `offset`. */
export function pathAt(root: SourceNode, offset: number): PathAt | undefined {
  const path: Array<string | number> = [];
  let node = root;
  if (offset < node.start || offset > node.end) return undefined;
  for (;;) {
    if (node.kind === 'object') {
      const entry = lastMatching(node.entries, (e) => offset >= e.keySpan.start && offset <= e.keySpan.end);
      if (entry) return { path: [...path, entry.key], onKey: true, node: entry.value };
      const inside = lastMatching(node.entries, (e) => offset >= e.value.start && offset <= e.value.end && e.value.end > e.value.start);
      if (!inside) return path.length ? { path, onKey: false, node } : undefined;
      path.push(inside.key);
      node = inside.value;
    } else if (node.kind === 'array') {
      const index = node.items.findIndex((item) => offset >= item.start && offset <= item.end);
      if (index < 0) return { path, onKey: false, node };
      path.push(index);
      node = node.items[index]!;
    } else {
      return { path, onKey: false, node };
    }
  }
}

function lastMatching(entries: readonly Entry[], test: (e: Entry) => boolean): Entry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) if (test(entries[i]!)) return entries[i];
  return undefined;
}

/** The last entry with this key (what decoding keeps), if the node is a mapping. */
export function entry(node: SourceNode | undefined, key: string): Entry | undefined {
  return node?.kind === 'object' ? lastMatching(node.entries, (e) => e.key === key) : undefined;
}

/** The value at a path of keys and indexes. */
export function nodeAtPath(root: SourceNode | undefined, path: ReadonlyArray<string | number>): SourceNode | undefined {
  let node = root;
  for (const seg of path) {
    if (!node) return undefined;
    node = typeof seg === 'number' ? (node.kind === 'array' ? node.items[seg] : undefined) : entry(node, seg)?.value;
  }
  return node;
}

export function stringAt(root: SourceNode | undefined, path: ReadonlyArray<string | number>): string | undefined {
  const n = nodeAtPath(root, path);
  return n?.kind === 'string' ? n.value : undefined;
}

/**
 * The key or value that starts at a 1-based line and column (where `kubesim validate` reports
 * an error): a key when one starts there, else the value.
 */
export function rangeStartingAt(doc: ManifestDocument, line: number, column: number): SourceRange | undefined {
  if (!doc.node) return undefined;
  const stack: SourceNode[] = [doc.node];
  let value: SourceRange | undefined;
  const startsHere = (start: number) => {
    const p = doc.lines.position(start);
    return p.line === line && p.column === column;
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!value && startsHere(node.start)) value = doc.lines.range(node.start, node.end);
    if (node.kind === 'object') {
      for (const e of node.entries) {
        if (startsHere(e.keySpan.start)) return doc.lines.range(e.keySpan.start, e.keySpan.end);
        stack.push(e.value);
      }
    } else if (node.kind === 'array') {
      stack.push(...node.items);
    }
  }
  return value;
}

/** The keys and indexes an apimachinery field path walks through in this document. */
export function fieldSegments(root: SourceNode, field: string): Array<string | number> {
  const out: Array<string | number> = [];
  let node: SourceNode | undefined = root;
  for (const seg of parseFieldPath(field)) {
    const key = 'name' in seg ? seg.name : seg.bracket;
    const next: string | number = node?.kind === 'array' && /^\d+$/.test(key) ? Number(key) : key;
    out.push(next);
    node = node ? nodeAtPath(node, [next]) : undefined;
  }
  return out;
}
