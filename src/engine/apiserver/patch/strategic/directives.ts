/**
 * The strategic merge patch directives that are not list merging itself: $patch markers on
 * values being added, null pruning, $retainKeys, the "$prefix/field" keys and the consistency
 * check between a list and its $setElementOrder.
 */
import type { JsonObject, JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import { goSprintV } from '../govalue';
import {
  StrategicPatchError,
  errBadArgType,
  errBadPatchFormatForPrimitiveList,
  errBadPatchFormatForRetainKeys,
  errBadPatchFormatForSetElementOrderList,
  errNoMergeKey,
} from './errors';
import { goEqual } from './order';
import { own } from '../../../api/own';

export const DIRECTIVE = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
export const SET_ELEMENT_ORDER = '$setElementOrder';

/**
 * removeDirectives: a value carrying "$patch" is dropped (undefined); maps and lists lose such
 * members. Other directive keys nested in the value stay, as upstream leaves them.
 */
export function removeDirectives(v: JsonValue): JsonValue | undefined {
  if (isObject(v)) {
    if (v[DIRECTIVE] !== undefined) return undefined;
    for (const [k, e] of Object.entries(v)) {
      if (e === undefined) continue;
      const kept = removeDirectives(e);
      if (kept === undefined) delete v[k];
      else v[k] = kept;
    }
    return v;
  }
  if (Array.isArray(v)) {
    const out: JsonValue[] = [];
    for (const e of v) {
      const kept = removeDirectives(e);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  return v;
}

/** discardNullValuesFromPatch: nulls inside a value the original does not have mean nothing. */
export function discardNulls(v: JsonValue): void {
  if (isObject(v)) {
    for (const [k, e] of Object.entries(v)) {
      if (e === null) delete v[k];
      else if (e !== undefined) discardNulls(e);
    }
  } else if (Array.isArray(v)) {
    for (const e of v) discardNulls(e);
  }
}

/**
 * applyRetainKeysDirective: every key the patch sets must be listed, and the original keeps
 * only listed keys.
 */
export function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  const list = patch[RETAIN_KEYS];
  if (list === undefined) return;
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw errBadPatchFormatForRetainKeys();
  const retained = (k: string): boolean => list.some((v) => goEqual(v, k));
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!retained(k)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!retained(k)) delete original[k];
}

/** extractKey: "$setElementOrder/containers" -> "containers". */
export function extractKey(s: string, prefix: typeof DELETE_FROM_PRIMITIVE_LIST | typeof SET_ELEMENT_ORDER): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    throw prefix === DELETE_FROM_PRIMITIVE_LIST ? errBadPatchFormatForPrimitiveList() : errBadPatchFormatForSetElementOrderList();
  }
  return s.slice(slash + 1);
}

/**
 * validatePatchWithSetOrderList: the patch list's items (deletions aside) must appear in the
 * $setElementOrder list, in the same relative order.
 */
export function validateSetElementOrder(patchList: JsonValue[] | undefined, setOrder: JsonValue[], mergeKey: string): void {
  if (setOrder.length === 0 || !patchList || patchList.length === 0) return;
  let nonDelete = patchList;
  if (mergeKey.length > 0) {
    nonDelete = [];
    for (const v of patchList) {
      if (!isObject(v)) throw errBadArgType('map', v);
      if (v[DIRECTIVE] !== 'delete') nonDelete.push(v);
    }
  }
  let p = 0;
  let s = 0;
  while (p < nonDelete.length && s < setOrder.length) {
    const item = nonDelete[p]!;
    if (isObject(item) && item[DIRECTIVE] !== undefined) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(item, setOrder[s]!, mergeKey)) p++;
    s++;
  }
  if (p < nonDelete.length && s >= setOrder.length) {
    throw new StrategicPatchError(
      `The order in patch list:\n${goSprintV(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goSprintV(setOrder)}\n`,
    );
  }
}

function mergeKeyValueEqual(left: JsonValue, right: JsonValue, mergeKey: string): boolean {
  if (mergeKey.length === 0) return goEqual(left, right);
  if (!isObject(left)) throw errBadArgType('map', left);
  if (!isObject(right)) throw errBadArgType('map', right);
  if (own(left, mergeKey) === undefined) throw errNoMergeKey(left, mergeKey);
  if (own(right, mergeKey) === undefined) throw errNoMergeKey(right, mergeKey);
  return goEqual(own(left, mergeKey), own(right, mergeKey));
}
