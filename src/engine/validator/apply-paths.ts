/**
 * Server-side apply names fields as structured-merge-diff prints paths: `.spec.containers[name="web"].bogus`,
 * `.spec.ports[port=80,protocol="TCP"]`, `[="x"]` for a set's value, `[3]` for an index. Errors
 * about an applied document (a field not in the schema, a type mismatch, a conflict) are shown
 * where they are in the document: this reads such a path against the applied object and gives
 * the apimachinery path of the same field (`spec.containers[0].bogus`) that positionOf finds.
 */
import { valueString } from '../apiserver/apply/fieldpath/element';
import { isObject, type JsonValue } from '../api/types';
import { own } from '../api/own';

export interface ResolvedPath {
  /** apimachinery's field path ("" for the object itself). */
  field: string;
  /** What follows the path in the text. */
  rest: string;
}

/** The end of a bracketed element starting at `start` (the index of its ']'), quotes respected. */
function bracketEnd(text: string, start: number): number {
  let quoted = false;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ']') return i;
  }
  return -1;
}

/** `k=v,k=v` split at the commas outside quotes. */
function keyParts(inner: string): Array<[string, string]> | undefined {
  const parts: string[] = [];
  let quoted = false;
  let from = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      parts.push(inner.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(inner.slice(from));
  const out: Array<[string, string]> = [];
  for (const p of parts) {
    const eq = p.indexOf('=');
    if (eq <= 0) return undefined;
    out.push([p.slice(0, eq), p.slice(eq + 1)]);
  }
  return out;
}

/** Which list item a bracketed element names. */
function itemIndex(items: readonly JsonValue[], inner: string): number {
  if (/^\d+$/.test(inner)) return Number(inner) < items.length ? Number(inner) : -1;
  if (inner.startsWith('=')) return items.findIndex((item) => valueString(item) === inner.slice(1));
  const keys = keyParts(inner);
  if (!keys) return -1;
  return items.findIndex((item) => isObject(item) && keys.every(([k, v]) => own(item, k) !== undefined && valueString(own(item, k)!) === v));
}

const boundary = (text: string, at: number) => at === text.length || text[at] === '.' || text[at] === '[' || text[at] === ':';

/**
 * Reads the structured-merge-diff path at the start of `text` against `value`, as far as the
 * value goes. Undefined when the text does not start with a path.
 */
export function resolveApplyPath(value: JsonValue | undefined, text: string): ResolvedPath | undefined {
  if (text[0] !== '.' && text[0] !== '[') return undefined;
  let at = 0;
  let field = '';
  let node = value;
  while (at < text.length && (text[at] === '.' || text[at] === '[')) {
    if (text[at] === '.') {
      if (!isObject(node)) break;
      // Keys may hold dots: the longest key the text goes on with wins.
      let best: string | undefined;
      for (const k of Object.keys(node)) {
        if ((best === undefined || k.length > best.length) && text.startsWith(k, at + 1) && boundary(text, at + 1 + k.length)) best = k;
      }
      if (best === undefined) {
        // A field the object lacks (an unknown one is present; a conflict may name a removed one).
        const m = /^\.([^.[:]*)/.exec(text.slice(at));
        field += field ? `.${m![1]}` : m![1];
        at += m![0].length;
        node = undefined;
        continue;
      }
      field += field ? `.${best}` : best;
      // own-keys: best is one of the object's own keys.
      node = node[best];
      at += 1 + best.length;
    } else {
      const end = bracketEnd(text, at);
      if (end < 0 || !Array.isArray(node)) break;
      const i = itemIndex(node, text.slice(at + 1, end));
      if (i < 0) break;
      field += `[${i}]`;
      node = node[i];
      at = end + 1;
    }
  }
  return { field, rest: text.slice(at) };
}
