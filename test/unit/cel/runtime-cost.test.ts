/**
 * The runtime cost of CEL evaluations, as cel-go's cost tracker counts it for CRD validation
 * rules, against apiextensions-apiserver's own table (pkg/apiserver/schema/cel/
 * celcoststability_test.go TestCelCostStability, ported as data: the cases kubesim's
 * libraries run, object by object).
 */
import * as assert from 'node:assert/strict';
import type { JsonObject, JsonValue } from '../../../src/engine/api/types';
import { compiledRules } from '../../../src/engine/apiserver/customresources/cel-rules';
import { typedValue } from '../../../src/engine/apiserver/customresources/cel-types';
import { structuralOf } from '../../../src/engine/apiserver/customresources/structural';
import { CostLimitExceeded, CostTracker, withTracker } from '../../../src/engine/cel/cost';

const integer = { type: 'integer' };
const string = { type: 'string' };
const object = (properties: Record<string, JsonObject>): JsonObject => ({ type: 'object', properties });

interface Case {
  name: string;
  schema: JsonObject;
  obj: JsonValue;
  expectCost: Record<string, number>;
}

const cases: Case[] = [
  {
    name: 'integers',
    schema: object({ val1: integer, val2: integer, val3: { type: 'integer', format: 'int32' }, val6: { type: 'integer', format: 'int64' } }),
    obj: { val1: 9223372036854775807, val2: 9223372036854775807, val3: 2147483647, val6: 9223372036854775807 },
    expectCost: { 'self.val1 == self.val6': 5, 'type(self.val1) == int': 4, 'self.val3 + 1 == 2147483647 + 1': 5 },
  },
  {
    name: 'numbers',
    schema: object({ val1: { type: 'number' }, val6: { type: 'number', format: 'double' }, val7: { type: 'number', format: 'double' } }),
    obj: { val1: 1.5, val6: 1.5, val7: 1 },
    expectCost: { 'self.val1 == self.val6': 5, 'type(self.val1) == double': 4, 'type(self.val7) == double': 4, 'self.val7 == 1.0': 3 },
  },
  {
    name: 'numeric comparisons',
    schema: object({ val1: integer, val4: { type: 'number' } }),
    obj: { val1: 5, val4: 10.5 },
    expectCost: { 'double(self.val1) < self.val4': 6, 'self.val1 < int(self.val4)': 6, 'double(5) < 10.0': 1, '5 < int(10.0)': 1, 'double(self.val1) < 10.0': 4 },
  },
  {
    name: 'unicode strings',
    schema: object({ val1: string, val2: string }),
    obj: { val1: 'Rook takes 👑', val2: 'Rook takes 👑' },
    expectCost: {
      "self.val1.startsWith('Rook')": 3,
      "!self.val1.startsWith('knight')": 4,
      "self.val1.matches('^[^0-9]*$')": 8,
      "!self.val1.matches('^[0-9]*$')": 7,
      'type(self.val1) == string': 4,
      'size(self.val1) == 12': 4,
      "self.val1.charAt(3) == 'k'": 4,
      "self.val1.indexOf('o') == 1": 4,
      "self.val1.indexOf('o', 2) == 2": 4,
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'": 7,
      "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'": 7,
      "self.val1.split(' ') == ['Rook', 'takes', '👑']": 6,
      "self.val1.split(' ', 2) == ['Rook', 'takes 👑']": 6,
      "self.val1.substring(5) == 'takes 👑'": 5,
      "self.val1.substring(0, 4) == 'Rook'": 5,
      "self.val1.substring(4, 10).trim() == 'takes'": 6,
      "self.val1.upperAscii() == 'ROOK TAKES 👑'": 6,
      "self.val1.lowerAscii() == 'rook takes 👑'": 6,
      'self.val1.lowerAscii() == self.val1.lowerAscii()': 10,
      "'%o %o %o'.format([7, 8, 9]) == '7 10 11'": 2,
      "'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'": 3,
    },
  },
  {
    name: 'map access',
    schema: object({ val: { type: 'object', additionalProperties: integer } }),
    obj: { val: { b: 1, d: 2 } },
    expectCost: {
      "!('a' in self.val)": 4,
      "'b' in self.val": 3,
      "!('c' in self.val)": 4,
      "'d' in self.val": 3,
      '!has(self.val.a)': 3,
      'has(self.val.b)': 2,
      '!has(self.val.c)': 3,
      'has(self.val.d)': 2,
      'self.val.all(k, self.val[k] > 0)': 17,
      '!self.val.exists(k, self.val[k] == 3)': 20,
      'self.val.exists_one(k, self.val[k] == 2)': 14,
      '!self.val.exists_one(k, self.val[k] > 0)': 17,
      'size(self.val.filter(k, self.val[k] > 1)) == 1': 26,
      'self.val.all(k, v, v > 0)': 13,
      '!self.val.exists(k, v, v == 3)': 16,
      'self.val.existsOne(k, v, v == 2)': 10,
      'self.val.transformMap(k, v, v > 1, v + 1).size() == 1': 14,
      'self.val.transformMap(k, v, v + 1).size() == 2': 15,
      "self.val.transformMapEntry(k, v, v > 1, {k + '2': v + 1}).size() == 1": 45,
      "self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2": 77,
    },
  },
  {
    name: 'listMap access',
    schema: object({
      listMap: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: object({ k: string, v: string, v2: string }) },
    }),
    obj: { listMap: [{ k: 'a1', v: 'b1' }, { k: 'a2', v: 'b2' }, { k: 'a3', v: 'b3', v2: 'z' }] },
    expectCost: {
      "self.listMap.all(m, m.k.startsWith('a'))": 21,
      "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')": 21,
      "self.listMap.exists(m, m.k.endsWith('1'))": 13,
      "self.listMap.exists_one(m, m.k == 'a3')": 15,
      "!self.listMap.all(m, m.k.endsWith('1'))": 18,
      "!self.listMap.exists(m, m.v == 'x')": 25,
      "!self.listMap.exists_one(m, m.k.startsWith('a'))": 20,
      "size(self.listMap.filter(m, m.k == 'a1')) == 1": 27,
      "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')": 16,
      "self.listMap.map(m, m.v).exists(v, v == 'b1')": 55,
      "self.listMap.exists(m, has(m.v2) && m.v2 == 'z')": 21,
      "!self.listMap.all(m, has(m.v2) && m.v2 != 'z')": 10,
      "self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')": 12,
      "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1": 24,
      "self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1": 25,
      "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1": 39,
      "self.listMap.exists(m, m.v2 == 'z')": 24,
      "!self.listMap.all(m, m.v2 != 'z')": 22,
      "!self.listMap.all(i, m, has(m.v2) && m.v2 != 'z')": 10,
      "self.listMap.exists(i, m, has(m.v2) && m.v2 == 'z')": 21,
      "self.listMap.existsOne(i, m, has(m.v2) && m.v2 == 'z')": 12,
      "self.listMap.transformList(i, m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1": 25,
    },
  },
  {
    name: 'list access',
    schema: object({ array: { type: 'array', items: integer } }),
    obj: { array: [1, 1, 2, 2, 3, 3, 4, 5] },
    expectCost: {
      '2 in self.array': 10,
      'self.array.all(e, e > 0)': 43,
      'self.array.exists(e, e > 2)': 36,
      'self.array.exists_one(e, e > 4)': 22,
      '!self.array.all(e, e < 2)': 21,
      '!self.array.exists(e, e < 0)': 52,
      '!self.array.exists_one(e, e == 2)': 25,
      'self.array.all(e, e < 100)': 43,
      'size(self.array.filter(e, e%2 == 0)) == 3': 68,
      'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)': 194,
      'size(self.array) == 8': 4,
      'self.array.all(i, e, e > 0)': 43,
      'self.array.exists(i, e, e > 2)': 36,
      'self.array.existsOne(i, e, e > 4)': 22,
      'self.array.transformList(i, e, e > 2, e * 2).size() > 0': 77,
      'self.array.transformList(i, e, e * 2).size() > 0': 117,
    },
  },
  {
    name: 'listSet access',
    schema: object({ set: { type: 'array', 'x-kubernetes-list-type': 'set', items: integer } }),
    obj: { set: [1, 2, 3, 4, 5] },
    expectCost: {
      '3 in self.set': 7,
      'self.set.all(e, e > 0)': 28,
      'self.set.exists(e, e > 3)': 30,
      'self.set.exists_one(e, e == 3)': 16,
      '!self.set.all(e, e < 3)': 21,
      '!self.set.exists(e, e < 0)': 34,
      '!self.set.exists_one(e, e > 3)': 19,
      'self.set.all(e, e < 10)': 28,
      'size(self.set.filter(e, e%2 == 0)) == 2': 46,
      'self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)': 133,
      'size(self.set) == 5': 4,
    },
  },
];

