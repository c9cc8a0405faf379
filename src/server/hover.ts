/**
 * Hover: what `kubectl explain` says about the field under the cursor -- its type and its
 * description from the OpenAPI data; on `kind` and `apiVersion`, the resource's description.
 */
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import { schemaAtPath, schemaForKind, type SchemaNode } from '../engine/api/openapi';
import { parseApiVersion } from '../engine/api/types';
import { offsetAt, type Unit } from './units';
import { pathAt, stringAt } from './yaml-tree';

/** kubectl explain's type names: <string>, <[]Container>, <map[string]string>, <Quantity>. */
export function typeName(node: SchemaNode): string {
  if (node.intOrString) return 'IntOrString';
  if (node.definition) return node.definition.slice(node.definition.lastIndexOf('.') + 1);
  if (node.type === 'array') return `[]${node.items ? typeName(node.items) : 'Object'}`;
  if (node.type === 'object' && typeof node.additionalProperties === 'object') return `map[string]${typeName(node.additionalProperties)}`;
  if (node.type === 'object') return 'Object';
  return node.type ?? 'Object';
}

export function hover(unit: Unit, position: Position): Hover | undefined {
  const root = unit.doc.node;
  if (!root) return undefined;
  const at = pathAt(root, offsetAt(unit, position));
  if (!at || at.path.length === 0) return undefined;
  const apiVersion = stringAt(root, ['apiVersion']);
  const kind = stringAt(root, ['kind']);
  if (apiVersion === undefined || kind === undefined) return undefined;
  const { group, version } = parseApiVersion(apiVersion);
  const schema = schemaForKind(group, version, kind);
  if (!schema) return undefined;
  const first = at.path[0];
  if (at.path.length === 1 && (first === 'kind' || first === 'apiVersion')) {
    return markdown([`**${kind}** (${apiVersion})`, schema.description ?? '']);
  }
  // On a list item's contents the field is the item's; on the dash, the list's.
  const fieldPath = at.onKey ? at.path : trimToField(at.path);
  const node = schemaAtPath(schema, fieldPath);
  if (!node) return undefined;
  const name = fieldPath.filter((s) => typeof s === 'string').at(-1) ?? kind;
  const parent = schemaAtPath(schema, fieldPath.slice(0, -1));
  const required = typeof name === 'string' && parent?.required?.includes(name) ? ' -required-' : '';
  return markdown([`\`${name}\` <${typeName(node)}>${required}`, node.description ?? '']);
}

/** A value's path names the field that holds it: drop trailing list indexes. */
function trimToField(path: Array<string | number>): Array<string | number> {
  const out = [...path];
  while (typeof out.at(-1) === 'number') out.pop();
  return out;
}

function markdown(parts: string[]): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: parts.filter((p) => p !== '').join('\n\n') } };
}
