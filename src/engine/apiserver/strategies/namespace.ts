/**
 * Namespaces (pkg/registry/core/namespace): created Active with the "kubernetes" finalizer in
 * spec.finalizers; spec.finalizers changes only through the finalize subresource; deletion is
 * two-phase (see handlers/delete-namespace.ts).
 */
import { isObject, type KubeObject } from '../../api/types';
import type { ResourceInfo } from '../resources';
import { shouldDeleteDuringUpdate } from '../handlers/write';
import { genericStrategy } from './generic';
import type { Strategy } from './types';

export const FINALIZER_KUBERNETES = 'kubernetes';

export function namespaceStrategy(type: ResourceInfo): Strategy {
  const base = genericStrategy(type, { returnDeletedObject: true, emptyStatus: () => ({ phase: 'Active' }) });
  return {
    ...base,
    prepareForCreate(obj, ctx) {
      base.prepareForCreate(obj, ctx);
      const spec = isObject(obj.spec) ? obj.spec : {};
      const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
      if (!finalizers.includes(FINALIZER_KUBERNETES)) spec.finalizers = [...finalizers, FINALIZER_KUBERNETES];
      obj.spec = spec;
      labelWithName(obj);
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      keepFinalizers(obj, old);
      labelWithName(obj);
    },
    /** A terminating namespace goes once spec.finalizers is empty too (the namespace controller finalized it). */
    shouldDeleteDuringUpdate(obj, old) {
      const spec = isObject(obj.spec) ? obj.spec : {};
      return (!Array.isArray(spec.finalizers) || spec.finalizers.length === 0) && shouldDeleteDuringUpdate(obj, old);
    },
  };
}

/** The finalize subresource: only spec.finalizers changes. */
export function prepareFinalizeUpdate(obj: KubeObject, old: KubeObject): KubeObject {
  const next: KubeObject = structuredClone(old);
  const spec = isObject(next.spec) ? next.spec : {};
  const requested = isObject(obj.spec) ? obj.spec.finalizers : undefined;
  if (requested === undefined) delete spec.finalizers;
  else spec.finalizers = requested;
  next.spec = spec;
  next.metadata = { ...next.metadata, resourceVersion: obj.metadata.resourceVersion };
  if (next.metadata.resourceVersion === undefined) delete next.metadata.resourceVersion;
  return next;
}

/** The kubernetes.io/metadata.name label always carries the name, generated ones included. */
function labelWithName(obj: KubeObject): void {
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name ?? '' };
}

function keepFinalizers(obj: KubeObject, old: KubeObject): void {
  const oldSpec = isObject(old.spec) ? old.spec : {};
  const spec = isObject(obj.spec) ? obj.spec : {};
  if (oldSpec.finalizers === undefined) delete spec.finalizers;
  else spec.finalizers = structuredClone(oldSpec.finalizers);
  obj.spec = spec;
}
