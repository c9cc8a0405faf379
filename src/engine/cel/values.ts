/**
 * Values between Kubernetes objects and the CEL library: JSON integers become CEL ints
 * (bigint), other numbers doubles, objects maps without a prototype (so that a field called
 * "constructor" is an ordinary key), and back. Also CEL's equality and ordering for the list
 * functions, and errors in cel-go's words.
 */
import { evaluate as celEvaluate } from '@marcbachmann/cel-js';
import { dict } from '../api/own';

/** A CEL evaluation error; its message is what cel-go would report. */
export class CelRuntimeError extends Error {}

export function celError(message: string): CelRuntimeError {
  return new CelRuntimeError(message);
}

type Ctor = new (...args: never[]) => object;
/** The library's own value classes, which its package does not export. */
export const UintClass = (celEvaluate('0u') as object).constructor as Ctor;
export const DurationClass = (celEvaluate('duration("0s")') as object).constructor as new (seconds: bigint, nanos: number) => DurationValue;

export interface DurationValue {
  readonly seconds: bigint;
  readonly nanos: number;
}

export function durationZero(): DurationValue {
  return new DurationClass(0n, 0);
}

export function addDurations(a: unknown, b: unknown): DurationValue {
  const x = a as DurationValue;
  const y = b as DurationValue;
  const nanos = x.seconds * 1_000_000_000n + BigInt(x.nanos) + y.seconds * 1_000_000_000n + BigInt(y.nanos);
  return durationFromNanos(nanos);
}

export function durationFromNanos(n: bigint): DurationValue {
  const seconds = n / 1_000_000_000n;
  return new DurationClass(seconds, Number(n - seconds * 1_000_000_000n));
}

export function isUint(v: unknown): v is { value: bigint } {
  return v instanceof UintClass;
}

/** A Kubernetes object (JSON) as a CEL value. */
export function toCel(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? BigInt(v) : v;
    case 'string':
    case 'boolean':
      return v;
    case 'object': {
      if (Array.isArray(v)) return v.map(toCel);
      const out = dict<unknown>();
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[k] = toCel(x);
      return out;
    }
    default:
      return null;
  }
}

/** A CEL value as JSON (messages, audit annotations, printing a value in an error). */
export function fromCel(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(fromCel);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), fromCel(x)]));
  if (isUint(v)) return Number(v.value);
  if (v && typeof v === 'object' && (v.constructor === undefined || v.constructor === Object)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromCel(x)]));
  }
  return v;
}

function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (isUint(v)) return v.value;
  return undefined;
}

/** CEL's heterogeneous equality: numbers compare by value across int, uint and double. */
export function celEquals(a: unknown, b: unknown): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) {
    if (na === undefined || nb === undefined) return false;
    // eslint-disable-next-line eqeqeq
    return typeof na === typeof nb ? na === nb : na == nb;
  }
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  if (a instanceof Uint8Array) return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof DurationClass) return b instanceof DurationClass && (a as DurationValue).seconds === (b as DurationValue).seconds && (a as DurationValue).nanos === (b as DurationValue).nanos;
  const ea = entries(a);
  const eb = entries(b);
  if (!ea || !eb || ea.length !== eb.length) return a === b;
  return ea.every(([k, v]) => eb.some(([k2, v2]) => celEquals(k, k2) && celEquals(v, v2)));
}

function entries(v: object): [unknown, unknown][] | undefined {
  if (v instanceof Map) return [...v];
  if (v.constructor === undefined || v.constructor === Object) return Object.entries(v);
  return undefined;
}

/** CEL's ordering of two values of comparable types; an error names the function. */
export function celCompare(a: unknown, b: unknown, fn: string): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na < nb ? -1 : na > nb ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (a instanceof DurationClass && b instanceof DurationClass) {
    const x = a as DurationValue;
    const y = b as DurationValue;
    return x.seconds === y.seconds ? x.nanos - y.nanos : x.seconds < y.seconds ? -1 : 1;
  }
  const ca = a as { compareTo?: (o: unknown) => number } | null;
  if (ca && typeof ca === 'object' && typeof ca.compareTo === 'function' && b && ca.constructor === (b as object).constructor) return ca.compareTo(b);
  throw celError(`no such overload: ${fn}`);
}
