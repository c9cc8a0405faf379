/**
 * Request bodies in Kubernetes' protobuf encoding ("k8s\0" + runtime.Unknown wrapping the
 * object's generated.proto message), as kubectl's typed clients send them (create configmap,
 * auth can-i, drain's evictions), turned into the JSON object the engine decodes. Field layouts
 * come from generated.proto (messages.json); which fields are Go pointers comes from go-types, so
 * zero values of plain fields are left out as Go's JSON encoding would.
 */
import { openapiKindDefinition } from './kinds';
import MESSAGES from './messages.json';
import { fields, WireError, type Field, Reader } from './wire';
import { goStruct, underlyingType } from '../../engine/apiserver/decode/go-types';
import type { JsonObject, JsonValue } from '../../engine/api/types';
import { own, setOwn } from '../../engine/api/own';

type Mode = 0 | 1 | 2;
type FieldDef = [number, string, string | [string, string], Mode];
const messages = MESSAGES as unknown as Record<string, FieldDef[]>;

export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = [0x6b, 0x38, 0x73, 0x00];

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const TIME = `${META}.Time`;
const MICRO_TIME = `${META}.MicroTime`;
const DURATION = `${META}.Duration`;
const FIELDS_V1 = `${META}.FieldsV1`;
const QUANTITY = 'k8s.io.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'k8s.io.apimachinery.pkg.util.intstr.IntOrString';
const RAW_EXTENSION = 'k8s.io.apimachinery.pkg.runtime.RawExtension';

const utf8 = new TextDecoder('utf-8');

function signed(v: bigint, type: string): number | string {
  const n = BigInt.asIntN(64, v);
  if (type === 'int32' || type === 'sint32') return Number(BigInt.asIntN(32, n));
  return Number.isSafeInteger(Number(n)) ? Number(n) : n.toString();
}

function scalar(f: Field, type: string): JsonValue {
  switch (type) {
    case 'string':
      return utf8.decode(f.bytes ?? new Uint8Array());
    case 'bytes':
      return Buffer.from(f.bytes ?? new Uint8Array()).toString('base64');
    case 'bool':
      return (f.value ?? 0n) !== 0n;
    case 'double':
      return new DataView(new BigUint64Array([f.value ?? 0n]).buffer).getFloat64(0, true);
    case 'float':
      return new DataView(new Uint32Array([Number(f.value ?? 0n)]).buffer).getFloat32(0, true);
    default:
      return signed(f.value ?? 0n, type);
  }
}

/** time.Duration.String(): "1h2m3.5s", "300ms", "0s". */
function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let u = Math.abs(ns);
  const sign = neg ? '-' : '';
  if (u < 1e9) {
    const [unit, div] = u < 1e3 ? ['ns', 1] : u < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    return `${sign}${trimFraction(u / div)}${unit}`;
  }
  const h = Math.floor(u / 3.6e12);
  u -= h * 3.6e12;
  const m = Math.floor(u / 6e10);
  u -= m * 6e10;
  const s = `${trimFraction(u / 1e9)}s`;
  return sign + (h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s);
}

const trimFraction = (x: number): string => x.toFixed(9).replace(/\.?0+$/, '');

