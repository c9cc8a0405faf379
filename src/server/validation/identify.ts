/** A parsed document's identity as the API server would resolve it (see dependencies.ts). */
import type { ResourceRegistry } from '../../engine/api/registry';
import { isObject, parseApiVersion } from '../../engine/api/types';
import type { ManifestDocument } from '../../engine/apiserver/decode';
import { claimsServiceAllocations, type DocumentIdentity } from './dependencies';

/**
 * The identity of a document, by the kinds the registry serves, or else by a CustomResourceDefinition
 * among `crds` (the documents above it) that defines its group, version and kind.
 */
export function identify(doc: ManifestDocument, registry: ResourceRegistry, crds: readonly ManifestDocument[] = []): DocumentIdentity | undefined {
  const obj = doc.object;
  if (!obj || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return undefined;
  const { group, version } = parseApiVersion(obj.apiVersion);
  const info = registry.byGvk(group, version, obj.kind);
  const namespaced = info ? info.namespaced : crdScope(crds, group, version, obj.kind);
  if (namespaced === undefined) return undefined;
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const ns = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : 'default';
  const id: DocumentIdentity = { group, kind: obj.kind, namespace: namespaced ? ns : '', claimsAllocations: claimsServiceAllocations(group, obj.kind, obj) };
  if (typeof meta.name === 'string' && meta.name !== '') id.name = meta.name;
  return id;
}

/** Whether a document is a CustomResourceDefinition (it may define the kinds of those after it). */
export function isCrdDocument(doc: ManifestDocument): boolean {
  return doc.object?.apiVersion === 'apiextensions.k8s.io/v1' && doc.object.kind === 'CustomResourceDefinition';
}

/** Whether one of the CRDs serves group/version/kind: true when namespaced, undefined when none does. */
function crdScope(crds: readonly ManifestDocument[], group: string, version: string, kind: string): boolean | undefined {
  for (const d of crds) {
    const spec = isObject(d.object?.spec) ? d.object.spec : {};
    const names = isObject(spec.names) ? spec.names : {};
    if (spec.group !== group || names.kind !== kind) continue;
    const versions = Array.isArray(spec.versions) ? spec.versions : [];
    if (versions.some((v) => isObject(v) && v.name === version)) return spec.scope !== 'Cluster';
  }
  return undefined;
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
