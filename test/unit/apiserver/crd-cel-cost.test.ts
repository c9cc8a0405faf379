/**
 * CRD validation's CEL cost limits against apiextensions-apiserver's own tables (pkg/apis/
 * apiextensions/validation/validation_test.go, ported as data): the per-expression limit
 * (10,000,000 times the rule's cardinality), the per-CRD limit (100,000,000) with the
 * expressions that contributed, messageExpression costs, and TestPerCRDEstimatedCost.
 */
import * as assert from 'node:assert/strict';
import { Path } from '../../../src/engine/api/field';
import type { JsonObject } from '../../../src/engine/api/types';
import { costErrorMessage, TotalCost } from '../../../src/engine/apiserver/customresources/cel-cost';
import { schemaRuleErrors } from '../../../src/engine/apiserver/customresources/cel-rules';
import { structuralOf } from '../../../src/engine/apiserver/customresources/structural';

const ROOT = Path.root('spec').child('validation').child('openAPIV3Schema');
const S = 'spec.validation.openAPIV3Schema';

const doubleNested = (value: JsonObject): JsonObject => ({
  type: 'object',
  properties: { value: { type: 'array', ...value, 'x-kubernetes-validations': [{ rule: 'self.all(x, x.all(y, x[y].key == x[y].key))' }] } },
});
const keyed = (key: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: 'object',
  ...extra,
  additionalProperties: { type: 'object', required: ['key'], properties: { key } },
});

const cases: { name: string; schema: JsonObject; forbidden: string[] }[] = [
  {
    name: 'forbid double-nested rule with no limit set',
    schema: doubleNested({ items: keyed({ type: 'string' }) }),
    forbidden: [`${S}.properties[value].x-kubernetes-validations[0].rule`, `${S}.properties[value].x-kubernetes-validations[0].rule`, S],
  },
  {
    name: 'forbid double-nested rule with one limit set',
    schema: doubleNested({ items: keyed({ type: 'string', maxLength: 10 }) }),
    forbidden: [`${S}.properties[value].x-kubernetes-validations[0].rule`, `${S}.properties[value].x-kubernetes-validations[0].rule`, S],
  },
  { name: 'allow double-nested rule with three limits set', schema: doubleNested({ maxItems: 10, items: keyed({ type: 'string', maxLength: 10 }, { maxProperties: 10 }) }), forbidden: [] },
  { name: 'allow double-nested rule with one limit set on outermost array', schema: doubleNested({ maxItems: 4, items: keyed({ type: 'number' }) }), forbidden: [] },
  { name: 'check for cardinality of 1 under root object', schema: { type: 'object', properties: { value: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 1024' }] } } }, forbidden: [] },
  {
    name: 'forbid validation rules where cost total exceeds total limit',
    schema: {
      type: 'object',
      properties: {
        list: { type: 'array', maxItems: 100000, items: { type: 'string', maxLength: 5000, 'x-kubernetes-validations': [{ rule: "self.contains('keyword')" }] } },
        map: { type: 'object', maxProperties: 1000, additionalProperties: { type: 'string', maxLength: 5000, 'x-kubernetes-validations': [{ rule: "self.contains('keyword')" }] } },
        field: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 50 && self < 100' }] },
      },
    },
    forbidden: [
      `${S}.properties[list].items.x-kubernetes-validations[0].rule`,
      `${S}.properties[list].items.x-kubernetes-validations[0].rule`,
      `${S}.properties[map].additionalProperties.x-kubernetes-validations[0].rule`,
      S,
    ],
  },
  {
    name: 'x-kubernetes-validations rule invalidated by messageExpression exceeding per-expression estimated cost limit',
    schema: { type: 'object', properties: { f: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'true', messageExpression: 'self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]' }] } } },
    forbidden: [`${S}.properties[f].x-kubernetes-validations[0].messageExpression`],
  },
  {
    name: 'x-kubernetes-validations rule with lowerAscii check should be within estimated cost limit',
    schema: { type: 'object', properties: { f: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists_one(y, x.lowerAscii() == y.lowerAscii()))' }] } } },
    forbidden: [],
  },
  {
    name: 'x-kubernetes-validations rule referencing metadata.name and generateName is within estimated cost limit',
    schema: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.metadata.name.contains(self.metadata.name) && self.metadata.generateName.contains(self.metadata.generateName)' }] },
    forbidden: [],
  },
  {
    name: 'x-kubernetes-validations rule invalidated by messageExpression exceeding per-CRD estimated cost limit',
    schema: { type: 'object', properties: { f: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'true', messageExpression: 'string(self[0]) + string(self[1]) + string(self[2])' }] } } },
    forbidden: [S, `${S}.properties[f].x-kubernetes-validations[0].messageExpression`, `${S}.properties[f].x-kubernetes-validations[0].messageExpression`],
  },
];

