/**
 * JSON Patch (RFC 6902) as kube-apiserver applies it: gopkg.in/evanphx/json-patch.v4, quirks
 * included, because users see its behaviour: negative array indices count from the end,
 * "replace" of a missing object key adds it, "test" of a missing path against null passes,
 * a path without a leading slash addresses the root, and null values count as missing
 * containers. Errors carry the library's texts; the handler turns them into a Status.
 */
import type { JsonObject, JsonValue } from '../../api/types';
import { isObject } from '../../api/types';
import { atoi as goAtoi } from '../../api/strconv';
import { cloneJson, jsonEqual, jsonTypeWord } from './govalue';
import { own, setOwn } from '../../api/own';
import { fail, ok, type Result } from '../../api/result';

/** One decoded operation; null for a JSON null element of the patch array. */
export type JsonPatchOperation = JsonObject | null;

/** A failure while applying: the text evanphx/json-patch returns. */
export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

/** A patch body that does not decode into a list of operations (encoding/json's text). */
export class JsonPatchDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchDecodeError';
  }
}

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';
const TEST_FAILED = 'test failed';

/** jsonpatch.DecodePatch: the body must be a JSON array of objects (null decodes to no operations). */
export function decodeJsonPatch(patch: JsonValue): JsonPatchOperation[] {
  if (patch === null) return [];
  if (!Array.isArray(patch)) throw new JsonPatchDecodeError(`json: cannot unmarshal ${jsonTypeWord(patch)} into Go value of type jsonpatch.Patch`);
  const ops: JsonPatchOperation[] = [];
  for (const op of patch) {
    if (op !== null && !isObject(op)) throw new JsonPatchDecodeError(`json: cannot unmarshal ${jsonTypeWord(op)} into Go value of type jsonpatch.Operation`);
    ops.push(op);
  }
  return ops;
}

/**
 * With fieldValidation Strict or Warn the handler first decodes the body into its own
 * {op, path, from string; value any} list; the first type error is rejected with its text.
 */
export function jsonPatchOpTypeError(patch: JsonValue): string | undefined {
  if (patch === null) return undefined;
  if (!Array.isArray(patch)) return `json: cannot unmarshal ${jsonTypeWord(patch)} into Go value of type []handlers.jsonPatchOp`;
  for (const op of patch) {
    if (op === null) continue;
    if (!isObject(op)) return `json: cannot unmarshal ${jsonTypeWord(op)} into Go value of type handlers.jsonPatchOp`;
    for (const [field, v] of Object.entries(op)) {
      if ((field === 'op' || field === 'path' || field === 'from') && v !== undefined && v !== null && typeof v !== 'string') {
        return `json: cannot unmarshal ${jsonTypeWord(v)} into Go struct field jsonPatchOp.${field} of type string`;
      }
    }
  }
  return undefined;
}

type Container = JsonObject | JsonValue[];
type Located = { container: Container; key: string };
type Field = Result<string>;

/** Applies the operations in order to a copy of doc. */
export function applyJsonPatch(doc: JsonValue, ops: readonly JsonPatchOperation[]): JsonValue {
  const state = { root: cloneJson(doc) };
  for (const op of ops) {
    const kind = opKind(op);
    switch (kind) {
      case 'add':
        add(state.root, op);
        break;
      case 'remove':
        remove(state.root, op);
        break;
      case 'replace':
        replace(state, op);
        break;
      case 'move':
        move(state.root, op);
        break;
      case 'test':
        test(state.root, op);
        break;
      case 'copy':
        copy(state.root, op);
        break;
      default:
        throw new JsonPatchError(`Unexpected kind: ${kind}`);
    }
  }
  return state.root;
}

function opKind(op: JsonPatchOperation): string {
  const v = op?.op;
  return typeof v === 'string' ? v : 'unknown';
}

function stringField(op: JsonPatchOperation, name: 'path' | 'from', missing: string): Field {
  const v = op?.[name];
  if (v === undefined || v === null) return fail(missing);
  if (typeof v !== 'string') return fail(`json: cannot unmarshal ${jsonTypeWord(v)} into Go value of type string`);
  return ok(v);
}

