/**
 * Managed fields share what did not change. A set operation whose result holds exactly its
 * operand's paths gives back the operand itself, and otherwise the set operations' results are
 * unchanged (checked path by path against plain set algebra over random sets); a set is encoded
 * once, and a manager that changed only fields it owned keeps the fieldsV1 of the revision before
 * (the same frozen object, the same bytes as a fresh encoding).
 */
import assert from 'node:assert/strict';
import type { JsonValue, KubeObject } from '../../../src/engine/api/types';
import type { Path, PathElement } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { field, serializeElement } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { encodesSame, fromFieldsV1, toFieldsV1 } from '../../../src/engine/apiserver/apply/fieldpath/fieldsv1';
import { FieldSet } from '../../../src/engine/apiserver/apply/fieldpath/set';
import { decodeManagedFields, encodeManagedFields } from '../../../src/engine/apiserver/apply/managed';
import { updateManagedFields, type FieldManagerScope } from '../../../src/engine/apiserver/apply';
import { schemaForKind } from '../../../src/engine/api/openapi';
import { deepFreeze } from '../../../src/engine/apiserver/storage/codec';
import { randomPathElement, seeded, type PathAlphabet } from './seeded';

const ALPHABET: PathAlphabet = { names: ['a', 'b', 'spec', 'status', 'z'], values: ['x', 1, true], indexes: 3, portKeys: false };
const randomElement = (next: (n: number) => number): PathElement => randomPathElement(next, ALPHABET);

function randomSet(next: (n: number) => number, count: number): FieldSet {
  const paths: Path[] = [];
  for (let i = 0; i < count; i++) {
    const p: PathElement[] = [];
    for (let k = 1 + next(3); k > 0; k--) p.push(randomElement(next));
    paths.push(p);
  }
  return FieldSet.from(paths);
}

const key = (p: Path): string => p.map(serializeElement).join(' ');
const pathsOf = (s: FieldSet): string[] => s.paths().map(key).sort();

describe('perf: set operations give back an unchanged operand', () => {
  for (let seed = 1; seed <= 150; seed++) {
    it(`union, intersection, difference and recursiveDifference (seed ${seed})`, () => {
      const next = seeded(seed);
      const a = randomSet(next, 1 + next(12));
      // Often a subset or a superset of a, as a manager's changes are of what it owns.
      const picked = a.paths().filter(() => next(2) === 0);
      const b = next(3) === 0 ? randomSet(next, next(8)) : next(2) === 0 ? FieldSet.from(picked) : a.union(randomSet(next, next(4)));
      const pa = new Set(pathsOf(a));
      const pb = new Set(pathsOf(b));
      const cases: Array<[string, FieldSet, string[]]> = [
        ['union', a.union(b), [...new Set([...pa, ...pb])].sort()],
        ['intersection', a.intersection(b), [...pa].filter((p) => pb.has(p)).sort()],
        ['difference', a.difference(b), [...pa].filter((p) => !pb.has(p)).sort()],
        [
          'recursiveDifference',
          a.recursiveDifference(b),
          a
            .paths()
            .filter((p) => !p.some((_, i) => pb.has(key(p.slice(0, i + 1)))))
            .map(key)
            .sort(),
        ],
      ];
      for (const [name, result, expected] of cases) {
        assert.deepStrictEqual(pathsOf(result), expected, name);
        const same = expected.length === pa.size && expected.every((p) => pa.has(p));
        if (same) assert.equal(result, a, `${name}: the operand itself when nothing changed`);
        else assert.notEqual(result, a, name);
      }
    });
  }
});

