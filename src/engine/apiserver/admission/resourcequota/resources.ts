/**
 * ResourceLists as quota arithmetic sees them (k8s.io/apiserver/pkg/quota/v1): maps from
 * resource names to quantities, with the helpers quota admission and the quota controller share.
 */
import { quantityOrUndefined, Quantity } from '../../../api/quantity';
import { isObject } from '../../../api/types';
import { setOwn } from '../../../api/own';

export type ResourceList = Map<string, Quantity>;

export function parseResourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!isObject(v)) return out;
  for (const [k, raw] of Object.entries(v)) {
    if (typeof raw !== 'string' && typeof raw !== 'number') continue;
    const q = quantityOrUndefined(String(raw));
    if (q) out.set(k, q);
  }
  return out;
}

export function toJson(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...list.keys()].sort()) setOwn(out, k, list.get(k)!.toString());
  return out;
}

export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out = new Map(a);
  for (const [k, v] of b) out.set(k, out.has(k) ? out.get(k)!.add(v) : v);
  return out;
}

/** a - b per key, never below zero (SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const prev = b.get(k);
    const d = prev ? v.sub(prev) : v;
    out.set(k, d.sign() < 0 ? Quantity.fromInt(0) : d);
  }
  return out;
}

export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const keep = new Set(names);
  return new Map([...list].filter(([k]) => keep.has(k)));
}

export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, v]) => !v.isZero()));
}

/** The names of `a` whose value exceeds the same name in `b`. */
export function exceeded(a: ResourceList, b: ResourceList): string[] {
  return [...a].filter(([k, v]) => b.has(k) && v.cmp(b.get(k)!) > 0).map(([k]) => k);
}

/** "cpu=1,memory=1Gi": sorted name=value pairs, as quota messages print a list. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${list.get(k)!.toString()}`)
    .join(',');
}
