/**
 * What changed between two values of a type (TypedValue.Compare): the fields added, removed and
 * modified. Atomic lists and maps, scalars and empty containers compare as leaves; associative
 * list items pair up by key, and items duplicated on either side compare as a whole.
 */
import type { JsonObject, JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import { jsonEqual } from '../../patch/govalue';
import type { PathElement } from '../fieldpath/element';
import { compareElements, field } from '../fieldpath/element';
import { FieldSet } from '../fieldpath/set';
import type { ListAtom, MapAtom, TypeRef } from '../schema';
import { fieldType } from '../schema';
import type { Typed } from './atom';
import { deduce, listItemKey, sameAtom } from './atom';

export interface Comparison {
  removed: FieldSet;
  modified: FieldSet;
  added: FieldSet;
}

const REMOVED = 0;
const MODIFIED = 1;
const ADDED = 2;
type Change = typeof REMOVED | typeof MODIFIED | typeof ADDED;

/**
 * A level of a set being collected, in the walk's order: sorted once when the walk is done,
 * rather than searching from the root for every path.
 */
class Level {
  members: PathElement[] | undefined;
  children: Array<{ pe: PathElement; level: Level }> | undefined;

  /** The level as a set; a value visited twice (it changed type) may have recorded the same element twice. */
  toSet(): FieldSet {
    let members: PathElement[] = [];
    if (this.members) {
      members = sortInPlace(this.members, compareElements);
      if (members.length > 1) members = members.filter((m, i, all) => i === 0 || compareElements(all[i - 1]!, m) !== 0);
    }
    const children: Array<{ pe: PathElement; set: FieldSet }> = [];
    for (const c of this.children ? sortInPlace(this.children, byElement) : []) {
      const last = children[children.length - 1];
      if (last && compareElements(last.pe, c.pe) === 0) last.set = last.set.union(c.level.toSet());
      else children.push({ pe: c.pe, set: c.level.toSet() });
    }
    return FieldSet.fromSorted(members, children);
  }
}

const byElement = (a: { pe: PathElement }, b: { pe: PathElement }): number => compareElements(a.pe, b.pe);

/** Array.prototype.sort's (stable) order; short arrays, the usual case, without its scratch copy. */
function sortInPlace<T>(items: T[], cmp: (a: T, b: T) => number): T[] {
  if (items.length > 32) return items.sort(cmp);
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    let j = i - 1;
    while (j >= 0 && cmp(items[j]!, item) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}

/** Where the walk is: a value's path as a chain, with the levels of the sets collected under it. */
class Position {
  private removed: Level | undefined;
  private modified: Level | undefined;
  private added: Level | undefined;

  constructor(
    private readonly parent: Position | undefined,
    private readonly pe: PathElement | undefined,
  ) {}

  child(pe: PathElement): Position {
    return new Position(this, pe);
  }

  /** The path of this position is a member of the change's set (the root path is never one). */
  record(change: Change): void {
    if (this.parent) (this.parent.level(change).members ??= []).push(this.pe!);
  }

  level(change: Change): Level {
    let level = change === REMOVED ? this.removed : change === MODIFIED ? this.modified : this.added;
    if (!level) {
      level = new Level();
      if (change === REMOVED) this.removed = level;
      else if (change === MODIFIED) this.modified = level;
      else this.added = level;
      if (this.parent) (this.parent.level(change).children ??= []).push({ pe: this.pe!, level });
    }
    return level;
  }

  set(change: Change): FieldSet {
    const level = change === REMOVED ? this.removed : change === MODIFIED ? this.modified : this.added;
    return level?.toSet() ?? FieldSet.EMPTY;
  }
}

export function compare(lhs: JsonValue, rhs: JsonValue, ref: TypeRef): Comparison {
  const root = new Position(undefined, undefined);
  walk(lhs, rhs, ref, root);
  return { removed: root.set(REMOVED), modified: root.set(MODIFIED), added: root.set(ADDED) };
}

/** One walker step: lhs or rhs may be absent (undefined), not both. */
function walk(lhs: JsonValue | undefined, rhs: JsonValue | undefined, ref: TypeRef, at: Position): void {
  const state = { inLeaf: false };
  const l = deduce(ref, lhs);
  const r = deduce(ref, rhs);
  if (rhs === undefined) handle(l, lhs, rhs, at, state);
  else if (lhs === undefined || sameAtom(l, r)) handle(r, lhs, rhs, at, state);
  else {
    // A value that changed type is visited as both types, each on its own leaf flag.
    handle(l, lhs, rhs, at, { inLeaf: false });
    handle(r, lhs, rhs, at, state);
  }
  if (!state.inLeaf) {
    if (lhs === undefined) at.record(ADDED);
    else if (rhs === undefined) at.record(REMOVED);
  }
}

function leaf(lhs: JsonValue | undefined, rhs: JsonValue | undefined, at: Position, state: { inLeaf: boolean }): void {
  if (state.inLeaf) return;
  state.inLeaf = true;
  if (lhs === undefined) at.record(ADDED);
  else if (rhs === undefined) at.record(REMOVED);
  else if (!jsonEqual(lhs, rhs)) at.record(MODIFIED);
}

function handle(t: Typed, lhs: JsonValue | undefined, rhs: JsonValue | undefined, at: Position, state: { inLeaf: boolean }): void {
  const h = t.handler;
  switch (h.kind) {
    case 'scalar':
      leaf(lhs, rhs, at, state);
      return;
    case 'map':
      compareMaps(h.map, lhs, rhs, at, state);
      return;
    case 'list':
      compareLists(h.list, lhs, rhs, at, state);
      return;
    case 'none':
      return;
  }
}

function compareMaps(t: MapAtom, lhs: JsonValue | undefined, rhs: JsonValue | undefined, at: Position, state: { inLeaf: boolean }): void {
  const l = isObject(lhs) ? lhs : undefined;
  const r = isObject(rhs) ? rhs : undefined;
  const emptyPromoteToLeaf = isEmptyMap(l) && isEmptyMap(r);
  if (t.relationship === 'atomic' || emptyPromoteToLeaf) {
    leaf(lhs, rhs, at, state);
    return;
  }
  if (l) for (const key in l) if (l[key] !== undefined) walk(l[key], r?.[key], fieldType(t, key), at.child(field(key)));
  if (r) for (const key in r) if (r[key] !== undefined && l?.[key] === undefined) walk(undefined, r[key], fieldType(t, key), at.child(field(key)));
}

function isEmptyMap(m: JsonObject | undefined): boolean {
  if (m === undefined) return true;
  for (const k in m) if (m[k] !== undefined) return false;
  return true;
}

function compareLists(t: ListAtom, lhs: JsonValue | undefined, rhs: JsonValue | undefined, at: Position, state: { inLeaf: boolean }): void {
  const l = Array.isArray(lhs) ? lhs : undefined;
  const r = Array.isArray(rhs) ? rhs : undefined;
  const emptyPromoteToLeaf = (!l || l.length === 0) && (!r || r.length === 0);
  if (t.relationship === 'atomic' || emptyPromoteToLeaf) {
    leaf(lhs, rhs, at, state);
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
    const item = at.child(g.pe);
    if (g.l.length <= 1 && g.r.length <= 1) walk(g.l[0], g.r[0], t.element, item);
    else if (g.l.length >= 2 && g.r.length >= 2) {
      if (g.l.length !== g.r.length || !g.l.every((v, i) => jsonEqual(v, g.r[i]))) item.record(MODIFIED);
    } else if (g.l.length >= 2) {
      if (g.r.length !== 0) walk(undefined, g.r[0], t.element, item);
      item.record(REMOVED);
    } else {
      if (g.l.length !== 0) walk(g.l[0], undefined, t.element, item);
      item.record(ADDED);
    }
  }
}
