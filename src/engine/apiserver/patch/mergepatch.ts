/**
 * JSON Merge Patch (RFC 7386) as kube-apiserver applies it (evanphx/json-patch MergePatch):
 * null deletes, objects merge recursively, anything else replaces; nulls inside newly added
 * objects are dropped, but nulls inside a replacing array are kept.
 */
import type { JsonObject, JsonValue } from '../../api/types';
import { isObject } from '../../api/types';
import { cloneJson } from './govalue';
import { own, setOwn } from '../../api/own';

export class MergePatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergePatchError';
  }
}

export const BAD_JSON_PATCH = 'Invalid JSON Patch';

export function applyMergePatch(doc: JsonValue, patch: JsonValue): JsonValue {
  if (doc === null) throw new MergePatchError('Invalid JSON Document');
  if (patch === null) throw new MergePatchError(BAD_JSON_PATCH);
  const p = cloneJson(patch);
  if (isObject(doc) && isObject(p)) return mergeDocs(cloneJson(doc), p);
  if (isObject(p)) return pruneDocNulls(p);
  if (Array.isArray(p)) return pruneArrayNulls(p);
  throw new MergePatchError(BAD_JSON_PATCH);
}

function mergeDocs(doc: JsonObject, patch: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = own(doc, k);
    setOwn(doc, k, cur === undefined || cur === null ? pruneNulls(v) : merge(cur, v));
  }
  return doc;
}

function merge(cur: JsonValue, patch: JsonValue): JsonValue {
  if (!isObject(cur)) return pruneNulls(patch);
  if (!isObject(patch)) return patch;
  return mergeDocs(cur, patch);
}

function pruneNulls(v: JsonValue): JsonValue {
  if (isObject(v)) return pruneDocNulls(v);
  if (Array.isArray(v)) return pruneArrayNulls(v);
  return v;
}

function pruneDocNulls(doc: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(doc)) {
    if (v === null) delete doc[k];
    else if (v !== undefined) doc[k] = pruneNulls(v);
  }
  return doc;
}

function pruneArrayNulls(arr: JsonValue[]): JsonValue[] {
  return arr.map((v) => (v === null ? v : pruneNulls(v)));
}