function cost(schema: JsonObject, obj: JsonValue, rule: string, limit?: number): { cost: number; value?: unknown; error?: unknown } {
  const s = structuralOf({ ...schema, 'x-kubernetes-validations': [{ rule }] });
  const c = compiledRules(s, false)[0]!;
  assert.equal(c.error, undefined, `compile error: ${c.error}`);
  const t = new CostTracker(limit);
  try {
    const value = withTracker(t, () => c.program!.evaluate({ self: typedValue(obj, s), oldSelf: null }));
    return { cost: t.cost, value };
  } catch (error) {
    return { cost: t.cost, error };
  }
}

describe('CEL runtime cost (apiextensions-apiserver TestCelCostStability)', () => {
  for (const c of cases) {
    describe(c.name, () => {
      for (const [rule, want] of Object.entries(c.expectCost)) {
        it(rule, () => {
          const r = cost(c.schema, c.obj, rule);
          assert.equal(r.value, true, `rule does not hold: ${String(r.error ?? r.value)}`);
          assert.equal(r.cost, want);
        });
      }
    });
  }

  it('stops at the per-call limit with cel-go\'s error', () => {
    const list = Array.from({ length: 300 }, (_, i) => i);
    const r = cost(object({ l: { type: 'array', items: integer } }), { l: list }, 'self.l.all(x, self.l.all(y, x >= 0))', 100_000);
    assert.ok(r.error instanceof CostLimitExceeded);
    assert.equal((r.error as Error).message, 'operation cancelled: actual cost limit exceeded');
    // cel-go stops at the first charge past the limit; kubesim charges a macro's loop when the macro returns
    assert.ok(r.cost > 100_000 && r.cost < 102_000, `stopped at ${r.cost}`);
  });
});
