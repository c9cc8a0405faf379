import assert from 'node:assert/strict';
import type { SchemaNode } from '../../../src/engine/api/openapi/types';
import type { JsonObject, JsonValue } from '../../../src/engine/api/types';
import { ConflictsError } from '../../../src/engine/apiserver/apply/conflict';
import type { PathElement } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { field, index, keyElement, pathString, valueElement } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { FieldSet } from '../../../src/engine/apiserver/apply/fieldpath/set';
import type { VersionedSet } from '../../../src/engine/apiserver/apply/managed';
import { validate } from '../../../src/engine/apiserver/apply/typed/validate';
import { applyConfiguration, updateOwnership } from '../../../src/engine/apiserver/apply/updater';
import { smdSchema } from './smd-schema';
import fixtures from './fixtures/smd-merge.json';

type PE = { field?: string; index?: number; key?: Array<[string, JsonValue]>; value?: JsonValue };
interface Op {
  op: 'apply' | 'forceApply' | 'update';
  manager: string;
  apiVersion: string;
  object: JsonValue;
  conflicts?: Array<{ manager: string; path: PE[] }>;
}
interface Case {
  name: string;
  schema: string;
  ops: Op[];
  object?: JsonValue;
  managed?: Record<string, { paths: PE[][]; apiVersion: string }>;
  resetFields?: { apiVersion: string; paths: PE[][] };
  expectError?: boolean;
}

const pe = (e: PE): PathElement => {
  if (e.field !== undefined) return field(e.field);
  if (e.index !== undefined) return index(e.index);
  if (e.key !== undefined) return keyElement(e.key);
  return valueElement(e.value ?? null);
};
const setOf = (paths: PE[][]): FieldSet => FieldSet.of(...paths.map((p) => p.map(pe)));
const show = (s: FieldSet): string[] => s.paths().map(pathString);

function schemaFor(name: string, apiVersion: string): SchemaNode {
  const s = (fixtures.schemas as Record<string, { yaml?: string; root?: string; deduced?: boolean }>)[name]!;
  return s.deduced ? {} : smdSchema(s.yaml!, s.root ?? apiVersion);
}

function run(c: Case): void {
  let live: JsonValue = null;
  let managers = new Map<string, VersionedSet>();
  for (const op of c.ops) {
    const schema = schemaFor(c.schema, op.apiVersion);
    const resetFields = c.resetFields && c.resetFields.apiVersion === op.apiVersion ? setOf(c.resetFields.paths) : undefined;
    const ctx = { schema, apiVersion: op.apiVersion, resetFields };
    const errs = validate(op.object, schema, op.op === 'update');
    if (errs.length > 0) throw new Error(errs.map(String).join('; '));
    const next = new Map(managers);
    if (op.op === 'update') {
      updateOwnership(ctx, live, op.object, next, op.manager);
      live = op.object;
      managers = next;
      continue;
    }
    try {
      const out = applyConfiguration(ctx, live, op.object, next, op.manager, op.op === 'forceApply');
      if (op.conflicts) assert.fail(`expected conflicts ${JSON.stringify(op.conflicts)}`);
      if (out !== undefined) live = out;
      managers = next;
    } catch (err) {
      if (!(err instanceof ConflictsError) || !op.conflicts) throw err;
      const got = err.conflicts.map((x) => `${x.manager} ${pathString(x.path)}`).sort();
      const want = op.conflicts.map((x) => `${x.manager} ${pathString(x.path.map(pe))}`).sort();
      assert.deepStrictEqual(got, want);
    }
  }
  if (c.object !== undefined) assert.deepStrictEqual(live, c.object);
  if (c.managed) {
    const got: Record<string, { paths: string[]; apiVersion: string }> = {};
    for (const [m, vs] of managers) got[m] = { paths: show(vs.set), apiVersion: vs.apiVersion };
    const want: Record<string, { paths: string[]; apiVersion: string }> = {};
    for (const [m, vs] of Object.entries(c.managed)) want[m] = { paths: show(setOf(vs.paths)), apiVersion: vs.apiVersion };
    assert.deepStrictEqual(got, want);
  }
  for (const [m, vs] of managers) assert.ok(!vs.set.empty(), `empty set for ${m}`);
}

describe('server-side apply merge: structured-merge-diff merge tables', () => {
  for (const c of fixtures.cases as unknown as Case[]) {
    it(c.name, () => {
      if (c.expectError) assert.throws(() => run(c));
      else run(c);
    });
  }
});

export type { JsonObject };
