/**
 * Strategic merge patch, server side: applies a patch (as kubectl and controllers send it) to
 * the current object using the patch strategies and merge keys of its schema.
 */
import type { SchemaNode } from '../../../api/openapi/types';
import type { JsonObject } from '../../../api/types';
import { cloneJson } from '../govalue';
import { mergeMap } from './merge';

export { StrategicPatchError } from './errors';

/** StrategicMergeMapPatch over copies of the inputs; a null patch changes nothing. */
export function applyStrategicMergePatch(original: JsonObject, patch: JsonObject | null, schema: SchemaNode): JsonObject {
  const out = cloneJson(original);
  if (patch === null) return out;
  return mergeMap(out, cloneJson(patch), schema);
}
