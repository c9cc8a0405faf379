/**
 * compare() collects its sets level by level as it walks; it must give exactly the sets of the
 * path-by-path reference (the previous implementation, kept here): for creates, updates and
 * random changes of the conformance corpus objects, with their schemas. changedFields (a create's
 * walk) must give exactly compare's modified and added fields, as one set.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { schemaForKind } from '../../../src/engine/api/openapi';
import { isObject, parseApiVersion, type JsonObject, type JsonValue } from '../../../src/engine/api/types';
import type { Path, PathElement } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { compareElements, field } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { FieldSet } from '../../../src/engine/apiserver/apply/fieldpath/set';
import type { ListAtom, MapAtom, TypeRef } from '../../../src/engine/apiserver/apply/schema';
import { fieldType } from '../../../src/engine/apiserver/apply/schema';
import type { Typed } from '../../../src/engine/apiserver/apply/typed/atom';
import { deduce, listItemKey } from '../../../src/engine/apiserver/apply/typed/atom';
import { changedFields, compare, type Comparison } from '../../../src/engine/apiserver/apply/typed/compare';
import { zeroObject } from '../../../src/engine/apiserver/apply/zero';
import { jsonEqual } from '../../../src/engine/apiserver/patch/govalue';
import { seeded } from './seeded';

interface Acc {
  removed: Path[];
  modified: Path[];
  added: Path[];
}

function referenceCompare(lhs: JsonValue, rhs: JsonValue, ref: TypeRef): Comparison {
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
  else if (lhs === undefined || (l.atom === r.atom && l.part === r.part)) handle(r, lhs, rhs, path, acc, state);
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
  const h = t.handler;
  switch (h.kind) {
    case 'scalar':
      leaf(lhs, rhs, path, acc, state);
      return;
    case 'map':
      referenceMaps(h.map, lhs, rhs, path, acc, state);
      return;
    case 'list':
      referenceLists(h.list, lhs, rhs, path, acc, state);
      return;
    case 'none':
      return;
  }
}

function referenceMaps(t: MapAtom, lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: Path, acc: Acc, state: { inLeaf: boolean }): void {
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

function referenceLists(t: ListAtom, lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: Path, acc: Acc, state: { inLeaf: boolean }): void {
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
    if (k.ok) groupOf(k.value).l.push(item);
  }
  for (const item of r ?? []) {
    const k = listItemKey(t, item);
    if (k.ok) groupOf(k.value).r.push(item);
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

const casesDir = path.join(__dirname, '../../conformance/cases');

function corpus(): Array<{ object: JsonObject; old?: JsonObject }> {
  const out: Array<{ object: JsonObject; old?: JsonObject }> = [];
  for (const file of fs.readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort()) {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(casesDir, file), 'utf8'));
    for (const c of Array.isArray(parsed) ? parsed : [parsed]) if (isObject(c.object)) out.push({ object: c.object, old: isObject(c.old) ? c.old : undefined });
  }
  return out;
}

/** A random change: a value replaced by another type, removed, or a list item dropped or duplicated. */
function mutate(v: JsonValue, next: (n: number) => number): JsonValue {
  if (Array.isArray(v)) {
    const items = v.map((x) => (next(4) === 0 ? mutate(x, next) : x));
    const r = next(8);
    if (r === 0 && items.length > 0) items.splice(next(items.length), 1);
    if (r === 1 && items.length > 0) items.push(items[next(items.length)]!);
    return items;
  }
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      const r = next(12);
      if (r === 0) continue;
      if (x === undefined) continue;
      out[k] = r === 1 ? [null, 'x', 3, {}][next(4)]! : r < 5 ? mutate(x, next) : x;
    }
    if (next(6) === 0) out['added' + next(3)] = next(2) === 0 ? 'v' : { nested: [1] };
    return out;
  }
  return next(3) === 0 ? ['s', 1, true, null][next(4)]! : v;
}

const same = (a: Comparison, b: Comparison): void => assert.deepStrictEqual(a, b);

/** Reset fields as the strategies have them, and deeper ones. */
const IGNORED: FieldSet[] = [
  FieldSet.of([field('status')]),
  FieldSet.of([field('spec')], [field('metadata')]),
  FieldSet.of([field('metadata'), field('labels')], [field('spec'), field('template'), field('spec'), field('containers')]),
  FieldSet.of([field('spec'), field('template')], [field('spec')], [field('metadata'), field('name')]),
];

/** Creates, deletions, no-ops, random changes and the corpus's own updates of each corpus object, with its schema. */
function* corpusPairs(next: (n: number) => number): Generator<{ l: JsonValue; r: JsonValue; schema: TypeRef }> {
  for (const { object, old } of corpus()) {
    const { group, version } = parseApiVersion(String(object.apiVersion ?? ''));
    const kind = String(object.kind ?? '');
    const schema = schemaForKind(group, version, kind);
    if (!schema) continue;
    const zero = zeroObject(schema, { group, version, kind });
    const pairs: Array<[JsonValue, JsonValue]> = [[zero, object], [object, zero], [object, object], [object, mutate(object, next)], [mutate(object, next), object]];
    if (old) pairs.push([old, object]);
    for (const [l, r] of pairs) yield { l, r, schema };
  }
}

describe('perf: compare collects its sets level by level', () => {
  it('gives the reference sets for creates, updates and random changes of the corpus objects', () => {
    let checked = 0;
    for (const { l, r, schema } of corpusPairs(seeded(4242))) {
      const reference = referenceCompare(l, r, schema);
      same(compare(l, r, schema), reference);
      for (const ignored of IGNORED) {
        const without = (s: FieldSet): FieldSet => s.recursiveDifference(ignored);
        same(compare(l, r, schema, ignored), { removed: without(reference.removed), modified: without(reference.modified), added: without(reference.added) });
      }
      checked++;
    }
    assert.ok(checked > 4000, `checked ${checked}`);
  });

  it('changedFields is the union of what compare finds modified and added, for the same pairs', () => {
    let checked = 0;
    for (const { l, r, schema } of corpusPairs(seeded(4243))) {
      for (const ignored of [undefined, ...IGNORED]) {
        const cmp = compare(l, r, schema, ignored);
        assert.deepStrictEqual(changedFields(l, r, schema, ignored), cmp.modified.union(cmp.added));
      }
      checked++;
    }
    assert.ok(checked > 4000, `checked ${checked}`);
  });
});
