/**
 * The compiled form of the vendored Kubernetes 1.35 OpenAPI v3 schemas, shared by decoding
 * (unknown fields, types), strategic merge patch (patch strategies and merge keys), server-side
 * apply (list types and map keys), the language server's hover and the HTTP facade.
 *
 * Nodes form a graph: a definition referenced from several places is one node, and recursive
 * definitions (JSONSchemaProps) are cycles.
 */
import type { Dict } from '../own';
import type { JsonValue } from '../types';

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface SchemaNode {
  /** The components.schemas name this node came from, e.g. io.k8s.api.apps.v1.DeploymentSpec. */
  definition?: string;
  type?: SchemaType;
  /** int32, int64, double, byte, date-time, int-or-string, quantity (Quantity), ... */
  format?: string;
  description?: string;
  /** A Dict: field names are looked up as they come in the data. */
  properties?: Dict<SchemaNode>;
  /** Map values (type object without properties); true for free-form maps. */
  additionalProperties?: SchemaNode | true;
  items?: SchemaNode;
  required?: string[];
  /** x-kubernetes-list-type */
  listType?: 'atomic' | 'set' | 'map';
  /** x-kubernetes-list-map-keys */
  listMapKeys?: string[];
  /** x-kubernetes-map-type */
  mapType?: 'atomic' | 'granular';
  /** x-kubernetes-patch-strategy, e.g. "merge", "retainKeys", "merge,retainKeys" */
  patchStrategy?: string;
  /** x-kubernetes-patch-merge-key */
  patchMergeKey?: string;
  /** x-kubernetes-int-or-string */
  intOrString?: boolean;
  /** x-kubernetes-preserve-unknown-fields: any JSON is accepted below this node. */
  preserveUnknownFields?: boolean;
  /** x-kubernetes-embedded-resource */
  embeddedResource?: boolean;
  default?: JsonValue;
  /** For top-level kinds: x-kubernetes-group-version-kind. */
  gvk?: Array<{ group: string; version: string; kind: string }>;
}
