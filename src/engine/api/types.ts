/**
 * Objects in the engine are plain JSON, shaped exactly as the v1 wire format (what kubectl
 * sends and what etcd holds). Typed views of the common parts live here; kind-specific code
 * narrows further where it needs to.
 */

export type JsonPrimitive = null | boolean | number | string;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue | undefined;
}

// The metadata every object carries, as generated from the OpenAPI (src/engine/api/generated).
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from './generated/meta-v1';
export type { ManagedFieldsEntry, ObjectMeta, OwnerReference };

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** "apps/v1" -> {group: "apps", version: "v1"}; "v1" -> {group: "", version: "v1"}. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function formatApiVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** A stable map key for a group and kind: "apps/Deployment", "/Pod" for the core group. */
export function groupKindKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A decoded JSON value that is an object of the API (apiVersion, kind and an object metadata). */
export function isKubeObject(v: unknown): v is KubeObject {
  return isObject(v) && typeof v.apiVersion === 'string' && typeof v.kind === 'string' && isObject(v.metadata);
}
