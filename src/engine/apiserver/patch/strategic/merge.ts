/**
 * Applying a strategic merge patch on the server (strategicpatch.StrategicMergeMapPatch with
 * MergeParallelList and IgnoreUnmatchedNulls): maps merge key by key, lists follow their
 * field's patch strategy (replace by default, merge by merge key or by value), and the
 * directives steer deletion, replacement and order. The functions mutate their arguments, as
 * upstream does; the entry point hands them copies.
 */
import type { SchemaNode } from '../../../api/openapi/types';
import type { JsonObject, JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import { goSprintV, goTypeName } from '../govalue';
import {
  DELETE_FROM_PRIMITIVE_LIST,
  DIRECTIVE,
  SET_ELEMENT_ORDER,
  applyRetainKeys,
  discardNulls,
  extractKey,
  removeDirectives,
  validateSetElementOrder,
} from './directives';
import { StrategicPatchError, errBadArgType, errBadPatchType, errNoListOfLists, errNoMergeKey } from './errors';
import { GoSlice } from './goslice';
import { goKind, lookupForSlice, lookupForStruct, otherStrategy } from './meta';
import type { ElemKind } from './order';
import { findByMergeKey, goEqual, normalizeElementOrder, partitionMaps, partitionPrimitives } from './order';
import { own, setOwn } from '../../../api/own';

export function mergeMap(original: JsonObject | null, patch: JsonObject, schema: SchemaNode | undefined): JsonObject {
  const directive = patch[DIRECTIVE];
  if (directive !== undefined) {
    if (directive === 'replace') {
      delete patch[DIRECTIVE];
      return patch;
    }
    if (directive === 'delete') return {};
    throw errBadPatchType(directive, patch);
  }
  const out = original ?? {};
  applyRetainKeys(out, patch);
  mergeSetElementOrderLists(out, patch, schema);

  for (const [patchKey, patchV] of Object.entries(patch)) {
    if (patchV === undefined) continue;
    let k = patchKey;
    const isDeleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST);
    if (isDeleteList) k = extractKey(patchKey, DELETE_FROM_PRIMITIVE_LIST);

    if (patchV === null) {
      delete out[k];
      continue;
    }
    const cur = own(out, k);
    if (cur === undefined || goTypeName(cur) !== goTypeName(patchV)) {
      if (!isDeleteList) setWithoutDirectives(out, k, patchV);
      continue;
    }
    if (isObject(cur) && isObject(patchV)) {
      const field = lookupForStruct(schema, k);
      setOwn(out, k, otherStrategy(field.meta.strategies) === 'replace' ? patchV : mergeMap(cur, patchV, field.schema));
    } else if (Array.isArray(cur) && Array.isArray(patchV)) {
      const field = lookupForSlice(schema, k);
      setOwn(out, k, mergeSliceHandler(cur, patchV, field.schema, otherStrategy(field.meta.strategies), field.meta.mergeKey, isDeleteList).merged);
    } else {
      setWithoutDirectives(out, k, patchV);
    }
  }
  return out;
}

function setWithoutDirectives(out: JsonObject, k: string, v: JsonValue): void {
  discardNulls(v);
  const kept = removeDirectives(v);
  if (kept === undefined) delete out[k];
  else setOwn(out, k, kept);
}

/** A merged list, and what the caller's original list reads afterwards (see GoSlice). */
interface SliceResult {
  merged: JsonValue[];
  view: JsonValue[];
}

function mergeSliceHandler(
  original: JsonValue[],
  patch: JsonValue[],
  schema: SchemaNode | undefined,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
): SliceResult {
  // Deletion lists apply whatever the field's strategy is.
  if (strategy === 'merge' || isDeleteList) return mergeSlice(original, patch, schema, mergeKey, isDeleteList);
  return { merged: patch, view: original };
}

function mergeSlice(original: JsonValue[], patch: JsonValue[], schema: SchemaNode | undefined, mergeKey: string, isDeleteList: boolean): SliceResult {
  if (original.length === 0 && patch.length === 0) return { merged: original, view: original };
  const kind = sliceElementKind(original, patch);
  const caller = GoSlice.decoded(original);
  if (kind !== 'map') {
    if (isDeleteList) return { merged: original.filter((v) => !patch.some((d) => goEqual(d, v))), view: original };
    let both = caller;
    for (const v of patch) both = both.append(v);
    const merged = deduplicateScalars(both);
    const [patchItems, serverOnly] = partitionPrimitives(merged, patch);
    return { merged: normalizeElementOrder(patchItems, serverOnly, patch, caller.items(), mergeKey, kind), view: caller.items() };
  }
  if (mergeKey === '') throw new StrategicPatchError(`cannot merge lists without merge key for ${goKind(schema)}`);
  const special = applySpecialElements(caller, patch, mergeKey);
  const merged = mergeByKey(special.original, special.patch ?? [], mergeKey, schema).items();
  const rest = special.patch ?? [];
  const [patchItems, serverOnly] = partitionMaps(merged, rest, mergeKey);
  const order = normalizeElementOrder(patchItems, serverOnly, special.patch, special.original.items(), mergeKey, kind);
  return { merged: order, view: caller.items() };
}

