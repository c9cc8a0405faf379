/**
 * A custom resource checked against its structural schema as kube-apiserver does it (kube-openapi's
 * validator, its errors turned into field errors by apiextensions-apiserver): messages name the
 * value's path "in body" (`spec.replicas in body must be of type integer: "string"`), required,
 * enum, maxLength and maxItems become Required, Unsupported, Too long and Too many errors, list
 * sets and maps may not repeat. On update, a value equal to the old one is not checked again
 * (validation ratcheting). CEL rules (x-kubernetes-validations) are cel-rules.ts's.
 */
import { duplicate, invalid, notSupported, Path, required, tooLong, tooMany, typeInvalid, type ErrorList, type FieldError } from '../../api/field';
import { goFloat, goQuote } from '../../api/gofmt';
import { isDNS1035Label, isDNS1123Subdomain } from '../../api/names';
import { isObject, type JsonValue } from '../../api/types';
import { semanticEqual } from '../validation/meta';
import type { Structural } from './structural';
import { own, table } from '../../api/own';
import { parseOpenAPIDuration } from '../../api/duration';

/** The JSON type kube-openapi names a value by ("integer" only for whole numbers). */
function jsonType(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

function typeMatches(type: string, actual: string): boolean {
  return type === actual || (type === 'number' && actual === 'integer');
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The formats kube-apiserver checks (others are stripped from the schema and accept anything). */
const FORMATS = table<(s: string) => boolean>({
  'date-time': (s) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s.replace(' ', 'T'))),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)),
  byte: (s) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID.test(s) && /^[0-9a-f]{8}-?[0-9a-f]{4}-?3/i.test(s),
  uuid4: (s) => UUID.test(s) && /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab]/i.test(s),
  uuid5: (s) => UUID.test(s) && /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab]/i.test(s),
  ipv4: (s) => IPV4.test(s),
  ipv6: (s) => s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s),
  cidr: (s) => /^[0-9a-fA-F:.]+\/\d{1,3}$/.test(s),
  mac: (s) => /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/.test(s),
  hostname: (s) => s.length <= 255 && /^[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*\.?$/.test(s),
  email: (s) => /^[^@\s]+@[^@\s]+$/.test(s),
  uri: (s) => /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$|^\/[^\s]*$/.test(s),
  // strfmt.IsDuration: Go's time.ParseDuration form, else the Scala-like "3 days", "1h 30 min".
  duration: (s) => parseOpenAPIDuration(s).ok,
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  'k8s-short-name': (s) => isDNS1035Label(s).length === 0,
  'k8s-long-name': (s) => isDNS1123Subdomain(s).length === 0,
});

const formatCheck = (format: string): ((s: string) => boolean) | undefined => FORMATS[format] ?? FORMATS[format.replace(/^datetime$/, 'date-time')];

interface Walk {
  /** The path kube-openapi names values by in its messages ("spec.replicas"). */
  name: string;
  /** The field path errors are reported at (the name, below a prefix for status). */
  path: Path | undefined;
}

function child(w: Walk, key: string): Walk {
  const name = w.name ? `${w.name}.${key}` : key;
  return { name, path: w.path ? w.path.child(key) : Path.root(name) };
}

function item(w: Walk, i: number): Walk {
  return { name: `${w.name}[${i}]`, path: w.path ? w.path.index(i) : Path.root(`[${i}]`) };
}

const inBody = (w: Walk, what: string): string => `${w.name} in body ${what}`;

function validateNumber(v: number, s: Structural, w: Walk, errs: ErrorList): void {
  if (s.multipleOf !== undefined && s.multipleOf !== 0 && !Number.isInteger(v / s.multipleOf)) errs.push(invalid(w.path, v, inBody(w, `should be a multiple of ${goFloat(s.multipleOf)}`)));
  if (s.maximum !== undefined && (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum)) {
    errs.push(invalid(w.path, v, inBody(w, `should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${goFloat(s.maximum)}`)));
  }
  if (s.minimum !== undefined && (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum)) {
    errs.push(invalid(w.path, v, inBody(w, `should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${goFloat(s.minimum)}`)));
  }
}

function validateString(v: string, s: Structural, w: Walk, errs: ErrorList): void {
  const length = [...v].length;
  if (s.maxLength !== undefined && length > s.maxLength) errs.push(tooLong(w.path, s.maxLength));
  if (s.minLength !== undefined && length < s.minLength) errs.push(invalid(w.path, v, inBody(w, `should be at least ${s.minLength} chars long`)));
  if (s.pattern !== undefined && !matches(s.pattern, v)) errs.push(invalid(w.path, v, inBody(w, `should match '${s.pattern}'`)));
  const check = s.format ? formatCheck(s.format) : undefined;
  if (check && !check(v)) errs.push(typeInvalid(w.path, v, inBody(w, `must be of type ${s.format}: ${goQuote(v)}`)));
}

