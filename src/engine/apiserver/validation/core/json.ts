/**
 * Typed reads of the plain-JSON v1 objects the rules see. Upstream validates Go structs where an
 * absent field is its zero value; these readers give the same view (absent string -> "",
 * absent list -> []), so the rules read like the Go ones without crashing on malformed input.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../api/types';
import { own, setOwn } from '../../../api/own';

export type Obj = JsonObject;

export function obj(v: unknown): JsonObject | undefined {
  return isObject(v) ? v : undefined;
}

export function arr(v: unknown): JsonValue[] {
  return Array.isArray(v) ? v : [];
}

/**
 * List elements as objects; a non-object element reads as an empty struct. A list of objects
 * (nearly every one) is answered as itself, hence read-only.
 */
export function objs(v: unknown): readonly JsonObject[] {
  if (!Array.isArray(v)) return [];
  for (const e of v) if (!isObject(e)) return v.map((x) => obj(x) ?? {});
  return v as JsonObject[];
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function strs(v: unknown): string[] {
  return arr(v).map(str);
}

/** A number, or undefined when absent (a pointer field left nil). */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** A number with Go's zero default. */
export function int(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

export function bool(v: unknown): boolean {
  return v === true;
}

/** Whether a field is set (a non-nil pointer in Go terms). */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** A map[string]string, keys in sorted order so errors come out deterministically (the meta rules' reader). */
export { stringEntries as strMap } from '../meta/json';

/** Map entries with raw values, keys sorted. */
export function entries(v: unknown): [string, JsonValue | undefined][] {
  const o = obj(v);
  if (!o) return [];
  const keys = Object.keys(o);
  // Maps written by the decoder or stored are already sorted: no sort's scratch copy for them.
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  }
  return keys.map((k) => [k, o[k]]);
}

/** Go's zero value: absent, null, "", 0, false, or an empty list, map or struct. */
export function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return Object.values(v).every(isZero);
  return false;
}

/**
 * apiequality.Semantic.DeepEqual on the decoded structs: nil and empty lists and maps are equal,
 * and an absent field equals its zero value. `same` lets a caller compare some leaves
 * semantically (quantities by value).
 */
export function semanticEqual(a: unknown, b: unknown, same?: (a: unknown, b: unknown) => boolean | undefined): boolean {
  if (same) {
    const r = same(a, b);
    if (r !== undefined) return r;
  }
  if (isZero(a) && isZero(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i], same));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(own(a, k), own(b, k), same)) return false;
    return true;
  }
  return a === b;
}

/**
 * A deep copy of a JSON value, for munging a copy before comparing: exactly what a JSON round
 * trip gives (undefined keys dropped, -0 as 0, non-finite numbers as null), without the text.
 */
export function clone<T extends JsonValue | undefined>(v: T): T {
  return v === undefined ? v : (copy(v) as T);
}

function copy(v: unknown): unknown {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'object':
      break;
    default:
      return v;
  }
  if (v === null) return null;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return roundTrip(v);
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = dropped(v[i]) ? null : copy(v[i]);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return roundTrip(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const e = (v as Record<string, unknown>)[k];
    if (!dropped(e)) setOwn(out, k, copy(e));
  }
  return out;
}

/** What JSON leaves out of objects and writes as null in arrays. */
const dropped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function roundTrip(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v)) as unknown;
}
