/**
 * Defaulting per kind (the TypeScript counterpart of pkg/apis/<group>/v1/defaults.go plus the
 * generated recursive defaulters). A defaulter mutates the decoded object in place; the
 * pipeline runs it during decoding, before admission, exactly where kube-apiserver does.
 */
import type { KubeObject } from '../../api/types';
import { KindRegistry } from '../kind-registry';

export type Defaulter = (obj: KubeObject) => void;

const defaulters = new KindRegistry<Defaulter>('defaulter');

export function registerDefaulter(group: string, kind: string, defaulter: Defaulter): void {
  defaulters.register(group, kind, defaulter);
}

export function defaulterFor(group: string, kind: string): Defaulter | undefined {
  return defaulters.get(group, kind);
}
