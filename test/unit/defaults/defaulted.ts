import { applyDefaults } from '../../../src/engine/apiserver/defaults/apply';
import type { KubeObject } from '../../../src/engine/api/types';

/** A defaulted deep copy of obj, as kube-apiserver would decode it. */
export function defaulted<T extends object>(obj: T): KubeObject {
  const copy = structuredClone(obj) as unknown as KubeObject;
  applyDefaults(copy);
  return copy;
}

export function pod(spec: object, extra: object = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec, ...extra };
}

/** The spec of a defaulted Pod with just these containers (and other spec fields). */
export function podSpec(spec: object): Record<string, unknown> {
  return defaulted(pod(spec)).spec as Record<string, unknown>;
}
