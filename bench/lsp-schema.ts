/**
 * The JSON Schema yaml-language-server gets in the LSP benchmark, built from the same vendored
 * Kubernetes 1.35 OpenAPI v3 documents kubesim uses, shaped like the widely used "standalone
 * strict" schemas: draft-07, every components.schemas entry under `definitions`, no additional
 * properties where properties are listed, apiVersion and kind pinned for each top-level kind,
 * and a root `oneOf` over those kinds.
 */
import { listOpenApiPaths } from '../src/engine/api/openapi';
import { openapiDocumentJson } from '../src/engine/api/openapi/documents';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonMap = { [key: string]: Json };

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);
const SCHEMA_VALUES = new Set(['items', 'not', 'additionalItems']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);

function convert(node: Json): Json {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonMap = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace('#/components/schemas/', '#/definitions/');
    else if (SCHEMA_MAPS.has(k) && v && typeof v === 'object' && !Array.isArray(v)) out[k] = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, convert(pv)]));
    else if (SCHEMA_VALUES.has(k) || (k === 'additionalProperties' && typeof v === 'object')) out[k] = convert(v);
    else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) out[k] = v.map(convert);
    else out[k] = v;
  }
  if (out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

export interface BuiltSchema {
  schema: JsonMap;
  definitions: number;
  kinds: number;
}

export function buildKubernetesJsonSchema(): BuiltSchema {
  const all: JsonMap = {};
  for (const path of listOpenApiPaths()) {
    const doc = openapiDocumentJson(path) as unknown as { components?: { schemas?: JsonMap } } | undefined;
    Object.assign(all, doc?.components?.schemas ?? {});
  }
  const definitions: JsonMap = {};
  const kinds: string[] = [];
  for (const [name, raw] of Object.entries(all)) {
    const def = convert(raw) as JsonMap;
    const gvks = (raw as JsonMap)['x-kubernetes-group-version-kind'];
    if (Array.isArray(gvks) && gvks.length > 0) {
      kinds.push(name);
      const list = gvks as Array<{ group: string; version: string; kind: string }>;
      const props = (def.properties ?? {}) as JsonMap;
      props.apiVersion = { ...((props.apiVersion as JsonMap) ?? { type: 'string' }), enum: [...new Set(list.map((g) => (g.group ? `${g.group}/${g.version}` : g.version)))] };
      props.kind = { ...((props.kind as JsonMap) ?? { type: 'string' }), enum: [...new Set(list.map((g) => g.kind))] };
      def.properties = props;
    }
    definitions[name] = def;
  }
  const schema: JsonMap = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Kubernetes 1.35 (top-level kinds, strict), from the vendored OpenAPI v3 documents',
    oneOf: kinds.map((n) => ({ $ref: `#/definitions/${n}` })),
    definitions,
  };
  return { schema, definitions: Object.keys(definitions).length, kinds: kinds.length };
}
