/**
 * The OpenAPI schemas of the built-in kinds, compiled on demand from the vendored documents:
 * `schemaForKind` for decoding, patching and validation, `schemaAtPath` for hover.
 */
import { compileDefinition } from './compile';
import { kindLocation, openapiDocumentJson } from './documents';
import type { SchemaNode } from './types';

/** Each built-in kind's compiled schema, found once (the decoder, the field manager and validation ask on every request). */
const byKind = new Map<string, SchemaNode>();

export function schemaForKind(group: string, version: string, kind: string): SchemaNode | undefined {
  const name = `${group}/${version}/${kind}`;
  const found = byKind.get(name);
  if (found) return found;
  const where = kindLocation(group, version, kind);
  const doc = where && openapiDocumentJson(where.path);
  const schema = where && doc ? compileDefinition(where.definition, doc.components.schemas) : undefined;
  // Only kinds that exist are kept: a request may name any kind.
  if (schema) byKind.set(name, schema);
  return schema;
}

/**
 * The schema of the value at `path` below `node`: strings name properties or map keys, numbers
 * index lists. Undefined where the schema does not describe the value (unknown fields, or below
 * a node that holds arbitrary JSON).
 */
export function schemaAtPath(node: SchemaNode, path: ReadonlyArray<string | number>): SchemaNode | undefined {
  let current: SchemaNode | undefined = node;
  for (const segment of path) {
    if (!current) return undefined;
    if (typeof segment === 'number') current = current.items;
    else if (current.properties) current = current.properties[segment];
    else current = typeof current.additionalProperties === 'object' ? current.additionalProperties : undefined;
  }
  return current;
}

export { groupVersionPath, kindLocation, listOpenApiPaths, openapiDocument, openapiDocumentHash } from './documents';
export type { SchemaNode } from './types';
