/**
 * The behaviour most resources share (rest.BeforeCreate/BeforeUpdate plus the typical strategy):
 * status is owned by the status subresource, generation tracks spec changes, deletes are immediate.
 */
import type { JsonValue, KubeObject, ObjectMeta } from '../../api/types';
import { cloneJson } from '../patch/govalue';
import { hasSubresource, type ResourceInfo } from '../resources';
import { semanticEqual } from '../validation/meta';
import type { Strategy } from './types';
import { own, setOwn, table } from '../../api/own';

/**
 * Top-level fields that are not "spec": changes to anything else (compared as
 * apiequality.Semantic.DeepEqual does) bump metadata.generation.
 */
const NON_SPEC = new Set(['apiVersion', 'kind', 'metadata', 'status']);

export function specChanged(obj: KubeObject, old: KubeObject): boolean {
  const keys = new Set([...Object.keys(obj), ...Object.keys(old)]);
  for (const k of keys) {
    if (NON_SPEC.has(k)) continue;
    if (!semanticEqual(own(obj, k), own(old, k))) return true;
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
        else obj.status = cloneJson(old.status as JsonValue);
      }
      if (generation && specChanged(obj, old)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
  };
}

/**
 * The status subresource's PrepareForUpdate: the new object with the old spec (every top-level
 * field but metadata and status), as upstream's status strategies do. Metadata changes made
 * through status are kept -- controllers rely on it (the Deployment controller writes its
 * revision annotation with its status) -- except what a resource's strategy resets:
 * Deployment labels, Pod owner references.
 */
export function prepareStatusUpdate(group: string, resource: string): (obj: KubeObject, old: KubeObject) => KubeObject {
  const resetMeta = STATUS_METADATA_RESETS[`${group}/${resource}`] ?? [];
  return (obj, old) => {
    const next: KubeObject = { ...obj };
    for (const key of Object.keys(next)) {
      if (!KEPT_ON_STATUS_UPDATE.has(key) && !Object.hasOwn(old, key)) delete next[key];
    }
    for (const [key, value] of Object.entries(old)) {
      if (!KEPT_ON_STATUS_UPDATE.has(key)) setOwn(next, key, cloneJson(value as JsonValue));
    }
    if (resetMeta.length > 0) {
      const meta = { ...obj.metadata };
      for (const field of resetMeta) {
        const value = own(old.metadata, field);
        if (value === undefined) delete meta[field];
        else setOwn(meta, field, cloneJson(value as JsonValue));
      }
      next.metadata = meta;
    }
    return next;
  };
}

const KEPT_ON_STATUS_UPDATE = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/** Metadata a status update may not change, per resource (each pkg/registry strategy.go). */
const STATUS_METADATA_RESETS = table<readonly (keyof ObjectMeta)[]>({
  'apps/deployments': ['labels'],
  '/pods': ['ownerReferences'],
});