const pathOf = (op: JsonPatchOperation): Field => stringField(op, 'path', `operation missing path field: ${MISSING}`);
const fromOf = (op: JsonPatchOperation): Field => stringField(op, 'from', `operation, missing from field: ${MISSING}`);

/** The value to insert; an absent "value" inserts null, as a nil node marshals. */
function valueOf(op: JsonPatchOperation): JsonValue {
  const v = op?.value;
  return v === undefined ? null : cloneJson(v);
}

function decodeKey(k: string): string {
  return k.replace(/~1|~0/g, (m) => (m === '~1' ? '/' : '~'));
}

function isContainer(v: JsonValue | undefined): v is Container {
  return typeof v === 'object' && v !== null;
}

/** findObject: the container holding the last segment; everything before the first "/" is ignored. */
function findObject(root: JsonValue, path: string): Located | undefined {
  const split = path.split('/');
  if (split.length < 2 || !isContainer(root)) return undefined;
  let doc: Container = root;
  for (const part of split.slice(1, -1)) {
    const next = get(doc, decodeKey(part));
    if (!next.ok || !isContainer(next.value)) return undefined;
    doc = next.value;
  }
  return { container: doc, key: decodeKey(split[split.length - 1]!) };
}

type Got = Result<JsonValue | undefined>;

function invalidIndex(idx: number): string {
  return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
}

function get(c: Container, key: string): Got {
  if (!Array.isArray(c)) return ok(own(c, key));
  const parsed = goAtoi(key);
  if (!parsed.ok) return parsed;
  let idx = parsed.value;
  if (idx < 0) {
    if (idx < -c.length) return fail(invalidIndex(idx));
    idx += c.length;
  }
  if (idx >= c.length) return fail(invalidIndex(idx));
  return ok(c[idx]);
}

/** Replaces an existing element (replace checks existence first). */
function set(c: Container, key: string, val: JsonValue): string | undefined {
  if (!Array.isArray(c)) {
    setOwn(c, key, val);
    return undefined;
  }
  const parsed = goAtoi(key);
  if (!parsed.ok) return parsed.error;
  let idx = parsed.value;
  if (idx < 0) {
    if (idx < -c.length) return invalidIndex(idx);
    idx += c.length;
  }
  c[idx] = val;
  return undefined;
}

function insert(c: Container, key: string, val: JsonValue): string | undefined {
  if (!Array.isArray(c)) {
    setOwn(c, key, val);
    return undefined;
  }
  if (key === '-') {
    c.push(val);
    return undefined;
  }
  const parsed = goAtoi(key);
  if (!parsed.ok) return `value was not a proper array index: '${key}': ${parsed.error}`;
  let idx = parsed.value;
  const size = c.length + 1;
  if (idx >= size) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) return invalidIndex(idx);
    idx += size;
  }
  c.splice(idx, 0, val);
  return undefined;
}

function del(c: Container, key: string): string | undefined {
  if (!Array.isArray(c)) {
    if (!Object.prototype.hasOwnProperty.call(c, key) || own(c, key) === undefined) return `Unable to remove nonexistent key: ${key}: ${MISSING}`;
    delete c[key];
    return undefined;
  }
  const parsed = goAtoi(key);
  if (!parsed.ok) return parsed.error;
  let idx = parsed.value;
  if (idx >= c.length) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -c.length) return invalidIndex(idx);
    idx += c.length;
  }
  c.splice(idx, 1);
  return undefined;
}

function add(root: JsonValue, op: JsonPatchOperation): void {
  const path = pathOf(op);
  if (!path.ok) throw new JsonPatchError(`add operation failed to decode path: ${MISSING}`);
  const at = findObject(root, path.value);
  if (!at) throw new JsonPatchError(`add operation does not apply: doc is missing path: "${path.value}": ${MISSING}`);
  const err = insert(at.container, at.key, valueOf(op));
  if (err) throw new JsonPatchError(`error in add for path: '${path.value}': ${err}`);
}

function remove(root: JsonValue, op: JsonPatchOperation): void {
  const path = pathOf(op);
  if (!path.ok) throw new JsonPatchError(`remove operation failed to decode path: ${MISSING}`);
  const at = findObject(root, path.value);
  if (!at) throw new JsonPatchError(`remove operation does not apply: doc is missing path: "${path.value}": ${MISSING}`);
  const err = del(at.container, at.key);
  if (err) throw new JsonPatchError(`error in remove for path: '${path.value}': ${err}`);
}

