/**
 * The one-pass FieldSet builder and the sorting fieldsV1 reader give exactly the sets that the
 * one-insert-at-a-time construction gives (the same members, children and elements, in order).
 */
import assert from 'node:assert/strict';
import type { JsonValue, ManagedFieldsEntry } from '../../../src/engine/api/types';
import type { Path, PathElement } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { fromFieldsV1, toFieldsV1 } from '../../../src/engine/apiserver/apply/fieldpath/fieldsv1';
import { FieldSet } from '../../../src/engine/apiserver/apply/fieldpath/set';
import { decodeManagedFields } from '../../../src/engine/apiserver/apply/managed';
import { deepFreeze } from '../../../src/engine/apiserver/storage/codec';
import { randomPathElement, seeded, type PathAlphabet } from './seeded';

const ALPHABET: PathAlphabet = {
  names: ['a', 'b', 'spec', 'metadata', 'é', 'z', 'containers', '\u{1F600}', 'B'],
  values: ['x', 'y', 1, 2.5, true, null, { p: 1, q: 'r' }, { q: 'r', p: 1 }, ['l']],
  indexes: 4,
  portKeys: true,
};
const randomElement = (next: (n: number) => number): PathElement => randomPathElement(next, ALPHABET);

function randomPaths(seed: number, count: number): Path[] {
  const next = seeded(seed);
  const paths: Path[] = [];
  for (let i = 0; i < count; i++) {
    // Paths often share prefixes, as the paths of one object do.
    const base = paths.length > 0 && next(3) > 0 ? paths[next(paths.length)]!.slice(0, next(4)) : [];
    const length = next(4);
    const p: PathElement[] = [...base];
    for (let k = 0; k < length; k++) p.push(randomElement(next));
    paths.push(p);
  }
  return paths;
}

const oneByOne = (paths: readonly Path[]): FieldSet => paths.reduce((s, p) => s.insert(p), FieldSet.EMPTY);

describe('perf: FieldSet built in one pass', () => {
  for (let seed = 1; seed <= 200; seed++) {
    it(`equals inserting one path at a time (seed ${seed})`, () => {
      const paths = randomPaths(seed, 1 + (seed % 60));
      assert.deepStrictEqual(FieldSet.from(paths), oneByOne(paths));
      assert.deepStrictEqual(FieldSet.of(...paths), oneByOne(paths));
    });
  }

  it('ignores empty paths and gives EMPTY for none', () => {
    assert.equal(FieldSet.from([]), FieldSet.EMPTY);
    assert.equal(FieldSet.from([[]]), FieldSet.EMPTY);
  });
});

/** The reader as it was: one insert and one union per key. */
function readOneByOne(obj: JsonValue): { set: FieldSet; isMember: boolean } {
  let isMember = false;
  let set: FieldSet | undefined;
  for (const [key, value] of Object.entries(obj as Record<string, JsonValue>)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    const pe = fromFieldsV1({ [key]: {} }).members[0];
    if (!pe) continue;
    const child = readOneByOne(value);
    set ??= FieldSet.EMPTY;
    if (child.isMember) set = set.insert([pe]);
    if (!child.set.empty()) set = set.union(FieldSet.fromSorted([], [{ pe, set: child.set }]));
  }
  return set === undefined ? { set: FieldSet.EMPTY, isMember: true } : { set, isMember };
}

describe('perf: fieldsV1 read in one pass', () => {
  for (let seed = 1; seed <= 100; seed++) {
    it(`reads what the one-insert reader reads (seed ${seed})`, () => {
      const fieldsV1 = toFieldsV1(FieldSet.from(randomPaths(seed, 40)));
      assert.deepStrictEqual(fromFieldsV1(fieldsV1), readOneByOne(fieldsV1).set);
    });
  }

  it('unites keys that name the same element, keeping the first', () => {
    const fieldsV1 = {
      'k:{"name":"a","port":1}': { 'f:x': {} },
      'f:b': {},
      'k:{"port":1,"name":"a"}': { '.': {}, 'f:y': {} },
      'v:{"q":"r","p":1}': {},
      'v:{"p":1,"q":"r"}': {},
    };
    assert.deepStrictEqual(fromFieldsV1(fieldsV1), readOneByOne(fieldsV1).set);
  });

  it('decodes a stored (frozen) entry once and gives the same set as a fresh decode', () => {
    const fieldsV1 = toFieldsV1(FieldSet.from(randomPaths(7, 30)));
    const entry: ManagedFieldsEntry = { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1 };
    const fresh = decodeManagedFields([structuredClone(entry)]);
    const frozen = deepFreeze([entry]);
    const first = decodeManagedFields(frozen);
    const second = decodeManagedFields(frozen);
    assert.deepStrictEqual(first, fresh);
    assert.equal([...second.fields.values()][0]!.set, [...first.fields.values()][0]!.set);
    assert.notEqual(second.fields, first.fields);
  });

  it('reuses the stored set for a request entry that copies it, and decodes one that differs', () => {
    const fieldsV1 = toFieldsV1(FieldSet.from(randomPaths(11, 30)));
    const stored = deepFreeze([{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1 } as ManagedFieldsEntry]);
    const storedSet = [...decodeManagedFields(stored).fields.values()][0]!.set;
    const copy = structuredClone(stored) as ManagedFieldsEntry[];
    const reused = decodeManagedFields(copy, stored);
    assert.equal([...reused.fields.values()][0]!.set, storedSet);
    assert.deepStrictEqual(reused, decodeManagedFields(structuredClone(stored) as ManagedFieldsEntry[]));
    const changed = structuredClone(stored) as ManagedFieldsEntry[];
    changed[0]!.fieldsV1 = { ...changed[0]!.fieldsV1, 'f:extra': {} };
    const decoded = decodeManagedFields(changed, stored);
    assert.notEqual([...decoded.fields.values()][0]!.set, storedSet);
    assert.deepStrictEqual(decoded, decodeManagedFields(structuredClone(changed)));
  });
});