function matches(pattern: string, v: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(v);
  } catch {
    return true;
  }
}

function validateList(v: JsonValue[], s: Structural, w: Walk, old: JsonValue | undefined, errs: ErrorList): void {
  if (s.maxItems !== undefined && v.length > s.maxItems) errs.push(tooMany(w.path, v.length, s.maxItems));
  if (s.minItems !== undefined && v.length < s.minItems) errs.push(invalid(w.path, v.length, inBody(w, `should have at least ${s.minItems} items`)));
  if (s.uniqueItems && v.some((x, i) => v.findIndex((y) => semanticEqual(x, y)) !== i)) errs.push(invalid(w.path, '', inBody(w, "shouldn't contain duplicates")));
  const oldList = Array.isArray(old) ? old : [];
  v.forEach((x, i) => validateValue(x, s.items, item(w, i), correlate(x, oldList, s, i), errs));
  listTypeErrors(v, s, w, errs);
}

/** The old element an element of a list is compared with: by map keys, by value in sets, else by position. */
function correlate(x: JsonValue, old: JsonValue[], s: Structural, i: number): JsonValue | undefined {
  if (s.listType === 'map' && isObject(x)) return old.find((o) => isObject(o) && s.listMapKeys.every((k) => semanticEqual(own(o, k), own(x, k))));
  if (s.listType === 'set') return old.find((o) => semanticEqual(o, x));
  return old[i];
}

/** structurallisttype.ValidateListSetsAndMaps: no repeated set elements or map keys. */
function listTypeErrors(v: JsonValue[], s: Structural, w: Walk, errs: ErrorList): void {
  if (s.listType === 'set') {
    v.forEach((x, i) => {
      if (v.findIndex((y) => semanticEqual(x, y)) !== i) errs.push(duplicate(item(w, i).path, x));
    });
  } else if (s.listType === 'map') {
    const keyOf = (x: JsonValue): JsonValue => (isObject(x) ? Object.fromEntries(s.listMapKeys.filter((k) => own(x, k) !== undefined).map((k) => [k, own(x, k)!])) : x);
    v.forEach((x, i) => {
      if (v.findIndex((y) => semanticEqual(keyOf(x), keyOf(y))) !== i) errs.push(duplicate(item(w, i).path, keyOf(x)));
    });
  }
}

function validateObject(v: Record<string, JsonValue | undefined>, s: Structural, w: Walk, old: JsonValue | undefined, errs: ErrorList): void {
  const keys = Object.keys(v);
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) errs.push(tooMany(w.path, keys.length, s.maxProperties));
  if (s.minProperties !== undefined && keys.length < s.minProperties) errs.push(invalid(w.path, keys.length, inBody(w, `should have at least ${s.minProperties} properties`)));
  for (const k of s.required) if (own(v, k) === undefined) errs.push(required(child(w, k).path, ''));
  const oldObj = isObject(old) ? old : {};
  for (const k of keys.sort()) {
    const prop = s.properties.get(k) ?? s.additionalProperties;
    if (prop) validateValue(own(v, k)!, prop, child(w, k), own(oldObj, k), errs);
  }
}

function validateValue(v: JsonValue, s: Structural | undefined, w: Walk, old: JsonValue | undefined, errs: ErrorList): void {
  if (!s || (old !== undefined && semanticEqual(v, old))) return;
  const actual = jsonType(v);
  if (v === null && s.nullable) return;
  if (s.intOrString) {
    if (actual !== 'integer' && actual !== 'string') errs.push(typeInvalid(w.path, actual, inBody(w, `must be of type integer,string: ${goQuote(actual)}`)));
  } else if (s.type && !typeMatches(s.type, actual)) {
    errs.push(typeInvalid(w.path, actual, inBody(w, `must be of type ${s.type}: ${goQuote(actual)}`)));
    return;
  }
  if (s.enum && !s.enum.some((e) => semanticEqual(e, v))) {
    errs.push(notSupported(w.path, v, s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  if (typeof v === 'number') validateNumber(v, s, w, errs);
  else if (typeof v === 'string') validateString(v, s, w, errs);
  else if (Array.isArray(v)) validateList(v, s, w, old, errs);
  else if (isObject(v)) validateObject(v, s, w, old, errs);
}

/**
 * The errors of a value against a schema. `prefix` is the field path of the value (status when
 * the status subresource checks its part); messages name paths below it. With `old`, unchanged
 * values are not checked.
 */
export function validateCustomResource(value: JsonValue, s: Structural, prefix?: Path, old?: JsonValue): FieldError[] {
  const errs: ErrorList = [];
  validateValue(value, s, { name: '', path: prefix }, old, errs);
  return errs;
}
