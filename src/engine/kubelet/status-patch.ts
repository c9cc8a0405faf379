/**
 * The two-way strategic merge patch (strategicpatch.CreateTwoWayMergePatch) the kubelet sends
 * for pods/status and nodes/status: only what changed; removed fields as null; lists with a
 * merge key (conditions by type, podIPs by ip, addresses by type) patched per item, with a
 * $setElementOrder directive; every other list replaced whole.
 */
import type { JsonObject, JsonValue } from '../api/types';
import { isObject } from '../api/types';
import { deepEqual } from '../api/deep-equal';
import { assignOwn, own, setOwn } from '../api/own';

/** Merge keys of the lists patched per item, by field name. */
export type MergeKeys = Readonly<Record<string, string>>;

export const POD_STATUS_MERGE_KEYS: MergeKeys = { conditions: 'type', podIPs: 'ip', hostIPs: 'ip' };
export const NODE_STATUS_MERGE_KEYS: MergeKeys = { conditions: 'type', addresses: 'type' };

/** The patch that turns `before` into `after`, or undefined when they are equal. */
export function twoWayPatch(before: JsonObject, after: JsonObject, keys: MergeKeys): JsonObject | undefined {
  const patch: JsonObject = {};
  for (const [field, next] of Object.entries(after)) {
    if (next === undefined) continue;
    const prev = own(before, field);
    if (deepEqual(prev, next)) continue;
    const key = own(keys, field);
    if (key && Array.isArray(prev) && Array.isArray(next)) {
      assignOwn(patch, listPatch(field, prev, next, key));
    } else if (isObject(prev) && isObject(next)) {
      const inner = twoWayPatch(prev, next, {});
      if (inner) setOwn(patch, field, inner);
    } else {
      setOwn(patch, field, next);
    }
  }
  for (const field of Object.keys(before)) {
    if (before[field] !== undefined && own(after, field) === undefined) setOwn(patch, field, null);
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

function listPatch(field: string, before: JsonValue[], after: JsonValue[], key: string): JsonObject {
  const keyOf = (v: JsonValue) => (isObject(v) ? own(v, key) : undefined);
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
  if (items.length > 0) setOwn(out, field, items);
  return out;
}