describe('perf: one encoding per set', () => {
  it('encodesSame is whether the fieldsV1 encodings are equal', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = seeded(seed);
      const a = randomSet(next, next(6));
      const b = next(2) === 0 ? fromFieldsV1(toFieldsV1(a)) : randomSet(next, next(6));
      assert.equal(encodesSame(a, b), JSON.stringify(toFieldsV1(a)) === JSON.stringify(toFieldsV1(b)), `seed ${seed}`);
    }
  });

  it('encodes a set once (frozen), and decodes its own encoding without reading it', () => {
    const set = FieldSet.of([field('spec'), field('replicas')], [field('metadata'), field('labels'), field('app')]);
    const managed = { fields: new Map([['{"manager":"m","operation":"Update","apiVersion":"v1"}', { set, apiVersion: 'v1', applied: false }]]), times: new Map() };
    const first = encodeManagedFields(managed)!;
    const second = encodeManagedFields(managed)!;
    assert.equal(first[0]!.fieldsV1, second[0]!.fieldsV1);
    assert.ok(Object.isFrozen(first[0]!.fieldsV1) && Object.isFrozen((first[0]!.fieldsV1 as Record<string, object>)['f:spec']));
    assert.deepStrictEqual(first[0]!.fieldsV1, toFieldsV1(set));
    assert.equal(decodeManagedFields(first).fields.values().next().value!.set, set);
  });

  it('a stored, non-canonical fieldsV1 is encoded afresh, as upstream re-encodes every write', () => {
    // "f:b" before "f:a": what a client may send; the canonical order is a, b.
    const storedEntry = deepFreeze([{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:b': {}, 'f:a': {} } }]);
    const out = encodeManagedFields(decodeManagedFields(storedEntry))!;
    assert.equal(JSON.stringify(out[0]!.fieldsV1), '{"f:a":{},"f:b":{}}');
  });
});

describe('perf: a manager that changes only what it owns keeps its fieldsV1', () => {
  const schema = schemaForKind('apps', 'v1', 'Deployment')!;
  const scope: FieldManagerScope = { schema, gvk: { group: 'apps', version: 'v1', kind: 'Deployment' }, now: Date.parse('2025-01-01T00:00:00Z') };
  const deployment = (replicas: number, image: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'u' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
    },
  });
  const write = (live: KubeObject | undefined, updated: KubeObject, manager: string): KubeObject =>
    deepFreeze(updateManagedFields({ ...scope, live, updated: live ? { ...updated, metadata: { ...updated.metadata, managedFields: live.metadata.managedFields } } : updated, manager }));
  const entry = (obj: KubeObject, manager: string) => obj.metadata.managedFields!.find((e) => e.manager === manager)!;

  it('the same frozen fieldsV1 across revisions, with the bytes a fresh encoding gives', () => {
    const created = write(undefined, deployment(1, 'a'), 'creator');
    const scaled = write(created, deployment(2, 'a'), 'scaler');
    const again = write(scaled, deployment(3, 'a'), 'scaler');
    const thrice = write(again, deployment(4, 'a'), 'scaler');
    assert.equal(entry(thrice, 'scaler').fieldsV1, entry(again, 'scaler').fieldsV1, 'the scaler changed only spec.replicas, which it owns');
    assert.equal(entry(again, 'scaler').fieldsV1, entry(scaled, 'scaler').fieldsV1);
    // The creator lost spec.replicas to the scaler once; untouched since, it keeps that set's encoding.
    assert.equal(entry(thrice, 'creator').fieldsV1, entry(scaled, 'creator').fieldsV1, 'untouched managers keep theirs');
    assert.ok(!('f:replicas' in ((entry(scaled, 'creator').fieldsV1 as Record<string, object>)['f:spec'] ?? {})));
    assert.deepStrictEqual(entry(thrice, 'scaler').fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    // A change beyond what the manager owned gives it a new set and a new encoding.
    const imaged = write(thrice, deployment(4, 'b'), 'scaler');
    assert.notEqual(entry(imaged, 'scaler').fieldsV1, entry(thrice, 'scaler').fieldsV1);
    assert.equal(JSON.stringify(entry(imaged, 'scaler').fieldsV1), JSON.stringify(toFieldsV1(fromFieldsV1(entry(imaged, 'scaler').fieldsV1 as JsonValue))));
    assert.ok('f:template' in ((entry(imaged, 'scaler').fieldsV1 as Record<string, Record<string, unknown>>)['f:spec'] ?? {}));
  });
});
