/**
 * In-process bodies decode without their JSON text (decodeObjectBody); the answer must be the
 * one the text gives (decodeRequestBody of JSON.stringify): the same object, warnings, strict
 * findings and errors, over the conformance corpus and values JSON treats specially.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseApiVersion, type GroupVersionKind } from '../../../src/engine/api/types';
import { decodeObjectBody, decodeRequestBody, type FieldValidation } from '../../../src/engine/apiserver/decode';
import { MAX_DEPTH } from '../../../src/engine/apiserver/decode/limits';

const casesDir = path.join(__dirname, '../../conformance/cases');
const modes: Array<FieldValidation | ''> = ['Strict', 'Warn', 'Ignore', ''];

function viaText(object: unknown, expected: GroupVersionKind, fieldValidation: FieldValidation | ''): unknown {
  let body: string;
  try {
    body = JSON.stringify(object);
  } catch (e) {
    return { threw: String(e) };
  }
  try {
    return decodeRequestBody({ body, contentType: 'application/json', expected, fieldValidation });
  } catch (e) {
    return { threw: String(e) };
  }
}

function viaObject(object: unknown, expected: GroupVersionKind, fieldValidation: FieldValidation | ''): unknown {
  try {
    return decodeObjectBody({ object, expected, fieldValidation });
  } catch (e) {
    return { threw: String(e) };
  }
}

function same(object: unknown, expected: GroupVersionKind, only: ReadonlyArray<FieldValidation | ''> = modes): void {
  for (const mode of only) assert.deepStrictEqual(viaObject(object, expected, mode), viaText(object, expected, mode), `fieldValidation=${mode}`);
}

function corpusObjects(): unknown[] {
  const out: unknown[] = [];
  for (const file of fs.readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort()) {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(casesDir, file), 'utf8'));
    for (const c of Array.isArray(parsed) ? parsed : [parsed]) {
      out.push(c.object);
      if (c.old) out.push(c.old);
    }
  }
  return out;
}

const gvkOf = (o: unknown): GroupVersionKind => {
  const obj = (o ?? {}) as { apiVersion?: unknown; kind?: unknown };
  const { group, version } = parseApiVersion(typeof obj.apiVersion === 'string' ? obj.apiVersion : 'v1');
  return { group, version, kind: typeof obj.kind === 'string' ? obj.kind : 'Pod' };
};

describe('perf: decoding in-process bodies without their text', () => {
  it('decodes every corpus object as its JSON text decodes', () => {
    const objects = corpusObjects();
    assert.ok(objects.length > 900);
    for (const o of objects) same(o, gvkOf(o));
  });

  it('decodes corpus objects with unknown fields, wrong types and special values as their text does', () => {
    for (const o of corpusObjects()) {
      const obj = o as Record<string, unknown>;
      const spec = typeof obj.spec === 'object' && obj.spec !== null ? (obj.spec as Record<string, unknown>) : {};
      const strictAndWarn = ['Strict', 'Warn'] as const;
      same({ ...obj, bogus: [1, undefined, () => 1], metadata: { ...(obj.metadata as object), extra: 'x', skipped: undefined } }, gvkOf(o), strictAndWarn);
      same({ ...obj, spec: { ...spec, replicas: '3', zzz: { a: -0, b: NaN, c: Infinity, d: 1e21, e: 1.5, f: 2 ** 53 } } }, gvkOf(o), strictAndWarn);
      same({ ...obj, spec: { ...spec, template: 7 } }, gvkOf(o), strictAndWarn);
    }
  });

  it('treats values JSON writes specially exactly as the text would', () => {
    const pod = { group: '', version: 'v1', kind: 'Pod' };
    const base = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
    const cases: unknown[] = [
      { ...base, metadata: { name: 'lone \ud800 surrogate', labels: { 'a\udc00': 'b' } } },
      { ...base, metadata: { name: 'pair \ud83d\ude00' } },
      { ...base, metadata: { name: 'p', creationTimestamp: new Date(0) } },
      { ...base, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: -0 }] }] } },
      { ...base, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 1.5, memory: 1e3 } } }] } },
      { ...base, spec: { activeDeadlineSeconds: 2 ** 64, priority: 3.5 } },
      { ...base, spec: { containers: [undefined, null, Symbol('s')] } },
      { ...base, spec: Object.assign(Object.create(null) as object, { hostname: 'h' }) },
      { ...base, spec: new (class Spec { hostname = 'h'; })() },
      { ...base, spec: { toJSON: () => ({ hostname: 'from toJSON' }) } },
      { ...base, metadata: { name: 'p', annotations: { big: 'x'.repeat(4 * 1024 * 1024) } } },
      { ...base, metadata: { name: 'p', annotations: { big: 'é'.repeat(600 * 1024) } } },
      { apiVersion: 5, kind: 'Pod' },
      { apiVersion: 'a/b/c', kind: 'Pod' },
      { kind: 'Deployment', apiVersion: 'apps/v1' },
      { KIND: 'Pod', APIVERSION: 'v1', metadata: { name: 'p' } },
      'a string',
      42,
      null,
      [base],
      {},
    ];
    for (const c of cases) same(c, pod);
    const crd = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' };
    const schema = { type: 'object', minimum: -0, maximum: 1e300, default: { z: -0, n: NaN } };
    same({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'a.b.c' }, spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] } }, crd);
  });

  it('leaves nesting at the depth limit to the text path, which reports it', () => {
    const pod = { group: '', version: 'v1', kind: 'Pod' };
    for (const depth of [MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1]) {
      let deep: unknown = 'leaf';
      for (let i = 0; i < depth - 2; i++) deep = { x: deep };
      same({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', annotations: {} }, spec: { overhead: deep } }, pod);
      same({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, extra: deep }, pod);
    }
  });

  it('fails like JSON.stringify on bigints and cycles', () => {
    const pod = { group: '', version: 'v1', kind: 'Pod' };
    const cyclic: Record<string, unknown> = { apiVersion: 'v1', kind: 'Pod' };
    cyclic.spec = cyclic;
    same(cyclic, pod);
    same({ apiVersion: 'v1', kind: 'Pod', spec: { priority: 10n } }, pod);
  });
});
