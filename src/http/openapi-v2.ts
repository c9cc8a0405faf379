/**
 * /openapi/v2 as JSON: a Swagger 2.0 document assembled from the vendored v3 documents of the
 * served group-versions (definitions from components.schemas, request bodies as "body"
 * parameters, response schemas unwrapped). kube-apiserver serves v2 from its own source; this
 * is the same API described in the older dialect. kubectl asks for it in protobuf
 * (openapi-v2-proto.ts).
 */
import type { ResourceRegistry } from '../engine/api/registry';
import { openapiDocument } from '../engine/api/openapi';
import { encodeJson } from './json';
import { servedOpenApiPaths } from './openapi';
import { KUBERNETES_VERSION } from './version';
import { setOwn } from '../engine/api/own';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonMap = { [k: string]: Json };

const isMap = (v: Json | undefined): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A v3 schema in v2 terms: refs to #/definitions, single-ref allOf wrappers unwrapped. */
function schemaV2(s: Json): Json {
  if (Array.isArray(s)) return s.map(schemaV2);
  if (!isMap(s)) return s;
  const allOf = s.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && isMap(allOf[0]) && typeof allOf[0].$ref === 'string') {
    const out: JsonMap = { $ref: refV2(allOf[0].$ref) };
    if (typeof s.description === 'string') out.description = s.description;
    return out;
  }
  const out: JsonMap = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'nullable') continue;
    if (k === 'properties' && isMap(v)) out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, schemaV2(p)]));
    else setOwn(out, k, k === '$ref' && typeof v === 'string' ? refV2(v) : k === 'default' || k === 'example' || k === 'enum' ? v : schemaV2(v));
  }
  return out;
}

const refV2 = (ref: string): string => ref.replace('#/components/schemas/', '#/definitions/');

function parameterV2(p: Json): Json {
  if (!isMap(p)) return p;
  const { schema, ...rest } = p;
  return { ...rest, ...(isMap(schema) ? (schemaV2(schema) as JsonMap) : {}) };
}

function operationV2(op: JsonMap): JsonMap {
  const out: JsonMap = {};
  const consumes = new Set<string>();
  const produces = new Set<string>();
  const parameters: Json[] = Array.isArray(op.parameters) ? op.parameters.map(parameterV2) : [];
  if (isMap(op.requestBody) && isMap(op.requestBody.content)) {
    const content = op.requestBody.content;
    Object.keys(content).forEach((t) => consumes.add(t));
    const first = Object.values(content)[0];
    parameters.unshift({ in: 'body', name: 'body', required: op.requestBody.required === true, schema: isMap(first) ? schemaV2(first.schema ?? {}) : {} });
  }
  const responses: JsonMap = {};
  for (const [code, r] of Object.entries(isMap(op.responses) ? op.responses : {})) {
    if (!isMap(r)) continue;
    const resp: JsonMap = { description: r.description ?? '' };
    if (isMap(r.content)) {
      Object.keys(r.content).forEach((t) => produces.add(t));
      const first = Object.values(r.content)[0];
      if (isMap(first) && first.schema !== undefined) resp.schema = schemaV2(first.schema);
    }
    setOwn(responses, code, resp);
  }
  for (const [k, v] of Object.entries(op)) {
    if (k === 'parameters' || k === 'requestBody' || k === 'responses') continue;
    setOwn(out, k, v);
  }
  if (consumes.size > 0) out.consumes = [...consumes];
  if (produces.size > 0) out.produces = [...produces];
  if (parameters.length > 0) out.parameters = parameters;
  out.responses = responses;
  return out;
}

const OPERATIONS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch']);

function build(registry: ResourceRegistry): string {
  const paths: JsonMap = {};
  const definitions: JsonMap = {};
  for (const p of servedOpenApiPaths(registry)) {
    const doc = JSON.parse(Buffer.from(openapiDocument(p)!).toString('utf8')) as JsonMap;
    const schemas = isMap(doc.components) && isMap(doc.components.schemas) ? doc.components.schemas : {};
    for (const [name, s] of Object.entries(schemas)) if (!Object.hasOwn(definitions, name)) setOwn(definitions, name, schemaV2(s));
    for (const [path, item] of Object.entries(isMap(doc.paths) ? doc.paths : {})) {
      if (!isMap(item)) continue;
      const out: JsonMap = {};
      for (const [k, v] of Object.entries(item)) {
        if (OPERATIONS.has(k) && isMap(v)) setOwn(out, k, operationV2(v));
        else if (k === 'parameters' && Array.isArray(v)) out.parameters = v.map(parameterV2);
        else setOwn(out, k, v);
      }
      setOwn(paths, path, out);
    }
  }
  const sorted = (m: JsonMap): JsonMap => Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]!]));
  return encodeJson({
    swagger: '2.0',
    info: { title: 'Kubernetes', version: KUBERNETES_VERSION },
    paths: sorted(paths),
    definitions: sorted(definitions),
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  });
}

const cache = new WeakMap<ResourceRegistry, { key: string; doc: string }>();

/** The document for the registry's current group-versions (rebuilt when they change). */
export function openapiV2Document(registry: ResourceRegistry): string {
  const key = servedOpenApiPaths(registry).join(',');
  const hit = cache.get(registry);
  if (hit && hit.key === key) return hit.doc;
  const doc = build(registry);
  cache.set(registry, { key, doc });
  return doc;
}
