/**
 * Index functions for informer caches: the namespace index every informer has, and the ones
 * controllers register for their hot lookups (pods by node, dependents by owner, by label).
 */
import type { KubeObject } from '../../api/types';

/** The values an object is indexed under. */
export type IndexFunc<T extends KubeObject = KubeObject> = (obj: T) => readonly string[];

export const NAMESPACE_INDEX = 'namespace';
export const NODE_NAME_INDEX = 'spec.nodeName';
export const OWNER_UID_INDEX = 'ownerUID';
export const LABELS_INDEX = 'labels';

export const namespaceIndexFunc: IndexFunc = (obj) => [obj.metadata.namespace ?? ''];

/** Pods by spec.nodeName; unscheduled pods are not indexed. */
export const nodeNameIndexFunc: IndexFunc = (obj) => {
  const spec = obj.spec as { nodeName?: unknown } | undefined;
  return typeof spec?.nodeName === 'string' && spec.nodeName !== '' ? [spec.nodeName] : [];
};

/** Dependents by the UID of each of their owners. */
export const ownerUidIndexFunc: IndexFunc = (obj) => (obj.metadata.ownerReferences ?? []).map((r) => r.uid);

/** Objects by each of their labels, as "key=value". */
export const labelsIndexFunc: IndexFunc = (obj) => Object.entries(obj.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`);

export function labelIndexValue(key: string, value: string): string {
  return `${key}=${value}`;
}
