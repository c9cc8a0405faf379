/**
 * Conversion between the version a resource is served in and the version it is stored in
 * (kube-apiserver converts through the internal version; kubesim converts directly).
 */
import type { KubeObject } from '../../api/types';

export interface Conversion {
  /** "v1", "example.com/v1": the apiVersion of stored objects. */
  readonly storageApiVersion: string;
  readonly servedApiVersion: string;
  toStorage(obj: KubeObject): KubeObject;
  fromStorage(obj: KubeObject): KubeObject;
}
