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
import { fieldType, hasField } from '../schema';
import type { Typed } from './atom';
import { deduce, listItemKey } from './atom';
import { own } from '../../../api/own';

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
  /** Levels still being collected, or the finished sets of values only one side has. */
  children: Array<{ pe: PathElement; below: Level | FieldSet }> | undefined;

  /** The level as a set; a value visited twice (it changed type) may have recorded the same element twice. */
  toSet(): FieldSet {
    const members = this.members ? withoutRepeats(sortInPlace(this.members, compareElements)) : [];
    const children: Array<{ pe: PathElement; set: FieldSet }> = [];
    for (const c of this.children ? sortInPlace(this.children, byElement) : []) {
      const last = children[children.length - 1];
      const set = c.below instanceof FieldSet ? c.below : c.below.toSet();
      if (last && compareElements(last.pe, c.pe) === 0) last.set = last.set.union(set);
      else children.push({ pe: c.pe, set });
    }
    return FieldSet.fromSorted(members, children);
  }
}

const byElement = (a: { pe: PathElement }, b: { pe: PathElement }): number => compareElements(a.pe, b.pe);

/** A sorted list without its repeated elements (in place). */
function withoutRepeats(items: PathElement[]): PathElement[] {
  let n = 0;
  for (let i = 0; i < items.length; i++) if (n === 0 || compareElements(items[n - 1]!, items[i]!) !== 0) items[n++] = items[i]!;
  items.length = n;
  return items;
}

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

/**
 * A map or list the walk entered: its path as a chain, with the levels of the sets collected
 * under it. Scalars need no position of their own: they are recorded in their parent's level.
 */
class Position {
  private removed: Level | undefined;
  private modified: Level | undefined;
  private added: Level | undefined;
  /**
   * Collecting only what changed (modified and added, in one set, the added level): removals
   * are not recorded, and not walked.
   */
  readonly changedOnly: boolean;

  constructor(
    private readonly parent: Position | undefined,
    private readonly pe: PathElement,
    changedOnly = false,
  ) {
    this.changedOnly = parent ? parent.changedOnly : changedOnly;
  }

  /** The child's path is a member of the change's set. */
  record(pe: PathElement, change: Change): void {
    if (this.changedOnly) {
      if (change === REMOVED) return;
      change = ADDED;
    }
    (this.level(change).members ??= []).push(pe);
  }

  /** The paths below the child in the change's set, collected already. */
  attach(pe: PathElement, change: Change, set: FieldSet): void {
    if (this.changedOnly) {
      if (change === REMOVED) return;
      change = ADDED;
    }
    (this.level(change).children ??= []).push({ pe, below: set });
  }

  level(change: Change): Level {
    let level = change === REMOVED ? this.removed : change === MODIFIED ? this.modified : this.added;
    if (!level) {
      level = new Level();
      if (change === REMOVED) this.removed = level;
      else if (change === MODIFIED) this.modified = level;
      else this.added = level;
      if (this.parent) (this.parent.level(change).children ??= []).push({ pe: this.pe, below: level });
    }
    return level;
  }

  set(change: Change): FieldSet {
    const level = change === REMOVED ? this.removed : change === MODIFIED ? this.modified : this.added;
    return level?.toSet() ?? FieldSet.EMPTY;
  }
}

/**
 * The walk starts one level up, at a holder whose only child is the compared value: what is
 * recorded for the value itself (the empty path) is never part of a set.
 */
const ROOT = field('');

/**
 * The comparison; with `ignored`, without the paths it has as members and everything below them
 * (as Set.RecursiveDifference would remove them afterwards), and without walking into them.
 */
export function compare(lhs: JsonValue, rhs: JsonValue, ref: TypeRef, ignored?: FieldSet): Comparison {
  const holder = new Position(undefined, ROOT);
  walk(lhs, rhs, ref, holder, ROOT, ignored);
  const setOf = (change: Change): FieldSet => holder.set(change).withPrefix(ROOT);
  return { removed: setOf(REMOVED), modified: setOf(MODIFIED), added: setOf(ADDED) };
}

/**
 * What changed from lhs to rhs, the modified and added fields as one set (their union), without
 * collecting what was removed: what a writer owns when nobody owned anything before it (a
 * create). The same walk as compare.
 */
export function changedFields(lhs: JsonValue, rhs: JsonValue, ref: TypeRef, ignored?: FieldSet): FieldSet {
  const holder = new Position(undefined, ROOT, true);
  walk(lhs, rhs, ref, holder, ROOT, ignored);
  return holder.set(ADDED).withPrefix(ROOT);
}