function special(type: string, sub: Record<number, Field>): JsonValue | undefined {
  const num = (n: number): number => Number(BigInt.asIntN(64, sub[n]?.value ?? 0n));
  switch (type) {
    case TIME:
    case MICRO_TIME: {
      const seconds = num(1);
      const nanos = num(2);
      if (seconds === 0 && nanos === 0) return null;
      const iso = new Date(seconds * 1000).toISOString();
      return type === TIME ? iso.replace(/\.\d{3}Z$/, 'Z') : `${iso.slice(0, 19)}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
    }
    case DURATION:
      return goDuration(num(1));
    case QUANTITY:
      return utf8.decode(sub[1]?.bytes ?? new Uint8Array());
    case INT_OR_STRING:
      return num(1) === 1 ? utf8.decode(sub[3]?.bytes ?? new Uint8Array()) : num(2);
    case RAW_EXTENSION:
    case FIELDS_V1: {
      const raw = sub[1]?.bytes;
      return raw && raw.length > 0 ? (JSON.parse(utf8.decode(raw)) as JsonValue) : null;
    }
    default:
      return undefined;
  }
}

/** "k8s.io.api.apps.v1.DeploymentSpec" -> the Go struct behind "io.k8s.api.apps.v1.DeploymentSpec". */
function goFields(message: string): Readonly<Record<string, string>> | undefined {
  return goStruct(message.replace(/^k8s\.io\./, 'io.k8s.'))?.fields;
}

const ZERO_SCALARS = new Set(['string', 'bool', 'int', 'int32', 'int64', 'uint32', 'uint64', 'float32', 'float64', 'byte']);

/** A plain (non-pointer) Go scalar whose zero value Go's JSON encoder leaves out. */
function omitsZero(goType: string | undefined): boolean {
  return goType !== undefined && ZERO_SCALARS.has(underlyingType(goType));
}

const isZero = (v: JsonValue): boolean => v === '' || v === 0 || v === false;

function value(f: Field, type: string): JsonValue {
  if (typeof type === 'string' && own(messages, type) === undefined) return scalar(f, type);
  return message(f.bytes ?? new Uint8Array(), type);
}

/** Repeated scalar numbers may come packed in one length-delimited field. */
function expand(f: Field, type: string): JsonValue[] {
  if (f.wireType !== 2 || type === 'string' || type === 'bytes' || own(messages, type) !== undefined) return [value(f, type)];
  const r = new Reader(f.bytes!);
  const out: JsonValue[] = [];
  while (!r.done) out.push(scalar({ number: f.number, wireType: 0, value: r.varint() }, type));
  return out;
}

export function message(buf: Uint8Array, type: string): JsonValue {
  const defs = own(messages, type);
  if (!defs) throw new WireError(`no protobuf message ${type}`);
  const all = fields(buf);
  const firsts: Record<number, Field> = {};
  for (const f of all) firsts[f.number] ??= f;
  const s = special(type, firsts);
  if (s !== undefined) return s;
  const go = goFields(type);
  const out: JsonObject = {};
  for (const [number, name, ftype, mode] of defs) {
    const present = all.filter((f) => f.number === number);
    if (present.length === 0) continue;
    if (mode === 2) {
      const [ktype, vtype] = ftype as [string, string];
      const map: JsonObject = {};
      for (const entry of present) {
        const kv: Record<number, Field> = {};
        for (const e of fields(entry.bytes ?? new Uint8Array())) kv[e.number] = e;
        const k = kv[1] ? value(kv[1], ktype) : '';
        setOwn(map, String(k), kv[2] ? value(kv[2], vtype) : own(messages, vtype) ? message(new Uint8Array(), vtype) : scalar({ number: 2, wireType: 0, value: 0n }, vtype));
      }
      setOwn(out, name, map);
    } else if (mode === 1) {
      setOwn(out, name, present.flatMap((f) => expand(f, ftype as string)));
    } else {
      const v = value(present[present.length - 1]!, ftype as string);
      if (isZero(v) && omitsZero(own(go, name))) continue;
      setOwn(out, name, v);
    }
  }
  return out;
}

export function isProtobuf(body: Uint8Array): boolean {
  return body.length >= 4 && MAGIC.every((b, i) => body[i] === b);
}

/** The object a protobuf request body holds, as JSON, or an error message. */
export function decodeProtobuf(body: Uint8Array): JsonObject | string {
  if (!isProtobuf(body)) return 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]';
  try {
    const unknown = message(body.subarray(4), 'k8s.io.apimachinery.pkg.runtime.Unknown') as JsonObject;
    const typeMeta = (unknown.typeMeta ?? {}) as JsonObject;
    const apiVersion = typeof typeMeta.apiVersion === 'string' ? typeMeta.apiVersion : '';
    const kind = typeof typeMeta.kind === 'string' ? typeMeta.kind : '';
    const definition = openapiKindDefinition(apiVersion, kind);
    if (!definition) return `no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:110"`;
    const raw = Buffer.from(typeof unknown.raw === 'string' ? unknown.raw : '', 'base64');
    const object = message(raw, definition.replace(/^io\.k8s\./, 'k8s.io.')) as JsonObject;
    return { apiVersion, kind, ...object };
  } catch (err) {
    if (err instanceof WireError || err instanceof SyntaxError) return err.message;
    throw err;
  }
}
