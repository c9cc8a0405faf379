/**
 * What changed between two values of a type (TypedValue.Compare): the fields added, removed and
 * modified. Atomic lists and maps, scalars and empty containers compare as leaves; associative
 * list items pair up by key, and items duplicated on either side compare as a whole.
 */
import type { JsonObject, JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import { jsonEqual } from '../../patch/govalue';
import type { Path, PathElement } from '../fieldpath/element';
import { compareElements, field } from '../fieldpath/element';
import { FieldSet } from '../fieldpath/set';
import type { ListAtom, MapAtom, TypeRef } from '../schema';
import { fieldType } from '../schema';
import type { Typed } from './atom';
import { deduce, handler, listItemKey, sameAtom } from './atom';

export interface Comparison {
  removed: FieldSet;
  modified: FieldSet;
  added: FieldSet;
}

interface Acc {
  removed: Path[];
  modified: Path[];
  added: Path[];
}

export function compare(lhs: JsonValue, rhs: JsonValue, ref: TypeRef): Comparison {
  const acc: Acc = { removed: [], modified: [], added: [] };
  walk(lhs, rhs, ref, [], acc);
  return { removed: FieldSet.from(acc.removed), modified: FieldSet.from(acc.modified), added: FieldSet.from(acc.added) };
}

/** One walker step: lhs or rhs may be absent (undefined), not both. */
function walk(lhs: JsonValue | undefined, rhs: JsonValue | undefined, ref: TypeRef, path: Path, acc: Acc): void {
  const state = { inLeaf: false };
  const l = deduce(ref, lhs);
  const r = deduce(ref, rhs);
  if (rhs === undefined) handle(l, lhs, rhs, path, acc, state);
  else if (lhs === undefined || sameAtom(l, r)) handle(r, lhs, rhs, path, acc, state);
  else {
    // A value that changed type is visited as both types, each on its own leaf flag.
    handle(l, lhs, rhs, path, acc, { inLeaf: false });
    handle(r, lhs, rhs, path, acc, state);
  }
  if (!state.inLeaf) {
    if (lhs === undefined) acc.added.push(path);
    else if (rhs === undefined) acc.removed.push(path);
  }
}

function leaf(lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: Path, acc: Acc, state: { inLeaf: boolean }): void {
  if (state.inLeaf) return;
  state.inLeaf = true;
  if (lhs === undefined) acc.added.push(path);
  else if (rhs === undefined) acc.removed.push(path);
  else if (!jsonEqual(lhs, rhs)) acc.modified.push(path);
}

function handle(t: Typed, lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: Path, acc: Acc, state: { inLeaf: boolean }): void {
  const h = handler(t);
  switch (h.kind) {
    case 'scalar':
      leaf(lhs, rhs, path, acc, state);
      return;
    case 'map':
      compareMaps(h.map, lhs, rhs, path, acc, state);
      return;
    case 'list':
      compareLists(h.list, lhs, rhs, path, acc, state);
      return;
    case 'none':
      return;
  }
}

function compareMaps(t: MapAtom, lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: Path, acc: Acc, state: { inLeaf: boolean }): void {
  const l = isObject(lhs) ? lhs : undefined;
  const r = isObject(rhs) ? rhs : undefined;
  const emptyPromoteToLeaf = isEmptyMap(l) && isEmptyMap(r);
  if (t.relationship === 'atomic' || emptyPromoteToLeaf) {
    leaf(lhs, rhs, path, acc, state);
    return;
  }
  const keys = new Set([...keysOf(l), ...keysOf(r)]);
  for (const key of keys) walk(l?.[key], r?.[key], fieldType(t, key), [...path, field(key)], acc);
}

function keysOf(m: JsonObject | undefined): string[] {
  return m ? Object.keys(m).filter((k) => m[k] !== undefined) : [];
}

function isEmptyMap(m: JsonObject | undefined): boolean {
  return m === undefined || keysOf(m).length === 0;
}

function compareLists(t: ListAtom, lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: Path, acc: Acc, state: { inLeaf: boolean }): void {
  const l = Array.isArray(lhs) ? lhs : undefined;
  const r = Array.isArray(rhs) ? rhs : undefined;
  const emptyPromoteToLeaf = (!l || l.length === 0) && (!r || r.length === 0);
  if (t.relationship === 'atomic' || emptyPromoteToLeaf) {
    leaf(lhs, rhs, path, acc, state);
    return;
  }
  const groups: Array<{ pe: PathElement; l: JsonValue[]; r: JsonValue[] }> = [];
  const groupOf = (pe: PathElement): { pe: PathElement; l: JsonValue[]; r: JsonValue[] } => {
    let g = groups.find((x) => compareElements(x.pe, pe) === 0);
    if (!g) {
      g = { pe, l: [], r: [] };
      groups.push(g);
    }
    return g;
  };
  for (const item of l ?? []) {
    const k = listItemKey(t, item);
    if (k.ok) groupOf(k.pe).l.push(item);
  }
  for (const item of r ?? []) {
    const k = listItemKey(t, item);
    if (k.ok) groupOf(k.pe).r.push(item);
  }
  for (const g of groups) {
    const itemPath = [...path, g.pe];
    if (g.l.length <= 1 && g.r.length <= 1) walk(g.l[0], g.r[0], t.element, itemPath, acc);
    else if (g.l.length >= 2 && g.r.length >= 2) {
      if (g.l.length !== g.r.length || !g.l.every((v, i) => jsonEqual(v, g.r[i]))) acc.modified.push(itemPath);
    } else if (g.l.length >= 2) {
      if (g.r.length !== 0) walk(undefined, g.r[0], t.element, itemPath, acc);
      acc.removed.push(itemPath);
    } else {
      if (g.l.length !== 0) walk(g.l[0], undefined, t.element, itemPath, acc);
      acc.added.push(itemPath);
    }
  }
}