/** One walker step for the value at `pe` under `parent`: lhs or rhs may be absent (undefined), not both. */
function walk(lhs: JsonValue | undefined, rhs: JsonValue | undefined, ref: TypeRef, parent: Position, pe: PathElement, ignored: FieldSet | undefined): void {
  if (rhs === undefined && parent.changedOnly) return;
  if (lhs === undefined || rhs === undefined) {
    // A value only one side has is added or removed with everything in it.
    const change = lhs === undefined ? ADDED : REMOVED;
    parent.record(pe, change);
    const below = contents(lhs === undefined ? rhs! : lhs, ref, ignored);
    if (!below.empty()) parent.attach(pe, change, below);
    return;
  }
  const l = deduce(ref, lhs);
  const r = deduce(ref, rhs);
  // A value that changed type is visited as both types; the same atom, or parts of it that take
  // values the same way (a null list and a list both compare as the list), once.
  if (l.handler !== r.handler) handle(l, lhs, rhs, parent, pe, ignored);
  handle(r, lhs, rhs, parent, pe, ignored);
}

function leaf(lhs: JsonValue, rhs: JsonValue, parent: Position, pe: PathElement): void {
  if (!jsonEqual(lhs, rhs)) parent.record(pe, MODIFIED);
}

/** A value both sides have, compared as the handler takes it. */
function handle(t: Typed, lhs: JsonValue, rhs: JsonValue, parent: Position, pe: PathElement, ignored: FieldSet | undefined): void {
  const h = t.handler;
  switch (h.kind) {
    case 'scalar':
      return leaf(lhs, rhs, parent, pe);
    case 'map':
      return compareMaps(h.map, lhs, rhs, parent, pe, ignored);
    case 'list':
      return compareLists(h.list, lhs, rhs, parent, pe, ignored);
    case 'none':
      return;
  }
}

/** The field elements of a map type's known fields, made once; other keys get their own. */
const fieldElements = new WeakMap<MapAtom, Map<string, PathElement>>();

function fieldElement(t: MapAtom, key: string): PathElement {
  if (!hasField(t, key)) return field(key);
  let elements = fieldElements.get(t);
  if (!elements) fieldElements.set(t, (elements = new Map()));
  let pe = elements.get(key);
  if (!pe) elements.set(key, (pe = Object.freeze(field(key))));
  return pe;
}

/** What is ignored below a child: undefined when nothing is, SKIP when the child itself is. */
const SKIP = FieldSet.EMPTY;

function ignoredBelow(ignored: FieldSet | undefined, pe: PathElement): FieldSet | undefined {
  if (!ignored) return undefined;
  return ignored.hasMember(pe) ? SKIP : ignored.child(pe);
}

function compareMaps(t: MapAtom, lhs: JsonValue, rhs: JsonValue, parent: Position, pe: PathElement, ignored: FieldSet | undefined): void {
  const l = isObject(lhs) ? lhs : undefined;
  const r = isObject(rhs) ? rhs : undefined;
  const emptyPromoteToLeaf = isEmptyMap(l) && isEmptyMap(r);
  if (t.relationship === 'atomic' || emptyPromoteToLeaf) return leaf(lhs, rhs, parent, pe);
  const at = new Position(parent, pe);
  if (l) for (const key in l) if (l[key] !== undefined) visitField(t, l[key], own(r, key), key, at, ignored);
  if (r) for (const key in r) if (r[key] !== undefined && own(l, key) === undefined) visitField(t, undefined, r[key], key, at, ignored);
}

function visitField(t: MapAtom, lv: JsonValue | undefined, rv: JsonValue | undefined, key: string, at: Position, ignored: FieldSet | undefined): void {
  const child = fieldElement(t, key);
  const below = ignoredBelow(ignored, child);
  if (below !== SKIP) walk(lv, rv, fieldType(t, key), at, child, below);
}

function isEmptyMap(m: JsonObject | undefined): boolean {
  if (m === undefined) return true;
  for (const k in m) if (m[k] !== undefined) return false;
  return true;
}