describe('CRD validation: CEL cost limits (apiextensions validation_test.go)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const errs = schemaRuleErrors(structuralOf(c.schema), ROOT);
      assert.deepEqual(errs.filter((e) => e.type !== 'FieldValueForbidden'), [], 'no other errors');
      assert.deepEqual(errs.map((e) => e.field).sort(), [...c.forbidden].sort());
    });
  }

  it('words the errors as kube-apiserver does', () => {
    const errs = schemaRuleErrors(structuralOf(cases[0]!.schema), ROOT);
    assert.deepEqual(
      errs.map((e) => `${e.field}: ${e.detail}`),
      [
        `${S}.properties[value].x-kubernetes-validations[0].rule: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
        `${S}.properties[value].x-kubernetes-validations[0].rule: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
        `${S}: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      ],
    );
  });

  it('names the factor: %.1fx from 1.5, %fx below', () => {
    // 100 unbounded strings, each costing 3 + 1 + ceil(3145726 * 0.1) for contains(): 31,457,702
    const schema: JsonObject = { type: 'object', properties: { tags: { type: 'array', maxItems: 100, items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('a'))" }] } } };
    const errs = schemaRuleErrors(structuralOf(schema), ROOT);
    assert.equal(errs.length, 1);
    assert.equal(errs[0]!.detail, 'estimated rule cost exceeds budget by factor of 3.1x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)');
    assert.match(costErrorMessage('estimated rule cost', 12_000_000n, 10_000_000n), /by factor of 1\.200000x /);
  });
});

describe('TestPerCRDEstimatedCost', () => {
  const MAX = (1n << 64n) - 1n;
  const tests: { name: string; costs: bigint[]; expensive: bigint[]; total: bigint }[] = [
    { name: 'no costs', costs: [], expensive: [], total: 0n },
    { name: 'one cost', costs: [1000000n], expensive: [1000000n], total: 1000000n },
    { name: 'one cost, ignored', costs: [900000n], expensive: [], total: 900000n },
    { name: '2 costs', costs: [5000000n, 25000000n], expensive: [25000000n, 5000000n], total: 30000000n },
    { name: '3 costs, one ignored', costs: [5000000n, 25000000n, 900000n], expensive: [25000000n, 5000000n], total: 30900000n },
    { name: '4 costs', costs: [16000000n, 50000000n, 34000000n, 50000000n], expensive: [50000000n, 50000000n, 34000000n, 16000000n], total: 150000000n },
    { name: '5 costs, one trimmed, one ignored', costs: [16000000n, 50000000n, 900000n, 34000000n, 50000000n, 50000001n], expensive: [50000001n, 50000000n, 50000000n, 34000000n], total: 200900001n },
    { name: 'costs do not overflow', costs: [MAX / 2n, MAX / 2n, 1n, 10n, 100n, 1000n], expensive: [MAX / 2n, MAX / 2n], total: MAX },
  ];
  for (const t of tests) {
    it(t.name, () => {
      const c = new TotalCost();
      for (const x of t.costs) c.observe(ROOT, x);
      assert.deepEqual(c.mostExpensive.map((e) => e.cost), t.expensive);
      assert.equal(c.total, t.total);
    });
  }
});
