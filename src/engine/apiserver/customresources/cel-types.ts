/**
 * A structural schema as CEL sees it (k8s.io/apiserver/pkg/cel/common/schemas.go SchemaDeclType
 * and UnstructuredToVal): objects with properties become object types whose fields are the
 * escaped property names (`x-foo` is `x__dash__foo`, `namespace` is `__namespace__`), maps
 * (additionalProperties) map(string, T), arrays list(T), strings of format date-time and date
 * timestamps, duration durations, byte bytes; int-or-string and schemaless values are dyn. At the
 * resource root, apiVersion, kind and metadata.name/generateName are added. Object types are
 * named as kube names them after the scoped type (`selfType0.spec`, `.@idx`, `.@elem`).
 */
import type { JsonValue } from '../../api/types';
import { celError, durationFromNanos } from '../../cel/values';
import type { Structural } from './structural';
import { dict, setOwn, type Dict } from '../../api/own';
import { parseOpenAPIDuration } from '../../api/duration';

const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** cel.Escape: the CEL field name of a property, undefined when it has none. */
export function escapeProperty(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (/[^a-zA-Z0-9_.\-/]/.test(name)) return undefined;
  return name.replace(/__|[-./]/g, (m) => (m === '__' ? '__underscores__' : m === '.' ? '__dot__' : m === '-' ? '__dash__' : '__slash__'));
}

export interface ObjectType {
  name: string;
  fields: Record<string, string>;
}

/** The schema with apiVersion, kind and metadata (name, generateName) as the resource root has them. */
export function withTypeAndObjectMeta(s: Structural): Structural {
  const str = (): Structural => ({ ...s, type: 'string', format: '', properties: new Map(), additionalProperties: undefined, items: undefined, required: [], enum: undefined, preserveUnknownFields: false, embeddedResource: false, intOrString: false, listType: undefined, listMapKeys: [], mapType: undefined, validations: [], maxLength: undefined, maxItems: undefined, maxProperties: undefined, default: undefined });
  // name and generateName are capped at a DNS subdomain's 253 bytes (the generated suffix takes at least one)
  const capped = (existing: Structural | undefined, max: number): Structural => ({ ...str(), maxLength: existing?.maxLength !== undefined && existing.maxLength < max ? existing.maxLength : max });
  const meta = s.properties.get('metadata');
  const props = new Map(s.properties);
  props.set('apiVersion', str());
  props.set('kind', str());
  props.set('metadata', { ...str(), type: 'object', properties: new Map([['name', capped(meta?.properties.get('name'), 253)], ['generateName', capped(meta?.properties.get('generateName'), 252)]]) });
  return { ...s, properties: props };
}

/** The CEL type name of a schema node, registering the object types it needs. */
export function declType(s: Structural, name: string, types: ObjectType[]): string {
  if (s.intOrString) return 'dyn';
  const node = s.embeddedResource ? withTypeAndObjectMeta(s) : s;
  switch (node.type) {
    case 'array':
      return node.items ? `list<${declType(node.items, `${name}.@idx`, types)}>` : 'dyn';
    case 'object': {
      if (node.additionalProperties && node.properties.size === 0) return `map<string, ${declType(node.additionalProperties, `${name}.@elem`, types)}>`;
      if (node.properties.size === 0) return node.preserveUnknownFields || node.embeddedResource ? 'dyn' : 'map<string, dyn>';
      const fields: Record<string, string> = {};
      for (const [prop, sub] of [...node.properties].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const field = escapeProperty(prop);
        if (field) setOwn(fields, field, declType(sub, `${name}.${field}`, types));
      }
      types.push({ name, fields });
      return name;
    }
    case 'string':
      if (node.format === 'byte') return 'bytes';
      if (node.format === 'duration') return 'google.protobuf.Duration';
      if (node.format === 'date' || node.format === 'date-time') return 'google.protobuf.Timestamp';
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return 'double';
    case 'integer':
      return 'int';
  }
  return 'dyn';
}

/** A JSON value of a schema node as the CEL value its declared type expects. */
export function typedValue(v: JsonValue | undefined, s: Structural | undefined): unknown {
  if (v === undefined || v === null) return null;
  if (!s || s.intOrString) return untyped(v);
  const node = s.embeddedResource ? withTypeAndObjectMeta(s) : s;
  switch (node.type) {
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : untyped(v);
    case 'number':
      return typeof v === 'number' ? v : untyped(v);
    case 'string': {
      if (typeof v !== 'string') return untyped(v);
      if (node.format === 'byte') return Uint8Array.from(Buffer.from(v, 'base64'));
      if (node.format === 'date' || node.format === 'date-time') return Number.isNaN(Date.parse(v)) ? v : new Date(v);
      if (node.format === 'duration') {
        // UnstructuredToVal reads a format: duration string with strfmt.ParseDuration.
        const n = parseOpenAPIDuration(v);
        if (!n.ok) return new InvalidValue(`Invalid duration ${v}: ${n.error}`);
        return durationFromNanos(n.value);
      }
      return v;
    }
    case 'array':
      if (!Array.isArray(v)) return untyped(v);
      const list: unknown[] = [];
      v.forEach((x, i) => setTyped(list, i, typedValue(x, node.items)));
      return list;
    case 'object': {
      if (typeof v !== 'object' || Array.isArray(v)) return untyped(v);
      const out = dict<unknown>();
      if (node.properties.size === 0) {
        for (const [k, x] of Object.entries(v)) if (x !== undefined) setTyped(out, k, node.additionalProperties ? typedValue(x, node.additionalProperties) : untyped(x));
        return out;
      }
      for (const [k, x] of Object.entries(v)) {
        const prop = node.properties.get(k);
        const field = prop ? escapeProperty(k) : undefined;
        if (prop && field && x !== undefined) setTyped(out, field, typedValue(x, prop));
      }
      return out;
    }
  }
  return untyped(v);
}

/**
 * A value UnstructuredToVal makes a CEL error of (a format: duration string strfmt cannot parse):
 * as in cel-go, the error is the value of the field or element, so a rule fails with it only where
 * it reads the value (has() included), and a rule that does not read it is evaluated as usual.
 */
export class InvalidValue {
  constructor(readonly message: string) {}
}

/** Sets a typed value: an InvalidValue as a property whose reading throws its CEL error. */
export function setTyped(out: Dict<unknown> | unknown[], key: string | number, v: unknown): void {
  if (!(v instanceof InvalidValue)) {
    if (Array.isArray(out)) out[Number(key)] = v;
    else out[String(key)] = v;
    return;
  }
  Object.defineProperty(out, key, {
    enumerable: true,
    get: () => {
      throw celError(v.message);
    },
  });
}

function untyped(v: JsonValue): unknown {
  if (v === null) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(untyped);
  if (typeof v === 'object') {
    const out = dict<unknown>();
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = untyped(x);
    return out;
  }
  return v;
}