function compareLists(t: ListAtom, lhs: JsonValue, rhs: JsonValue, parent: Position, pe: PathElement, ignored: FieldSet | undefined): void {
  const l = Array.isArray(lhs) ? lhs : undefined;
  const r = Array.isArray(rhs) ? rhs : undefined;
  const emptyPromoteToLeaf = (!l || l.length === 0) && (!r || r.length === 0);
  if (t.relationship === 'atomic' || emptyPromoteToLeaf) return leaf(lhs, rhs, parent, pe);
  const at = new Position(parent, pe);
  const groups: Array<{ pe: PathElement; l: JsonValue[]; r: JsonValue[] }> = [];
  const groupOf = (key: PathElement): { pe: PathElement; l: JsonValue[]; r: JsonValue[] } => {
    let g = groups.find((x) => compareElements(x.pe, key) === 0);
    if (!g) {
      g = { pe: key, l: [], r: [] };
      groups.push(g);
    }
    return g;
  };
  for (const item of l ?? []) {
    const k = listItemKey(t, item);
    if (k.ok) groupOf(k.value).l.push(item);
  }
  for (const item of r ?? []) {
    const k = listItemKey(t, item);
    if (k.ok) groupOf(k.value).r.push(item);
  }
  for (const g of groups) {
    const below = ignoredBelow(ignored, g.pe);
    if (below === SKIP) continue;
    if (g.l.length <= 1 && g.r.length <= 1) walk(g.l[0], g.r[0], t.element, at, g.pe, below);
    else if (g.l.length >= 2 && g.r.length >= 2) {
      if (g.l.length !== g.r.length || !g.l.every((v, i) => jsonEqual(v, g.r[i]))) at.record(g.pe, MODIFIED);
    } else if (g.l.length >= 2) {
      if (g.r.length !== 0) walk(undefined, g.r[0], t.element, at, g.pe, below);
      at.record(g.pe, REMOVED);
    } else {
      if (g.l.length !== 0) walk(g.l[0], undefined, t.element, at, g.pe, below);
      at.record(g.pe, ADDED);
    }
  }
}

/**
 * What the walk would collect below a value only one side has, as one set (every path in it
 * changed the same way): each entry or item is a member, with its own contents below it;
 * items duplicated in the list are members as a whole.
 */
function contents(v: JsonValue, ref: TypeRef, ignored: FieldSet | undefined): FieldSet {
  const h = deduce(ref, v).handler;
  if (h.kind === 'map') return mapContents(h.map, v, ignored);
  if (h.kind === 'list') return listContents(h.list, v, ignored);
  return FieldSet.EMPTY;
}

function mapContents(t: MapAtom, v: JsonValue, ignored: FieldSet | undefined): FieldSet {
  if (t.relationship === 'atomic' || !isObject(v)) return FieldSet.EMPTY;
  // Arrays sized up front (most levels hold a few fields, and pushing reserves room for 16 more).
  let count = 0;
  for (const key in v) if (v[key] !== undefined) count++;
  const members = new Array<PathElement>(count);
  let children: Array<{ pe: PathElement; set: FieldSet }> | undefined;
  let m = 0;
  let c = 0;
  for (const key in v) {
    const child = v[key];
    if (child === undefined) continue;
    const pe = fieldElement(t, key);
    const below = ignoredBelow(ignored, pe);
    if (below === SKIP) continue;
    members[m++] = pe;
    const set = contents(child, fieldType(t, key), below);
    if (!set.empty()) (children ??= new Array(count))[c++] = { pe, set };
  }
  // Shortened only when needed: setting an array's length is a slow path.
  if (m !== members.length) members.length = m;
  if (children && c !== children.length) children = children.slice(0, c);
  return FieldSet.fromSorted(sortInPlace(members, compareElements), children ? sortInPlace(children, byElement) : []);
}

function listContents(t: ListAtom, v: JsonValue, ignored: FieldSet | undefined): FieldSet {
  if (t.relationship === 'atomic' || !Array.isArray(v)) return FieldSet.EMPTY;
  const items = new Array<{ pe: PathElement; item: JsonValue; count: number }>(v.length);
  let n = 0;
  for (const item of v) {
    const k = listItemKey(t, item);
    if (!k.ok) continue;
    let same = 0;
    while (same < n && compareElements(items[same]!.pe, k.value) !== 0) same++;
    if (same < n) items[same]!.count++;
    else items[n++] = { pe: k.value, item, count: 1 };
  }
  const members = new Array<PathElement>(n);
  let children: Array<{ pe: PathElement; set: FieldSet }> | undefined;
  let m = 0;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const { pe, item, count } = items[i]!;
    const below = ignoredBelow(ignored, pe);
    if (below === SKIP) continue;
    members[m++] = pe;
    if (count > 1) continue;
    const set = contents(item, t.element, below);
    if (!set.empty()) (children ??= new Array(n))[c++] = { pe, set };
  }
  // Shortened only when needed: setting an array's length is a slow path.
  if (m !== members.length) members.length = m;
  if (children && c !== children.length) children = children.slice(0, c);
  return FieldSet.fromSorted(sortInPlace(members, compareElements), children ? sortInPlace(children, byElement) : []);
}
