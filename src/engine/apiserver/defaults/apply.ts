/**
 * The defaulting step of the request pipeline: kube-apiserver applies these while decoding the
 * request body, before admission. Kinds without defaults pass through unchanged.
 */
import { parseApiVersion, type KubeObject } from '../../api/types';
import { defaulterFor } from './index';

export function applyDefaults(obj: KubeObject): void {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return;
  defaulterFor(parseApiVersion(obj.apiVersion).group, obj.kind)?.(obj);
}
