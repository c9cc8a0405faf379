/** The shape of the vendored OpenAPI v3 documents, as far as kubesim reads them. */
import type { JsonValue } from '../types';

export interface OpenApiGvk {
  group: string;
  version: string;
  kind: string;
}

export interface RawSchema {
  $ref?: string;
  allOf?: RawSchema[];
  oneOf?: RawSchema[];
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, RawSchema>;
  additionalProperties?: RawSchema | boolean;
  items?: RawSchema;
  required?: string[];
  default?: JsonValue;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-group-version-kind'?: OpenApiGvk[];
}

export interface OpenApiMediaType {
  schema?: RawSchema;
}

export interface OpenApiOperation {
  operationId?: string;
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind'?: OpenApiGvk;
  responses?: Record<string, { content?: Record<string, OpenApiMediaType> }>;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';

export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>>;

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, OpenApiPathItem>;
  components: { schemas: Record<string, RawSchema> };
}
