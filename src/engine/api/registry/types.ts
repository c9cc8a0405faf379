/** A resource kube-apiserver serves, as its discovery documents and RESTMapper describe it. */

export interface Subresource {
  /** "status", "scale", "binding", "eviction", "log", "exec", ... */
  name: string;
  /** The kind the subresource takes and returns (autoscaling/v1 Scale for scale). */
  group: string;
  version: string;
  kind: string;
  verbs: string[];
}

/** What the OpenAPI paths say about a resource (scripts/gen-registry.mjs). */
export interface OpenApiResource {
  group: string;
  version: string;
  kind: string;
  /** Absent for resources without a list operation (bindings, the access reviews). */
  listKind?: string;
  /** The plural resource name used in URLs: "deployments". */
  resource: string;
  namespaced: boolean;
  /** Discovery verbs, sorted: create, delete, deletecollection, get, list, patch, update, watch. */
  verbs: string[];
  subresources: Subresource[];
}

export interface ResourceInfo extends OpenApiResource {
  /** Discovery's singularName: the lowercased kind. */
  singular: string;
  shortNames: string[];
  /** "all" for what `kubectl get all` lists; "api-extensions" for extension configuration. */
  categories: string[];
  /**
   * The etcd key prefix below /registry ("deployments", "minions", "services/specs"); absent for
   * resources that are computed per request and never stored (bindings, reviews, componentstatuses).
   */
  storagePrefix?: string;
}
