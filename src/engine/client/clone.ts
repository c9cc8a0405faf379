/**
 * Objects from the API server and from informer caches are shared and frozen: a component that
 * wants to change one copies it first. Objects are plain JSON, so a recursive copy is exact and
 * several times faster than structuredClone on the deep, small objects Kubernetes is made of.
 */
import { setOwn } from '../api/own';

export function deepCopy<T>(value: T): T {
  return copyValue(value) as T;
}

function copyValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyValue(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) setOwn(out, key, copyValue(v));
  }
  return out;
}