/** The kind shared by all elements of the lists; lists of lists and mixed types are errors. */
function sliceElementKind(...lists: JsonValue[][]): ElemKind {
  let prev: string | undefined;
  for (const list of lists) {
    for (const v of list) {
      const t = goTypeName(v);
      if (prev === undefined) {
        prev = t;
        if (Array.isArray(v)) throw errNoListOfLists();
      } else if (prev !== t) {
        throw new StrategicPatchError(`list element types are not identical: ${goSprintV(lists)}`);
      }
    }
  }
  if (prev === undefined) throw new StrategicPatchError('no elements in any of the given slices');
  return prev === 'map[string]interface {}' ? 'map' : 'other';
}

/** deduplicateScalars, in place, including how it reorders (a duplicate's slot takes the last item). */
function deduplicateScalars(s: GoSlice): JsonValue[] {
  let length = s.len - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEqual(s.at(i), s.at(j))) {
        s.set(j, s.at(length));
        length--;
        j--;
      }
    }
  }
  return s.items().slice(0, length + 1);
}

/**
 * mergeSliceWithSpecialElements: "$patch: delete" items remove their key from the original,
 * a "$patch: replace" item makes the rest of the patch the whole list (patch becomes undefined).
 */
function applySpecialElements(original: GoSlice, patch: JsonValue[], mergeKey: string): { original: GoSlice; patch: JsonValue[] | undefined } {
  let orig = original;
  const rest: JsonValue[] = [];
  let replace = false;
  for (const v of patch) {
    const item = v as JsonObject;
    const directive = item[DIRECTIVE];
    if (directive === undefined) {
      rest.push(v);
      continue;
    }
    if (directive === 'delete') {
      const key = own(item, mergeKey);
      if (key === undefined) throw errNoMergeKey(item, mergeKey);
      for (let at = findByMergeKey(orig.items(), mergeKey, key); at >= 0; at = findByMergeKey(orig.items(), mergeKey, key)) {
        orig = orig.removeAt(at);
      }
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw new StrategicPatchError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, item);
    }
  }
  return replace ? { original: GoSlice.decoded(rest), patch: undefined } : { original: orig, patch: rest };
}

/**
 * mergeSliceWithoutSpecialElements: patch items merge into the original item with the same key
 * (earlier patch items count as original for later ones) or are appended as they are.
 */
function mergeByKey(original: GoSlice, patch: JsonValue[], mergeKey: string, schema: SchemaNode | undefined): GoSlice {
  let out = original;
  for (const v of patch) {
    const item = v as JsonObject;
    const key = own(item, mergeKey);
    if (key === undefined) throw errNoMergeKey(item, mergeKey);
    const at = findByMergeKey(out.items(), mergeKey, key);
    if (at < 0) out = out.append(v);
    else out.set(at, mergeMap(out.at(at) as JsonObject, item, schema));
  }
  return out;
}

/**
 * mergePatchIntoOriginal: each "$setElementOrder/<field>" merges its list now and orders the
 * result: the directive's order first, then the patch's, then the live list's.
 */
function mergeSetElementOrderLists(original: JsonObject, patch: JsonObject, schema: SchemaNode | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const setOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setOrder)) throw errBadArgType('slice', setOrder);
    const field = extractKey(key, SET_ELEMENT_ORDER);
    const origList = own(original, field);
    const patchList = own(patch, field);
    if (origList !== undefined && !Array.isArray(origList)) throw errBadArgType('slice', origList);
    if (patchList !== undefined && !Array.isArray(patchList)) throw errBadArgType('slice', patchList);
    const meta = lookupForSlice(schema, field);
    const strategy = otherStrategy(meta.meta.strategies);
    const mergeKey = meta.meta.mergeKey;
    validateSetElementOrder(patchList, setOrder, mergeKey);

    let merged: JsonValue[];
    let liveOrder = origList;
    if (origList !== undefined && patchList === undefined) merged = origList;
    else if (origList === undefined && patchList !== undefined) merged = removeDirectives(patchList) as JsonValue[];
    else if (origList !== undefined && patchList !== undefined) {
      const result = mergeSliceHandler(origList, patchList, meta.schema, strategy, mergeKey, false);
      merged = result.merged;
      liveOrder = result.view;
    } else continue;

    const [patchItems, serverOnly] = mergeKey === '' ? partitionPrimitives(merged, setOrder) : partitionMaps(merged, setOrder, mergeKey);
    const kind = sliceElementKind(liveOrder ?? [], patchList ?? []);
    setOwn(original, field, normalizeElementOrder(patchItems, serverOnly, setOrder, liveOrder, mergeKey, kind));
    delete patch[field];
  }
}
