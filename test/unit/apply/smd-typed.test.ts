import assert from 'node:assert/strict';
import type { JsonValue } from '../../../src/engine/api/types';
import type { PathElement } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { field, index, keyElement, pathString, valueElement } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { FieldSet } from '../../../src/engine/apiserver/apply/fieldpath/set';
import { toFieldSet } from '../../../src/engine/apiserver/apply/typed/fieldset';
import { merge } from '../../../src/engine/apiserver/apply/typed/merge';
import { validate } from '../../../src/engine/apiserver/apply/typed/validate';
import { smdSchema } from './smd-schema';
import fixtures from './fixtures/smd-typed.json';

type PE = { field?: string; index?: number; key?: Array<[string, JsonValue]>; value?: JsonValue };
const pe = (e: PE): PathElement => {
  if (e.field !== undefined) return field(e.field);
  if (e.index !== undefined) return index(e.index);
  if (e.key !== undefined) return keyElement(e.key);
  return valueElement(e.value ?? null);
};

// Schemas that use structured-merge-diff's __untyped_atomic_ (a scalar, list and map at once)
// have no OpenAPI form.
const expressible = (schema: string): boolean => !schema.includes('namedType: __untyped_atomic_');

describe('server-side apply: structured-merge-diff typed merge tables', () => {
  for (const c of fixtures.merge.filter((x) => expressible(x.schema))) {
    const schema = smdSchema(c.schema, c.root);
    c.triplets.forEach(([lhs, rhs, out], i) => {
      it(`${c.name} ${i}: ${JSON.stringify(lhs)} + ${JSON.stringify(rhs)}`, () => {
        assert.deepStrictEqual(validate(lhs as JsonValue, schema, true), []);
        assert.deepStrictEqual(validate(rhs as JsonValue, schema, false), []);
        assert.deepStrictEqual(merge(lhs as JsonValue, rhs as JsonValue, schema), out);
      });
    });
  }
});

describe('server-side apply: structured-merge-diff ToFieldSet tables', () => {
  for (const c of fixtures.toset.filter((x) => expressible(x.schema))) {
    const schema = smdSchema(c.schema, c.root);
    c.pairs.forEach((p, i) => {
      it(`${c.name} ${i}: ${JSON.stringify(p.object)}`, () => {
        const want = FieldSet.of(...(p.paths as PE[][]).map((path) => path.map(pe)));
        assert.deepStrictEqual(toFieldSet(p.object as JsonValue, schema).paths().map(pathString), want.paths().map(pathString));
      });
    });
  }
});

describe('server-side apply: validation messages', () => {
  const schema = smdSchema(
    `types:
- name: root
  map:
    fields:
    - name: items
      type:
        list:
          elementType:
            map:
              fields:
              - name: name
                type:
                  scalar: string
              - name: port
                type:
                  scalar: numeric
          elementRelationship: associative
          keys: [name, port]
    - name: flag
      type:
        scalar: boolean
    - name: any
      type:
        scalar: untyped
`,
    'root',
  );
  const text = (v: JsonValue): string[] => validate(v, schema, false).map(String);

  it('reports items that omit every key field', () => {
    assert.deepStrictEqual(text({ items: [{ other: 1 }] } as unknown as JsonValue), [
      '.items: element 0: associative list with keys has an element that omits all key fields ["name" "port"] (and doesn\'t have default values for any key fields)',
    ]);
  });

  it('prints bad values the way Go prints the value wrappers', () => {
    assert.deepStrictEqual(text({ flag: 'yes', any: { a: 1 } }), ['.any: expected any scalar, got &{map[a:1]}', '.flag: expected boolean, got &{yes}']);
    assert.deepStrictEqual(text({ items: [{ name: 'a', port: 1 }, { name: 'a', port: 1 }] }), ['.items: duplicate entries for key [name="a",port=1]']);
    assert.deepStrictEqual(validate({ items: [{ name: 'a', port: 1 }, { name: 'a', port: 1 }] }, schema, true), []);
  });
});
