import assert from 'node:assert/strict';
import type { JsonValue } from '../../../src/engine/api/types';
import { StatusError } from '../../../src/engine/api/status';
import { applyJsonPatch, decodeJsonPatch, patchObject } from '../../../src/engine/apiserver/patch';
import fixtures from './fixtures/json-patch.json';

const apply = (doc: JsonValue, patch: JsonValue): JsonValue => applyJsonPatch(doc, decodeJsonPatch(patch));

function failure(doc: JsonValue, patch: JsonValue): string {
  try {
    apply(doc, patch);
  } catch (err) {
    return (err as Error).message;
  }
  return '<applied>';
}

describe('JSON patch: evanphx/json-patch v4 tables', () => {
  fixtures.cases.forEach((c, i) => {
    it(`case ${i}: ${JSON.stringify(c.patch)}`, () => assert.deepStrictEqual(apply(c.doc, c.patch as JsonValue), c.result));
  });
  fixtures.mutation.forEach((c, i) => {
    it(`mutation ${i} changes the document`, () => assert.notDeepStrictEqual(apply(c.doc, c.patch as JsonValue), c.doc));
  });
  fixtures.bad.forEach((c, i) => {
    it(`bad case ${i}: ${JSON.stringify(c.patch)}`, () => assert.throws(() => apply(c.doc, c.patch as JsonValue)));
  });
  fixtures.tests.forEach((c, i) => {
    it(`test op ${i}`, () => {
      if (c.ok) assert.doesNotThrow(() => apply(c.doc, c.patch as JsonValue));
      else assert.equal(failure(c.doc, c.patch as JsonValue), `testing value ${c.failedPath} failed: test failed`);
    });
  });
});

