/**
 * /openapi/v2 in protobuf: the Swagger 2.0 document of openapi-v2.ts encoded as gnostic's
 * openapi_v2.Document, which is what kubectl downloads (it accepts nothing else there). kubectl
 * reads it when /openapi/v3 does not describe a kind: to learn whether the server validates
 * fields itself, and for client-side validation. Vendor extensions, defaults, examples and enum
 * values are gnostic Any messages whose YAML text is the value's JSON (JSON is YAML).
 */
import { openapiV2Document } from './openapi-v2';
import type { ResourceRegistry } from '../engine/api/registry';
import { own } from '../engine/api/own';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonMap = { [k: string]: Json };

const isMap = (v: Json | undefined): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A message under construction: fields appended in the order written. */
class Message {
  private readonly parts: Uint8Array[] = [];

  private varint(n: bigint): void {
    const out: number[] = [];
    let v = BigInt.asUintN(64, n);
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    this.parts.push(Uint8Array.from(out));
  }

  private key(field: number, wireType: number): void {
    this.varint(BigInt((field << 3) | wireType));
  }

  bytes(field: number, b: Uint8Array): this {
    this.key(field, 2);
    this.varint(BigInt(b.byteLength));
    this.parts.push(b);
    return this;
  }

  string(field: number, v: Json | undefined): this {
    return typeof v === 'string' ? this.bytes(field, Buffer.from(v, 'utf8')) : this;
  }

  strings(field: number, v: Json | undefined): this {
    if (Array.isArray(v)) for (const s of v) this.string(field, s);
    return this;
  }

  bool(field: number, v: Json | undefined): this {
    if (v !== true) return this;
    this.key(field, 0);
    this.varint(1n);
    return this;
  }

  int(field: number, v: Json | undefined): this {
    if (typeof v !== 'number' || !Number.isInteger(v)) return this;
    this.key(field, 0);
    this.varint(BigInt(v));
    return this;
  }

  double(field: number, v: Json | undefined): this {
    if (typeof v !== 'number') return this;
    this.key(field, 1);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    this.parts.push(b);
    return this;
  }

  message(field: number, m: Message | undefined): this {
    return m ? this.bytes(field, m.encode()) : this;
  }

