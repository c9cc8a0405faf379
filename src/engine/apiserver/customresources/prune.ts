/**
 * Pruning of a custom resource as kube-apiserver decodes it (structural pruning, objectmeta
 * coercion, PruneNonNullableNullsWithoutDefaults): fields the schema does not specify are
 * dropped unless x-kubernetes-preserve-unknown-fields keeps them, metadata keeps what ObjectMeta
 * has, and nulls the schema does not allow or default go. The unknown field paths come back for
 * the `unknown field "spec.foo"` warnings and strict decoding errors.
 */
import { isObject, type JsonObject, type JsonValue } from '../../api/types';
import { structFields } from '../encoding/go-json-table';
import { fieldSchema, type Structural } from './structural';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

let objectMetaFields: Set<string> | undefined;
const isObjectMetaField = (k: string): boolean => (objectMetaFields ??= new Set(structFields(OBJECT_META).map(([name]) => name))).has(k);

function appendKey(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function prune(x: JsonValue, s: Structural | undefined, path: string, unknown: string[]): void {
  if (s?.preserveUnknownFields) return skipPrune(x, s, path, unknown);
  if (Array.isArray(x)) {
    x.forEach((v, i) => prune(v, s?.items, `${path}[${i}]`, unknown));
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    if (s?.embeddedResource && META_FIELDS.has(k)) continue;
    const child = fieldSchema(s, k);
    if (child) prune(x[k]!, child, appendKey(path, k), unknown);
    else {
      if (!META_FIELDS.has(k) || path !== '') unknown.push(appendKey(path, k));
      delete x[k];
    }
  }
}

/** Below x-kubernetes-preserve-unknown-fields: only what the schema specifies is pruned. */
function skipPrune(x: JsonValue, s: Structural, path: string, unknown: string[]): void {
  if (Array.isArray(x)) {
    if (s.items) x.forEach((v, i) => skipPrune(v, s.items!, `${path}[${i}]`, unknown));
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    if (s.embeddedResource && META_FIELDS.has(k)) continue;
    const child = fieldSchema(s, k);
    if (child) prune(x[k]!, child, appendKey(path, k), unknown);
  }
}

function isNonNullableNull(v: JsonValue | undefined, s: Structural | undefined): boolean {
  return v === null && !!s && !s.nullable;
}

function pruneNulls(x: JsonValue, s: Structural | undefined): void {
  if (Array.isArray(x)) {
    for (const v of x) pruneNulls(v, s?.items);
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    const child = fieldSchema(s, k);
    if (isNonNullableNull(x[k], child) && child!.default === undefined) delete x[k];
    else pruneNulls(x[k]!, child);
  }
}

/** metadata as ObjectMeta decoding leaves it: unknown fields out (and reported). */
function coerceMetadata(obj: JsonObject, unknown: string[]): void {
  const meta = obj.metadata;
  if (meta === undefined) return;
  if (!isObject(meta)) {
    delete obj.metadata;
    return;
  }
  for (const k of Object.keys(meta)) {
    if (isObjectMetaField(k)) continue;
    unknown.push(`metadata.${k}`);
    delete meta[k];
  }
}

/** Prunes a decoded custom resource in place; the unknown field paths, as kube-apiserver orders them. */
export function pruneCustomResource(obj: JsonObject, s: Structural): string[] {
  const metaUnknown: string[] = [];
  coerceMetadata(obj, metaUnknown);
  const unknown: string[] = [];
  // The root is an embedded resource: apiVersion, kind and metadata are not the schema's to prune.
  prune(obj, { ...s, embeddedResource: true }, '', unknown);
  pruneNulls(obj, s);
  return [...metaUnknown, ...unknown.sort()];
}
