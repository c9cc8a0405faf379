import assert from 'node:assert/strict';
import type { JsonValue } from '../../../src/engine/api/types';
import { StatusError } from '../../../src/engine/api/status';
import { applyMergePatch, patchObject } from '../../../src/engine/apiserver/patch';

// evanphx/json-patch merge_test.go: RFC 7386 appendix A and the library's own cases.
const cases: Array<[JsonValue, JsonValue, JsonValue]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  [{ title: null }, { title: { foo: 'bar' } }, { title: { foo: 'bar' } }],
  [{ a: [{ b: 'c' }] }, { a: [null, 1] }, { a: [null, 1] }],
  [{ a: ['b'] }, { a: ['b', null] }, { a: ['b', null] }],
  [{ a: [] }, { a: ['b', null, null, 'a'] }, { a: ['b', null, null, 'a'] }],
  [{ person: { title: 'hello', age: 18 } }, { person: { title: 'goodbye' } }, { person: { title: 'goodbye', age: 18 } }],
  [{ a: 1, b: 1 }, { a: 2 }, { a: 2, b: 1 }],
  [{ array: ['one', 'two'] }, { array: [] }, { array: [] }],
];

describe('JSON merge patch: RFC 7386 and evanphx/json-patch cases', () => {
  cases.forEach(([doc, patch, want], i) => {
    it(`case ${i}: ${JSON.stringify(patch)}`, () => assert.deepStrictEqual(applyMergePatch(doc, patch), want));
  });

  it('rejects null and scalar patches', () => {
    assert.throws(() => applyMergePatch({ a: 'foo' }, null), { message: 'Invalid JSON Patch' });
    assert.throws(() => applyMergePatch({ a: 'foo' }, 'bar'), { message: 'Invalid JSON Patch' });
  });
});

describe('JSON merge patch: as the patch handler answers', () => {
  const current = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: '1' } } };
  const statusOf = (patch: JsonValue, fieldValidation?: 'Strict'): StatusError => {
    try {
      patchObject({ type: 'merge', current, patch, fieldValidation });
    } catch (err) {
      return err as StatusError;
    }
    assert.fail('patch applied');
  };

  it('answers 400 Invalid JSON Patch for null', () => {
    const err = statusOf(null);
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    assert.equal(err.status.message, 'Invalid JSON Patch');
  });

  it('rejects a non-object body when decoding strictly', () => {
    assert.equal(statusOf(['x'], 'Strict').status.message, 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
  });

  it('removes a label', () => {
    assert.deepStrictEqual(patchObject({ type: 'merge', current, patch: { metadata: { labels: { a: null, b: '2' } } } }), {
      ...current,
      metadata: { name: 'x', labels: { b: '2' } },
    });
  });
});
