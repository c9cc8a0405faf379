/**
 * Structural defaulting (apiextensions-apiserver schema/defaulting): absent fields, and nulls
 * where the schema does not allow null, take the schema's default, at every level below.
 */
import { isObject, type JsonValue } from '../../api/types';
import type { Structural } from './structural';
import { own, setOwn } from '../../api/own';

const copy = (v: JsonValue): JsonValue => structuredClone(v);
const nonNullableNull = (v: JsonValue | undefined, s: Structural | undefined): s is Structural => v === null && !!s && !s.nullable && s.default !== undefined;

export function applySchemaDefaults(x: JsonValue, s: Structural | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (nonNullableNull(x[i], s.items)) x[i] = copy(s.items.default!);
      applySchemaDefaults(x[i]!, s.items);
    }
    return;
  }
  if (!isObject(x)) return;
  for (const [k, prop] of s.properties) {
    if (prop.default === undefined) continue;
    if (own(x, k) === undefined || nonNullableNull(own(x, k), prop)) setOwn(x, k, copy(prop.default));
  }
  for (const k of Object.keys(x)) {
    const prop = s.properties.get(k);
    if (prop) applySchemaDefaults(x[k]!, prop);
    else if (s.additionalProperties) {
      if (nonNullableNull(x[k], s.additionalProperties)) x[k] = copy(s.additionalProperties.default!);
      applySchemaDefaults(x[k]!, s.additionalProperties);
    }
  }
}