  encode(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

/** gnostic Any: the value as YAML text. */
const any = (v: Json): Message => new Message().string(2, JSON.stringify(v));

/** NamedAny entries for the `x-` keys of a map. */
function extensions(m: Message, field: number, obj: JsonMap): Message {
  for (const [k, v] of Object.entries(obj)) if (k.startsWith('x-')) m.message(field, new Message().string(1, k).message(2, any(v)));
  return m;
}

function schema(s: Json | undefined): Message | undefined {
  if (!isMap(s)) return undefined;
  const m = new Message()
    .string(1, s.$ref)
    .string(2, s.format)
    .string(3, s.title)
    .string(4, s.description)
    .message(5, s.default !== undefined ? any(s.default) : undefined)
    .double(6, s.multipleOf)
    .double(7, s.maximum)
    .bool(8, s.exclusiveMaximum)
    .double(9, s.minimum)
    .bool(10, s.exclusiveMinimum)
    .int(11, s.maxLength)
    .int(12, s.minLength)
    .string(13, s.pattern)
    .int(14, s.maxItems)
    .int(15, s.minItems)
    .bool(16, s.uniqueItems)
    .int(17, s.maxProperties)
    .int(18, s.minProperties)
    .strings(19, s.required);
  if (Array.isArray(s.enum)) for (const e of s.enum) m.message(20, any(e));
  const ap = s.additionalProperties;
  if (typeof ap === 'boolean') m.message(21, new Message().bool(2, ap));
  else m.message(21, isMap(ap) ? new Message().message(1, schema(ap)) : undefined);
  if (s.type !== undefined) m.message(22, new Message().strings(1, Array.isArray(s.type) ? s.type : [s.type]));
  if (isMap(s.items)) m.message(23, new Message().message(1, schema(s.items)));
  if (Array.isArray(s.allOf)) for (const a of s.allOf) m.message(24, schema(a));
  if (isMap(s.properties)) m.message(25, namedSchemas(s.properties));
  m.string(26, s.discriminator).bool(27, s.readOnly);
  if (s.example !== undefined) m.message(30, any(s.example));
  return extensions(m, 31, s);
}

/** Properties and Definitions share a shape: repeated NamedSchema at field 1. */
function namedSchemas(map: JsonMap): Message {
  const m = new Message();
  for (const [name, s] of Object.entries(map)) m.message(1, new Message().string(1, name).message(2, schema(s)));
  return m;
}

function primitivesItems(s: Json | undefined): Message | undefined {
  if (!isMap(s)) return undefined;
  return extensions(new Message().string(1, s.type).string(2, s.format).message(3, primitivesItems(s.items)).string(4, s.collectionFormat), 18, s);
}

/** A non-body parameter: query (3), path (4) or header (1) sub-schema, field numbers alike up to `type`. */
function nonBodyParameter(p: JsonMap): Message | undefined {
  const which = p.in === 'query' ? 3 : p.in === 'path' ? 4 : p.in === 'header' ? 1 : undefined;
  if (which === undefined) return undefined;
  const m = new Message().bool(1, p.required).string(2, p.in).string(3, p.description).string(4, p.name);
  // Query parameters have allowEmptyValue at 5, which moves every later field by one.
  const shift = which === 3 ? 1 : 0;
  if (which === 3) m.bool(5, p.allowEmptyValue);
  m.string(5 + shift, p.type)
    .string(6 + shift, p.format)
    .message(7 + shift, primitivesItems(p.items))
    .string(8 + shift, p.collectionFormat)
    .message(9 + shift, p.default !== undefined ? any(p.default) : undefined)
    .bool(19 + shift, p.uniqueItems);
  extensions(m, 22 + shift, p);
  return new Message().message(which, m);
}

function parametersItem(p: Json): Message | undefined {
  if (!isMap(p)) return undefined;
  if (typeof p.$ref === 'string') return new Message().message(2, new Message().string(1, p.$ref));
  if (p.in === 'body') {
    const body = extensions(new Message().string(1, p.description).string(2, p.name).string(3, p.in).bool(4, p.required).message(5, schema(p.schema)), 6, p);
    return new Message().message(1, new Message().message(1, body));
  }
  const nonBody = nonBodyParameter(p);
  return nonBody && new Message().message(1, new Message().message(2, nonBody));
}

function responses(r: Json | undefined): Message | undefined {
  if (!isMap(r)) return undefined;
  const m = new Message();
  for (const [code, v] of Object.entries(r)) {
    if (!isMap(v)) continue;
    const response = extensions(new Message().string(1, v.description).message(2, isMap(v.schema) ? new Message().message(1, schema(v.schema)) : undefined), 5, v);
    m.message(1, new Message().string(1, code).message(2, new Message().message(1, response)));
  }
  return m;
}

function operation(op: Json | undefined): Message | undefined {
  if (!isMap(op)) return undefined;
  const m = new Message().strings(1, op.tags).string(2, op.summary).string(3, op.description).string(5, op.operationId).strings(6, op.produces).strings(7, op.consumes);
  if (Array.isArray(op.parameters)) for (const p of op.parameters) m.message(8, parametersItem(p));
  m.message(9, responses(op.responses)).strings(10, op.schemes).bool(11, op.deprecated);
  return extensions(m, 13, op);
}

const OPERATION_FIELDS: [string, number][] = [
  ['get', 2],
  ['put', 3],
  ['post', 4],
  ['delete', 5],
  ['options', 6],
  ['head', 7],
  ['patch', 8],
];

function pathItem(item: JsonMap): Message {
  const m = new Message().string(1, item.$ref);
  for (const [verb, field] of OPERATION_FIELDS) m.message(field, operation(own(item, verb)));
  if (Array.isArray(item.parameters)) for (const p of item.parameters) m.message(9, parametersItem(p));
  return extensions(m, 10, item);
}

function securityDefinitions(defs: Json | undefined): Message | undefined {
  if (!isMap(defs)) return undefined;
  const m = new Message();
  for (const [name, d] of Object.entries(defs)) {
    if (!isMap(d) || d.type !== 'apiKey') continue;
    const apiKey = extensions(new Message().string(1, d.type).string(2, d.name).string(3, d.in).string(4, d.description), 5, d);
    m.message(1, new Message().string(1, name).message(2, new Message().message(2, apiKey)));
  }
  return m;
}

function encodeDocument(doc: JsonMap): Uint8Array {
  const m = new Message().string(1, doc.swagger);
  if (isMap(doc.info)) m.message(2, extensions(new Message().string(1, doc.info.title).string(2, doc.info.version).string(3, doc.info.description), 7, doc.info));
  m.string(3, doc.host).string(4, doc.basePath).strings(5, doc.schemes).strings(6, doc.consumes).strings(7, doc.produces);
  if (isMap(doc.paths)) {
    const paths = extensions(new Message(), 1, doc.paths);
    for (const [path, item] of Object.entries(doc.paths)) if (isMap(item) && !path.startsWith('x-')) paths.message(2, new Message().string(1, path).message(2, pathItem(item)));
    m.message(8, paths);
  }
  if (isMap(doc.definitions)) m.message(9, namedSchemas(doc.definitions));
  if (Array.isArray(doc.security)) {
    for (const req of doc.security) {
      if (!isMap(req)) continue;
      const r = new Message();
      for (const [name, scopes] of Object.entries(req)) r.message(1, new Message().string(1, name).message(2, new Message().strings(1, scopes)));
      m.message(12, r);
    }
  }
  m.message(13, securityDefinitions(doc.securityDefinitions));
  return extensions(m, 16, doc).encode();
}

const cache = new WeakMap<ResourceRegistry, { json: string; proto: Uint8Array }>();

/** The protobuf document, re-encoded when the JSON document changes. */
export function openapiV2Protobuf(registry: ResourceRegistry): Uint8Array {
  const json = openapiV2Document(registry);
  const hit = cache.get(registry);
  if (hit && hit.json === json) return hit.proto;
  const proto = encodeDocument(JSON.parse(json) as JsonMap);
  cache.set(registry, { json, proto });
  return proto;
}

/** The media types kube-apiserver answers with the protobuf document. */
const PROTOBUF_TYPES = new Set(['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'application/vnd.kubernetes.protobuf']);
const JSON_TYPES = new Set(['application/json', 'application/*', '*/*']);

/** Whether an Accept header's first clause that either encoding satisfies is a protobuf one. */
export function acceptsV2Protobuf(accept: string | undefined): boolean {
  for (const clause of (accept ?? '').split(',')) {
    const type = clause.split(';')[0]!.trim().toLowerCase();
    if (PROTOBUF_TYPES.has(type)) return true;
    if (JSON_TYPES.has(type)) return false;
  }
  return false;
}

/** The Content-Type kube-apiserver labels the protobuf document with. */
export const V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
