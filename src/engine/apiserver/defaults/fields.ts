/**
 * Go's zero-value tests over v1 JSON. Upstream defaulters run on decoded Go structs, where an
 * absent field, a JSON null and the zero value are indistinguishable for non-pointer fields,
 * and absent and null are both nil for pointers, slices and maps. These helpers give the same
 * answers for the wire shape, so each defaulter reads like its upstream counterpart.
 *
 * A field of the wrong JSON type never reaches a defaulter in kube-apiserver (strict decoding
 * rejects it first); here such a field is treated as set and left for validation to report.
 */
import { isObject, type JsonObject, type JsonValue, type KubeObject } from '../../api/types';
import type { Defaulter } from './registry';
import { own, setOwn } from '../../api/own';

/** A pointer, slice or map field that is nil. */
export function isNil(v: unknown): v is undefined | null {
  return v === undefined || v === null;
}

/** A string field equal to "" (absent, null or empty). */
export function isEmptyString(v: unknown): boolean {
  return isNil(v) || v === '';
}

/** An integer field equal to 0 (absent, null or 0). */
export function isZero(v: unknown): boolean {
  return isNil(v) || v === 0;
}

/** len(x) == 0 for a slice or map field. */
export function isEmpty(v: unknown): boolean {
  if (isNil(v)) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return Object.keys(v).length === 0;
  return false;
}

/** Sets a pointer, slice or map field that is nil. */
export function defaultNil(o: JsonObject, key: string, value: JsonValue): void {
  if (isNil(own(o, key))) setOwn(o, key, value);
}

/** Sets a string field that is "". */
export function defaultEmptyString(o: JsonObject, key: string, value: string): void {
  if (isEmptyString(own(o, key))) setOwn(o, key, value);
}

/** Sets an integer field that is 0. */
export function defaultZero(o: JsonObject, key: string, value: number): void {
  if (isZero(own(o, key))) setOwn(o, key, value);
}

/** A struct or pointer-to-struct field, if present. */
export function objectAt(o: JsonObject, key: string): JsonObject | undefined {
  const v = own(o, key);
  return isObject(v) ? v : undefined;
}

/**
 * A non-pointer struct field: Go always has it, so defaults written below it create it.
 * Undefined only when the field holds some other JSON type.
 */
export function structAt(o: JsonObject, key: string): JsonObject | undefined {
  const v = own(o, key);
  if (isObject(v)) return v;
  if (!isNil(v)) return undefined;
  const created: JsonObject = {};
  setOwn(o, key, created);
  return created;
}

/**
 * A map field to fill: the existing map, or a new detached one when nil (the caller stores it
 * only if it ends up non-empty, since Go omits empty maps). Undefined for any other JSON type.
 */
export function mapToFill(o: JsonObject, key: string): JsonObject | undefined {
  const v = own(o, key);
  if (isObject(v)) return v;
  return isNil(v) ? {} : undefined;
}

/** The object elements of a slice field. */
export function objectsIn(o: JsonObject, key: string): JsonObject[] {
  const v = own(o, key);
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** Adapts a defaulter over the JSON object to the registry's signature. */
export function jsonDefaulter(fn: (obj: JsonObject) => void): Defaulter {
  return (obj: KubeObject) => {
    if (isObject(obj)) fn(obj);
  };
}

/** The object's metadata, created when absent (ObjectMeta is a struct field). */
export function metadataOf(obj: JsonObject): JsonObject | undefined {
  return structAt(obj, 'metadata');
}
