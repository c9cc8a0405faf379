import type { JsonObject, KubeObject, ManagedFieldsEntry } from '../../api/types';
import { jsonEqual } from '../patch/govalue';

/**
 * IgnoreManagedFieldsTimestampsTransformer (run by the registry before storing an update):
 * when nothing but managedFields timestamps changed, keep the old timestamps so the write is a
 * no-op.
 */
export function keepUnchangedTimestamps(updated: KubeObject, old: KubeObject): void {
  const now = updated.metadata.managedFields;
  const before = old.metadata.managedFields;
  if (!now || !before || now.length !== before.length || now.length === 0) return;
  if (now.every((e, i) => e.time === before[i]!.time)) return;
  const withoutTime = (list: readonly ManagedFieldsEntry[]): JsonObject[] => list.map(({ time: _t, ...rest }) => rest as JsonObject);
  if (!jsonEqual(withoutTime(now), withoutTime(before))) return;
  const strippedNow = { ...updated, metadata: { ...updated.metadata, managedFields: undefined } } as JsonObject;
  const strippedBefore = { ...old, metadata: { ...old.metadata, managedFields: undefined } } as JsonObject;
  if (!jsonEqual(strippedNow, strippedBefore)) return;
  updated.metadata.managedFields = now.map((e, i) => ({ ...e, time: before[i]!.time }));
}
