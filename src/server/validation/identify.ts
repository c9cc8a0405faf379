/** A parsed document's identity as the API server would resolve it (see dependencies.ts). */
import type { ResourceRegistry } from '../../engine/api/registry';
import { isObject, parseApiVersion } from '../../engine/api/types';
import type { ManifestDocument } from '../../engine/apiserver/decode';
import { claimsServiceAllocations, type DocumentIdentity } from './dependencies';

export function identify(doc: ManifestDocument, registry: ResourceRegistry): DocumentIdentity | undefined {
  const obj = doc.object;
  if (!obj || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return undefined;
  const { group, version } = parseApiVersion(obj.apiVersion);
  const info = registry.byGvk(group, version, obj.kind);
  if (!info) return undefined;
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const ns = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : 'default';
  const id: DocumentIdentity = { group, kind: obj.kind, namespace: info.namespaced ? ns : '', claimsAllocations: claimsServiceAllocations(group, obj.kind, obj) };
  if (typeof meta.name === 'string' && meta.name !== '') id.name = meta.name;
  return id;
}

/** Whether a piece of YAML reads as a Kubernetes object: only those are validated. */
export function looksLikeManifest(doc: ManifestDocument, text: string): boolean {
  if (doc.node) {
    if (doc.node.kind !== 'object') return false;
    const keys = new Set(doc.node.entries.map((e) => e.key));
    return keys.has('apiVersion') && keys.has('kind');
  }
  return /^apiVersion\s*:/m.test(text) && /^kind\s*:/m.test(text);
}
