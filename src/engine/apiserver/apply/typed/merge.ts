/**
 * Merging an applied configuration into the live object (TypedValue.Merge with "keep the right
 * hand side" at the leaves): granular maps merge key by key, associative lists item by item in
 * an order that follows the configuration, everything else is replaced. A null in the
 * configuration replaces a leaf but leaves a live map or list alone.
 */
import type { JsonObject, JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import type { PathElement } from '../fieldpath/element';
import { compareElements, elementString } from '../fieldpath/element';
import type { ListAtom, MapAtom, TypeRef } from '../schema';
import { fieldType } from '../schema';
import { ValidationError, deduce, listItemKey } from './atom';
import { own, setOwn } from '../../../api/own';

export class MergeError extends Error {}

export function merge(lhs: JsonValue | undefined, rhs: JsonValue | undefined, ref: TypeRef): JsonValue | undefined {
  // When the type changes, only the right hand side's view decides the result.
  const h = (rhs === undefined ? deduce(ref, lhs) : deduce(ref, rhs)).handler;
  switch (h.kind) {
    case 'scalar':
      return rhs !== undefined ? rhs : lhs;
    case 'map':
      return mergeMaps(h.map, lhs, rhs);
    case 'list':
      return mergeLists(h.list, lhs, rhs);
    case 'none':
      return undefined;
  }
}

function mergeMaps(t: MapAtom, lhs: JsonValue | undefined, rhs: JsonValue | undefined): JsonValue | undefined {
  const l = isObject(lhs) ? lhs : undefined;
  const r = isObject(rhs) ? rhs : undefined;
  const lEmpty = !l || Object.values(l).every((v) => v === undefined);
  const rEmpty = !r || Object.values(r).every((v) => v === undefined);
  if (t.relationship === 'atomic' || (lEmpty && rEmpty)) return rhs !== undefined ? rhs : lhs;
  const out: JsonObject = {};
  const keys = new Set<string>();
  for (const m of [l, r]) for (const [k, v] of Object.entries(m ?? {})) if (v !== undefined) keys.add(k);
  for (const key of keys) {
    const v = merge(own(l, key), own(r, key), fieldType(t, key));
    if (v !== undefined) setOwn(out, key, v);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

interface Indexed {
  pes: PathElement[];
  /** The item for each key; null for a key the (live) list holds more than once. */
  observed: Map<string, JsonValue>;
}

/** A map key for a path element (elements are equal exactly when their strings are). */
const peKey = (pe: PathElement): string => elementString(pe);

function index(t: ListAtom, list: JsonValue[], allowDuplicates: boolean): Indexed {
  const pes: PathElement[] = [];
  const observed = new Map<string, JsonValue>();
  for (let i = 0; i < list.length; i++) {
    const child = list[i]!;
    const key = listItemKey(t, child);
    if (!key.ok) throw new MergeError(new ValidationError('', `element ${i}: ${key.error}`).toString());
    const k = peKey(key.value);
    if (observed.has(k)) {
      if (!allowDuplicates) throw new MergeError(`duplicate entries for key ${elementString(key.value)}`);
      observed.set(k, null);
    } else observed.set(k, child);
    pes.push(key.value);
  }
  return { pes, observed };
}

/**
 * visitListItems: live items keep their place, items of the configuration come in its order,
 * and live items the configuration also has move to where the configuration puts them.
 */
function mergeLists(t: ListAtom, lhs: JsonValue | undefined, rhs: JsonValue | undefined): JsonValue | undefined {
  const l = Array.isArray(lhs) ? lhs : undefined;
  const r = Array.isArray(rhs) ? rhs : undefined;
  if (t.relationship === 'atomic' || ((!l || l.length === 0) && (!r || r.length === 0))) return rhs !== undefined ? rhs : lhs;
  const right = index(t, r ?? [], false);
  const left = index(t, l ?? [], true);
  const out: JsonValue[] = [];
  const push = (lc: JsonValue | undefined, rc: JsonValue | undefined): void => {
    const v = merge(lc, rc, t.element);
    if (v !== undefined) out.push(v);
  };
  const shared = right.pes.filter((pe) => left.observed.has(peKey(pe)));
  let nextShared = shared.shift();
  const mergedRHS = new Set<string>();
  const lLen = left.pes.length;
  const rLen = right.pes.length;
  let lI = 0;
  let rI = 0;
  while (lI < lLen || rI < rLen) {
    if (lI < lLen && rI < rLen) {
      const pe = left.pes[lI]!;
      if (compareElements(pe, right.pes[rI]!) === 0) {
        mergedRHS.add(peKey(pe));
        push(left.observed.get(peKey(pe)), right.observed.get(peKey(pe)));
        lI++;
        rI++;
        nextShared = shared.shift();
        continue;
      }
      if (right.observed.has(peKey(pe)) && nextShared && compareElements(nextShared, pe) !== 0) {
        lI++;
        continue;
      }
    }
    if (lI < lLen) {
      const pe = left.pes[lI]!;
      if (!right.observed.has(peKey(pe))) {
        push(l![lI], undefined);
        lI++;
        continue;
      } else if (mergedRHS.has(peKey(pe))) {
        lI++;
      }
    }
    if (rI < rLen) {
      const pe = right.pes[rI]!;
      mergedRHS.add(peKey(pe));
      push(left.observed.get(peKey(pe)), right.observed.get(peKey(pe)));
      rI++;
      if (nextShared && compareElements(nextShared, pe) === 0) nextShared = shared.shift();
    }
  }
  return out.length > 0 ? out : undefined;
}