describe('JSON patch: error texts', () => {
  const table: Array<[string, JsonValue, JsonValue, string]> = [
    ['add below a missing object', { foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }], 'add operation does not apply: doc is missing path: "/baz/bat": missing value'],
    ['remove a missing key', { a: { b: { d: 1 } } }, [{ op: 'remove', path: '/a/b/c' }], "error in remove for path: '/a/b/c': Unable to remove nonexistent key: c: missing value"],
    ['remove past the end', { a: { b: [1] } }, [{ op: 'remove', path: '/a/b/1' }], "error in remove for path: '/a/b/1': Unable to access invalid index: 1: invalid index referenced"],
    ['move from a missing key', { a: { b: { d: 1 } } }, [{ op: 'move', from: '/a/b/c', path: '/a/b/e' }], "error in move for path: 'c': Unable to remove nonexistent key: c: missing value"],
    ['add without a path', { foo: 'bar' }, [{ op: 'add', pathz: '/baz', value: 'qux' }], 'add operation failed to decode path: missing value'],
    ['add at the root', { foo: 'bar' }, [{ op: 'add', path: '', value: 'qux' }], 'add operation does not apply: doc is missing path: "": missing value'],
    ['replace past the end', { foo: ['bar', 'baz'] }, [{ op: 'replace', path: '/foo/2', value: 'bum' }], 'replace operation does not apply: doc is missing key: /foo/2: missing value'],
    ['replace below a missing object', { name: { foo: 'bat' } }, [{ op: 'replace', path: '/foo/bar', value: 'baz' }], 'replace operation does not apply: doc is missing path: /foo/bar: missing value'],
    ['add before the start', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/-4', value: 'bum' }], "error in add for path: '/foo/-4': Unable to access invalid index: -4: invalid index referenced"],
    ['remove "-"', { foo: [] }, [{ op: 'remove', path: '/foo/-' }], `error in remove for path: '/foo/-': strconv.Atoi: parsing "-": invalid syntax`],
    ['add at a non-numeric index', { foo: [] }, [{ op: 'add', path: '/foo/x', value: 1 }], `error in add for path: '/foo/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`],
    ['null op', {}, [{ op: null, path: '' }], 'Unexpected kind: unknown'],
    ['unknown op', {}, [{ op: 'merge', path: '/a' }], 'Unexpected kind: merge'],
    ['null path', {}, [{ op: 'add', path: null }], 'add operation failed to decode path: missing value'],
    ['replace without path', {}, [{ op: 'replace', value: 1 }], 'replace operation failed to decode path: operation missing path field: missing value'],
    ['replace with a numeric path', {}, [{ op: 'replace', path: 5, value: 1 }], 'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string'],
    ['replace the root with a scalar', {}, [{ op: 'replace', path: '', value: 1 }], 'replace operation value must be object or array: %!w(<nil>)'],
    ['copy without from', {}, [{ op: 'copy', from: null }], 'copy operation failed to decode from: operation, missing from field: missing value'],
    ['copy past the end', { foo: ['bar'] }, [{ op: 'copy', path: '/foo/2', from: '/foo/0' }], 'error while adding value during copy: Unable to access invalid index: 2: invalid index referenced'],
    ['copy to a huge index', { foo: ['bar'] }, [{ op: 'copy', path: '/foo/6666666666', from: '/' }], 'error while adding value during copy: Unable to access invalid index: 6666666666: invalid index referenced'],
    ['move past the end', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/4' }], "error in move for path: '/foo/4': Unable to access invalid index: 4: invalid index referenced"],
    ['test a missing path', { a: 1 }, [{ op: 'test', path: '/b/c', value: 1 }], 'test operation does not apply: is missing path: /b/c: missing value'],
    ['test the whole document', { a: 1 }, [{ op: 'test', path: '', value: { a: 2 } }], 'testing value  failed: test failed'],
  ];
  for (const [name, doc, patch, text] of table) it(name, () => assert.equal(failure(doc, patch), text));

  it('keeps the quirks users rely on', () => {
    assert.deepStrictEqual(apply({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]), { a: 1, b: 2 });
    assert.deepStrictEqual(apply({ a: [1, 2] }, [{ op: 'remove', path: '/a/-1' }]), { a: [1] });
    assert.deepStrictEqual(apply({ a: 1 }, [{ op: 'add', path: 'x/b', value: 2 }]), { a: 1, b: 2 });
    assert.deepStrictEqual(apply({ a: 1 }, [{ op: 'add', path: '/b' }]), { a: 1, b: null });
    assert.deepStrictEqual(apply({ a: 1 }, [{ op: 'copy', from: '/zz', path: '/c' }]), { a: 1, c: null });
  });

  it('does not touch its input', () => {
    const doc = Object.freeze({ a: Object.freeze([1, 2]) }) as unknown as JsonValue;
    assert.deepStrictEqual(apply(doc, [{ op: 'add', path: '/a/0', value: 0 }]), { a: [0, 1, 2] });
  });

  it('rejects bodies that are not a list of operations', () => {
    assert.throws(() => decodeJsonPatch({ op: 'add' }), { message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' });
    assert.throws(() => decodeJsonPatch(['add']), { message: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation' });
    assert.deepStrictEqual(decodeJsonPatch(null), []);
  });
});

describe('JSON patch: as the patch handler answers', () => {
  const current = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } };
  const statusOf = (patch: JsonValue, fieldValidation?: 'Strict' | 'Ignore'): StatusError => {
    try {
      patchObject({ type: 'json', current, patch, fieldValidation });
    } catch (err) {
      return err as StatusError;
    }
    assert.fail('patch applied');
  };

  it('hides the library text behind a generic 422', () => {
    const err = statusOf([{ op: 'test', path: '/data/a', value: '2' }]);
    assert.ok(err instanceof StatusError);
    assert.deepStrictEqual(err.status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
  });

  it('rejects undecodable bodies with 400', () => {
    assert.equal(statusOf({ op: 'add' }).status.message, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    assert.equal(statusOf({ op: 'add' }).code, 400);
    assert.equal(statusOf({ op: 'add' }, 'Strict').status.message, 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    assert.equal(
      statusOf([{ op: 'add', path: 3 }], 'Strict').status.message,
      'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string',
    );
  });

  it('limits the number of operations', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' }));
    const err = statusOf(ops);
    assert.equal(err.code, 413);
    assert.equal(err.status.message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
  });

  it('applies', () => {
    const out = patchObject({ type: 'json', current, patch: [{ op: 'add', path: '/data/b', value: '2' }] });
    assert.deepStrictEqual(out, { ...current, data: { a: '1', b: '2' } });
  });
});
