/**
 * The two-way strategic merge patch (strategicpatch.CreateTwoWayMergePatch) the kubelet sends
 * for pods/status and nodes/status: only what changed; removed fields as null; lists with a
 * merge key (conditions by type, podIPs by ip, addresses by type) patched per item, with a
 * $setElementOrder directive; every other list replaced whole.
 */
import type { JsonObject, JsonValue } from '../api/types';
import { isObject } from '../api/types';

/** Merge keys of the lists patched per item, by field name. */
export type MergeKeys = Readonly<Record<string, string>>;

export const POD_STATUS_MERGE_KEYS: MergeKeys = { conditions: 'type', podIPs: 'ip', hostIPs: 'ip' };
export const NODE_STATUS_MERGE_KEYS: MergeKeys = { conditions: 'type', addresses: 'type' };

/** The patch that turns `before` into `after`, or undefined when they are equal. */
export function twoWayPatch(before: JsonObject, after: JsonObject, keys: MergeKeys): JsonObject | undefined {
  const patch: JsonObject = {};
  for (const [field, next] of Object.entries(after)) {
    if (next === undefined) continue;
    const prev = before[field];
    if (deepEqual(prev, next)) continue;
    const key = keys[field];
    if (key && Array.isArray(prev) && Array.isArray(next)) {
      Object.assign(patch, listPatch(field, prev, next, key));
    } else if (isObject(prev) && isObject(next)) {
      const inner = twoWayPatch(prev, next, {});
      if (inner) patch[field] = inner;
    } else {
      patch[field] = next;
    }
  }
  for (const field of Object.keys(before)) {
    if (before[field] !== undefined && after[field] === undefined) patch[field] = null;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

function listPatch(field: string, before: JsonValue[], after: JsonValue[], key: string): JsonObject {
  const keyOf = (v: JsonValue) => (isObject(v) ? v[key] : undefined);
  const items: JsonValue[] = [];
  for (const next of after) {
    const prev = before.find((b) => keyOf(b) === keyOf(next));
    if (prev === undefined || !isObject(prev) || !isObject(next)) {
      if (!deepEqual(prev, next)) items.push(next);
      continue;
    }
    const inner = twoWayPatch(prev, next, {});
    if (inner) items.push({ [key]: keyOf(next) ?? null, ...inner });
  }
  for (const prev of before) {
    if (!after.some((a) => keyOf(a) === keyOf(prev))) items.push({ [key]: keyOf(prev) ?? null, $patch: 'delete' });
  }
  const out: JsonObject = { [`$setElementOrder/${field}`]: after.map((a) => ({ [key]: keyOf(a) ?? null })) };
  if (items.length > 0) out[field] = items;
  return out;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => deepEqual(ao[k], bo[k]));
}