function replace(state: { root: JsonValue }, op: JsonPatchOperation): void {
  const path = pathOf(op);
  if (!path.ok) throw new JsonPatchError(`replace operation failed to decode path: ${path.error}`);
  if (path.value === '') {
    const val = valueOf(op);
    // The library wraps a nil error here, which fmt prints as %!w(<nil>).
    if (!isContainer(val)) throw new JsonPatchError('replace operation value must be object or array: %!w(<nil>)');
    state.root = val;
    return;
  }
  const at = findObject(state.root, path.value);
  if (!at) throw new JsonPatchError(`replace operation does not apply: doc is missing path: ${path.value}: ${MISSING}`);
  if (!get(at.container, at.key).ok) throw new JsonPatchError(`replace operation does not apply: doc is missing key: ${path.value}: ${MISSING}`);
  const err = set(at.container, at.key, valueOf(op));
  if (err) throw new JsonPatchError(`error in remove for path: '${path.value}': ${err}`);
}

function move(root: JsonValue, op: JsonPatchOperation): void {
  const from = fromOf(op);
  if (!from.ok) throw new JsonPatchError(`move operation failed to decode from: ${from.error}`);
  const src = findObject(root, from.value);
  if (!src) throw new JsonPatchError(`move operation does not apply: doc is missing from path: ${from.value}: ${MISSING}`);
  const val = get(src.container, src.key);
  if (!val.ok) throw new JsonPatchError(`error in move for path: '${src.key}': ${val.error}`);
  const removeErr = del(src.container, src.key);
  if (removeErr) throw new JsonPatchError(`error in move for path: '${src.key}': ${removeErr}`);
  const path = pathOf(op);
  if (!path.ok) throw new JsonPatchError(`move operation failed to decode path: ${path.error}`);
  const dst = findObject(root, path.value);
  if (!dst) throw new JsonPatchError(`move operation does not apply: doc is missing destination path: ${path.value}: ${MISSING}`);
  const err = insert(dst.container, dst.key, val.value ?? null);
  if (err) throw new JsonPatchError(`error in move for path: '${path.value}': ${err}`);
}

function test(root: JsonValue, op: JsonPatchOperation): void {
  const path = pathOf(op);
  if (!path.ok) throw new JsonPatchError(`test operation failed to decode path: ${path.error}`);
  const failed = (): JsonPatchError => new JsonPatchError(`testing value ${path.value} failed: ${TEST_FAILED}`);
  const expected = op?.value;
  if (path.value === '') {
    if (expected === undefined || !jsonEqual(root, expected)) throw failed();
    return;
  }
  const at = findObject(root, path.value);
  if (!at) throw new JsonPatchError(`test operation does not apply: is missing path: ${path.value}: ${MISSING}`);
  const val = get(at.container, at.key);
  if (!val.ok) throw new JsonPatchError(`error in test for path: '${path.value}': ${val.error}`);
  // A missing member and an explicit null are both a nil node to the library.
  if (val.value === undefined || val.value === null) {
    if (expected === undefined || expected === null) return;
    throw failed();
  }
  if (expected === undefined || !jsonEqual(val.value, expected)) throw failed();
}

function copy(root: JsonValue, op: JsonPatchOperation): void {
  const from = fromOf(op);
  if (!from.ok) throw new JsonPatchError(`copy operation failed to decode from: ${from.error}`);
  const src = findObject(root, from.value);
  if (!src) throw new JsonPatchError(`copy operation does not apply: doc is missing from path: ${from.value}: ${MISSING}`);
  const val = get(src.container, src.key);
  if (!val.ok) throw new JsonPatchError(`error in copy for from: '${from.value}': ${val.error}`);
  const path = pathOf(op);
  if (!path.ok) throw new JsonPatchError(`copy operation failed to decode path: ${MISSING}`);
  const dst = findObject(root, path.value);
  if (!dst) throw new JsonPatchError(`copy operation does not apply: doc is missing destination path: ${path.value}: ${MISSING}`);
  const err = insert(dst.container, dst.key, cloneJson(val.value ?? null));
  if (err) throw new JsonPatchError(`error while adding value during copy: ${err}`);
}
