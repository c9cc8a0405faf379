/**
 * Path elements of server-side apply's field paths (sigs.k8s.io/structured-merge-diff
 * fieldpath): a struct field or map key, an associative list item by its key fields, a set
 * item by value, or a list index. They order the way the library orders them, because that
 * order is the order of keys in managedFields' fieldsV1 and of paths in conflict messages.
 */
import { goFloat, goJson, goQuote } from '../../../api/gofmt';
import type { JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import { own } from '../../../api/own';

export type PathElement =
  | { kind: 'field'; name: string }
  /** Key fields sorted by name. */
  | { kind: 'key'; fields: ReadonlyArray<readonly [string, JsonValue]> }
  | { kind: 'value'; value: JsonValue }
  | { kind: 'index'; index: number };

export type Path = readonly PathElement[];

export const field = (name: string): PathElement => ({ kind: 'field', name });
export const index = (i: number): PathElement => ({ kind: 'index', index: i });
export const valueElement = (value: JsonValue): PathElement => ({ kind: 'value', value });
export function keyElement(fields: ReadonlyArray<readonly [string, JsonValue]>): PathElement {
  return { kind: 'key', fields: [...fields].sort((a, b) => compareStrings(a[0], b[0])) };
}

/** strings.Compare: byte order of UTF-8, which is code point order. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function rank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isObject(v)) return 4;
  return 5;
}

/** value.Compare: numbers < strings < booleans < lists < maps < null. */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; ; i++) {
      if (i >= a.length && i >= b.length) return 0;
      if (i >= a.length) return -1;
      if (i >= b.length) return 1;
      const c = compareValues(a[i]!, b[i]!);
      if (c !== 0) return c;
    }
  }
  if (isObject(a) && isObject(b)) return compareMaps(a, b);
  return 0;
}

function compareMaps(a: { [k: string]: JsonValue | undefined }, b: { [k: string]: JsonValue | undefined }): number {
  const ak = Object.keys(a).filter((k) => a[k] !== undefined);
  const bk = Object.keys(b).filter((k) => b[k] !== undefined);
  if (ak.length === 0 && bk.length === 0) return 0;
  const keys = [...new Set([...ak, ...bk])].sort(compareStrings);
  let i = 0;
  for (const k of keys) {
    let c: number;
    if (i === ak.length) c = -1;
    else if (i === bk.length) c = 1;
    else if (own(a, k) === undefined) c = 1;
    else if (own(b, k) === undefined) c = -1;
    else c = compareValues(own(a, k)!, own(b, k)!);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] < kindRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key': {
      const bf = (b as typeof a).fields;
      for (let i = 0; ; i++) {
        if (i >= a.fields.length && i >= bf.length) return 0;
        if (i >= a.fields.length) return -1;
        if (i >= bf.length) return 1;
        const c = compareStrings(a.fields[i]![0], bf[i]![0]) || compareValues(a.fields[i]![1], bf[i]![1]);
        if (c !== 0) return c;
      }
    }
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const bi = (b as typeof a).index;
      return a.index < bi ? -1 : a.index > bi ? 1 : 0;
    }
  }
}

/** value.ToString: strings quoted, numbers as %v, maps as k=v. */
export function valueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(valueString).join(',') + ']';
  return Object.keys(v)
    .filter((k) => v[k] !== undefined)
    .sort(compareStrings)
    .map((k) => `${k}=${valueString(v[k]!)}`)
    .join('');
}

/** PathElement.String: .name, [name="x",port=80], [="x"], [3]. */
export function elementString(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return '.' + e.name;
    case 'key':
      return '[' + e.fields.map(([k, v]) => `${k}=${valueString(v)}`).join(',') + ']';
    case 'value':
      return `[=${valueString(e.value)}]`;
    case 'index':
      return `[${e.index}]`;
  }
}

export function pathString(p: Path): string {
  return p.map(elementString).join('');
}

/** The fieldsV1 key of an element: f:name, k:{"name":"x"}, v:"x", i:3. */
export function serializeElement(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return 'f:' + e.name;
    case 'key': {
      // Written for every list item of every managedFields entry: no array of parts to join.
      let key = 'k:{';
      for (let i = 0; i < e.fields.length; i++) {
        const [name, value] = e.fields[i]!;
        key += (i === 0 ? '' : ',') + goJson(name) + ':' + goJson(value);
      }
      return key + '}';
    }
    case 'value':
      return 'v:' + goJson(e.value);
    case 'index':
      return `i:${e.index}`;
  }
}
