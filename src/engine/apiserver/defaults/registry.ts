/**
 * Defaulting per kind (the TypeScript counterpart of pkg/apis/<group>/v1/defaults.go plus the
 * generated recursive defaulters). A defaulter mutates the decoded object in place; the
 * pipeline runs it during decoding, before admission, exactly where kube-apiserver does.
 */
import { groupKindKey, type KubeObject } from '../../api/types';

export type Defaulter = (obj: KubeObject) => void;

const defaulters = new Map<string, Defaulter>();

export function registerDefaulter(group: string, kind: string, defaulter: Defaulter): void {
  const key = groupKindKey(group, kind);
  if (defaulters.has(key)) throw new Error(`defaulter for ${key} registered twice`);
  defaulters.set(key, defaulter);
}

export function defaulterFor(group: string, kind: string): Defaulter | undefined {
  return defaulters.get(groupKindKey(group, kind));
}
