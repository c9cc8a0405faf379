/**
 * The behaviour most resources share (rest.BeforeCreate/BeforeUpdate plus the typical strategy):
 * status is owned by the status subresource, generation tracks spec changes, deletes are immediate.
 */
import type { JsonValue, KubeObject } from '../../api/types';
import { hasSubresource, type ResourceInfo } from '../resources';
import { semanticEqual } from '../validation/meta';
import type { Strategy } from './types';

/**
 * Top-level fields that are not "spec": changes to anything else (compared as
 * apiequality.Semantic.DeepEqual does) bump metadata.generation.
 */
const NON_SPEC = new Set(['apiVersion', 'kind', 'metadata', 'status']);

export function specChanged(obj: KubeObject, old: KubeObject): boolean {
  const keys = new Set([...Object.keys(obj), ...Object.keys(old)]);
  for (const k of keys) {
    if (NON_SPEC.has(k)) continue;
    if (!semanticEqual(obj[k], old[k])) return true;
  }
  return false;
}

export interface GenericOptions {
  /** The JSON of the kind's zero-valued status struct: what create leaves in status. */
  emptyStatus?: (now: string) => Record<string, JsonValue>;
  generation?: boolean;
  allowCreateOnUpdate?: boolean;
  allowUnconditionalUpdate?: boolean;
  returnDeletedObject?: boolean;
  garbageCollected?: boolean;
  /** Keep a client-set status on create (nodes register with theirs). */
  keepStatusOnCreate?: boolean;
}

export function genericStrategy(type: ResourceInfo, o: GenericOptions = {}): Strategy {
  const hasStatus = hasSubresource(type, 'status');
  const generation = o.generation ?? false;
  return {
    generation,
    allowCreateOnUpdate: o.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: o.allowUnconditionalUpdate ?? true,
    returnDeletedObject: o.returnDeletedObject ?? false,
    garbageCollected: o.garbageCollected ?? true,
    prepareForCreate(obj, ctx) {
      if (hasStatus && !o.keepStatusOnCreate) obj.status = o.emptyStatus ? o.emptyStatus(ctx.clock.rfc3339()) : {};
      if (generation) obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      if (hasStatus) {
        if (old.status === undefined) delete obj.status;
        else obj.status = structuredClone(old.status);
      }
      if (generation && specChanged(obj, old)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
  };
}

/**
 * The status subresource's update (ResetObjectMetaForStatus plus "spec is ignored"): only status
 * changes; metadata that users own is kept from the stored object.
 */
export function prepareStatusUpdate(obj: KubeObject, old: KubeObject): KubeObject {
  const next: KubeObject = structuredClone(old);
  if (obj.status === undefined) delete next.status;
  else next.status = obj.status;
  const m = obj.metadata;
  next.metadata = {
    ...old.metadata,
    resourceVersion: m.resourceVersion,
    managedFields: m.managedFields ?? old.metadata.managedFields,
  };
  if (next.metadata.resourceVersion === undefined) delete next.metadata.resourceVersion;
  if (next.metadata.managedFields === undefined) delete next.metadata.managedFields;
  return next;
}
