/**
 * In-process request bodies arrive as objects. They decode exactly as their JSON text would
 * (JSON.stringify, then the Go-faithful parser), but without writing and re-reading that text:
 * the object becomes the same SourceNode tree the parser would build. Positions are not needed
 * for request bodies, so every span is empty.
 *
 * Only values whose JSON text is obvious are converted: plain objects and arrays, strings without
 * surrogates (the parser turns lone ones into U+FFFD), finite numbers, booleans and null.
 * Anything else (toJSON, class instances, bigints, cycles, nesting at the depth limit, bodies
 * that may be over the size limit) answers undefined, and the caller goes through the text.
 */
import type { SourceEntry, SourceNode, SourceSpan } from './source';

/** Whether JSON.stringify would treat a value like an absent one (dropped keys, null in arrays). */
const dropped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

const SURROGATE = /[\ud800-\udfff]/;

/** Where a key is, for a body without text: shared, since nothing changes it. */
const NO_SPAN: SourceSpan = Object.freeze({ start: 0, end: 0 });

const UNSUPPORTED = Symbol('unsupported');

/**
 * The parse tree of JSON.stringify(value), or undefined when it cannot be built directly.
 * `maxBytes` bounds the JSON text's size (in UTF-8 bytes): a value that might exceed it is left to
 * the text path, which measures it exactly.
 */
export function sourceNodeOf(value: unknown, maxDepth: number, maxBytes: number): SourceNode | undefined {
  let bytes = 0;
  // JSON text of a string is at most 6 bytes per UTF-16 unit (\u escapes) plus the quotes.
  const stringNode = (s: string): SourceNode => {
    if (SURROGATE.test(s)) throw UNSUPPORTED;
    bytes += 2 + 6 * s.length;
    return { kind: 'string', value: s, start: 0, end: 0 };
  };
  const convert = (v: unknown, depth: number): SourceNode => {
    if (bytes > maxBytes) throw UNSUPPORTED;
    switch (typeof v) {
      case 'string':
        return stringNode(v);
      case 'number':
        bytes += 25;
        if (!Number.isFinite(v)) return { kind: 'null', start: 0, end: 0 };
        return { kind: 'number', value: v === 0 ? 0 : v, text: String(v), start: 0, end: 0 };
      case 'boolean':
        bytes += 5;
        return { kind: 'bool', value: v, start: 0, end: 0 };
      case 'object':
        break;
      default:
        throw UNSUPPORTED;
    }
    if (v === null) {
      bytes += 4;
      return { kind: 'null', start: 0, end: 0 };
    }
    // The parser refuses to open a container at the depth limit: its error comes from the text path.
    if (depth >= maxDepth) throw UNSUPPORTED;
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype || typeof (v as { toJSON?: unknown }).toJSON === 'function') throw UNSUPPORTED;
      // Sized up front: a pushed-to array reserves room for more than most bodies' lists hold.
      const items = new Array<SourceNode>(v.length);
      bytes += 2;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        bytes += 1;
        items[i] = dropped(item) ? (bytes += 4, { kind: 'null', start: 0, end: 0 }) : convert(item, depth + 1);
      }
      return { kind: 'array', items, start: 0, end: 0 };
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') throw UNSUPPORTED;
    bytes += 2;
    const obj = v as Record<string, unknown>;
    // The prototype is Object.prototype or null, so for-in reads exactly the own keys, without
    // Object.keys' copy; the entries are counted first to size their array.
    let count = 0;
    for (const key in obj) if (!dropped(obj[key])) count++;
    const entries = new Array<SourceEntry>(count);
    let n = 0;
    for (const key in obj) {
      const item = obj[key];
      if (dropped(item)) continue;
      bytes += 2;
      stringNode(key);
      entries[n++] = { key, keySpan: NO_SPAN, value: convert(item, depth + 1) };
    }
    // Getters that answer differently the second time: the text path reads the object once.
    if (n !== count) throw UNSUPPORTED;
    return { kind: 'object', entries, start: 0, end: 0 };
  };
  try {
    const node = convert(value, 0);
    return bytes > maxBytes ? undefined : node;
  } catch (e) {
    if (e === UNSUPPORTED) return undefined;
    throw e;
  }
}
