/**
 * Objects in etcd are JSON, stored without metadata.resourceVersion (the etcd mod revision is
 * the resourceVersion, as kube-apiserver's versioner sets it on the way out). Decoding applies
 * defaults, as kube-apiserver does on every decode, and deep-freezes the result so that the
 * watch cache, list results and informers can share one copy.
 */
import type { KeyValue } from '../../store/types';
import type { JsonObject, KubeObject } from '../../api/types';
import { applyDefaults } from '../defaults/apply';

export function encodeForStorage(obj: KubeObject): string {
  const { resourceVersion: _rv, selfLink: _sl, ...metadata } = obj.metadata;
  return JSON.stringify({ ...obj, metadata });
}

export function decodeFromStorage(kv: KeyValue): KubeObject {
  const obj = JSON.parse(kv.value) as KubeObject;
  applyDefaults(obj);
  obj.metadata.resourceVersion = String(kv.modRevision);
  return deepFreeze(obj);
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A mutable deep copy of a (possibly frozen) object. */
export function cloneObject<T extends JsonObject | KubeObject>(obj: T): T {
  return structuredClone(obj) as T;
}
