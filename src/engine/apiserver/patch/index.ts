/**
 * The non-apply PATCH types as kube-apiserver's patch handler runs them against the current
 * object, with its error mapping: body decoding problems are 400, a JSON Patch that does not
 * apply is a 422 whose message hides the library's text, strategic merge patch errors are 400,
 * 422 or a 500 carrying the text. The result still has to be decoded, defaulted and validated
 * as the new object (it may hold nulls, unknown fields or the wrong types).
 */
import type { SchemaNode } from '../../api/openapi/types';
import type { JsonObject, JsonValue } from '../../api/types';
import { isObject } from '../../api/types';
import { StatusError, badRequestError, requestEntityTooLargeError } from '../../api/status';
import type { FieldValidation } from '../request';
import { jsonTypeWord } from './govalue';
import { JsonPatchError, applyJsonPatch, decodeJsonPatch, jsonPatchOpTypeError, JsonPatchDecodeError } from './jsonpatch';
import { BAD_JSON_PATCH, MergePatchError, applyMergePatch } from './mergepatch';
import { StrategicPatchError, applyStrategicMergePatch } from './strategic';

export { applyJsonPatch, decodeJsonPatch, JsonPatchError } from './jsonpatch';
export { applyMergePatch } from './mergepatch';
export { applyStrategicMergePatch, StrategicPatchError } from './strategic';
export { validatePatchOptions, validateFieldManager, type PatchOptions } from './options';

/** maxJSONPatchOperations */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

export interface PatchInput {
  type: 'json' | 'merge' | 'strategic';
  /** The current object in the request's version, as JSON (read only: each patch type works on a copy). */
  current: JsonObject;
  /** The decoded request body. */
  patch: JsonValue;
  /** The kind's schema; required for strategic merge patch. */
  schema?: SchemaNode;
  fieldValidation?: FieldValidation;
}

/** The patched object, or a StatusError as kube-apiserver would answer. */
export function patchObject(input: PatchInput): JsonValue {
  const strict = input.fieldValidation === 'Strict' || input.fieldValidation === 'Warn';
  switch (input.type) {
    case 'json':
      return jsonPatch(input.current, input.patch, strict);
    case 'merge':
      return mergePatch(input.current, input.patch, strict);
    case 'strategic':
      return strategicPatch(input.current, input.patch, input.schema);
  }
}

/** NewGenericServerResponse(422): how a JSON Patch that does not apply is answered (its text is dropped). */
export function genericUnprocessableError(): StatusError {
  return new StatusError({
    code: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
    details: {},
  });
}

function jsonPatch(current: JsonObject, patch: JsonValue, strict: boolean): JsonValue {
  if (strict) {
    const typeErr = jsonPatchOpTypeError(patch);
    if (typeErr) throw badRequestError(`error decoding patch: ${typeErr}`);
  }
  let ops;
  try {
    ops = decodeJsonPatch(patch);
  } catch (err) {
    if (err instanceof JsonPatchDecodeError) throw badRequestError(err.message);
    throw err;
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw requestEntityTooLargeError(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  try {
    return applyJsonPatch(current, ops);
  } catch (err) {
    if (err instanceof JsonPatchError) throw genericUnprocessableError();
    throw err;
  }
}

function mergePatch(current: JsonObject, patch: JsonValue, strict: boolean): JsonValue {
  if (strict && patch !== null && !isObject(patch)) {
    throw badRequestError(`error decoding patch: json: cannot unmarshal ${jsonTypeWord(patch)} into Go value of type map[string]interface {}`);
  }
  try {
    return applyMergePatch(current, patch);
  } catch (err) {
    if (err instanceof MergePatchError && err.message === BAD_JSON_PATCH) throw badRequestError(err.message);
    if (err instanceof MergePatchError) throw unknownError(err.message);
    throw err;
  }
}

function strategicPatch(current: JsonObject, patch: JsonValue, schema: SchemaNode | undefined): JsonObject {
  if (patch !== null && !isObject(patch)) {
    throw badRequestError(`json: cannot unmarshal ${jsonTypeWord(patch)} into Go value of type map[string]interface {}`);
  }
  if (!schema) throw badRequestError('strategic merge patch format is not supported');
  try {
    return applyStrategicMergePatch(current, patch, schema);
  } catch (err) {
    if (!(err instanceof StrategicPatchError)) throw err;
    if (err.sentinel === 'badRequest') throw badRequestError(err.message);
    if (err.sentinel === 'invalid') throw genericUnprocessableError();
    throw unknownError(err.message);
  }
}

/** A plain Go error reaching the handler: 500 with no reason and the error's text. */
function unknownError(message: string): StatusError {
  return new StatusError({ code: 500, reason: '', message });
}
