/**
 * Compiles components.schemas into SchemaNodes, one definition at a time and only when asked:
 * a kind's schema pulls in the definitions it reaches and nothing else.
 *
 * Properties in the documents refer to definitions through `allOf: [{$ref}]` wrappers that add
 * a field's own description, default and list/patch annotations. Such a property becomes its own
 * node carrying those, with the rest (type, properties, items, ...) copied from the definition's
 * node; a bare `$ref` is the definition's node itself. Copies are made once every definition the
 * request reached is complete, so recursive definitions (JSONSchemaProps) come out whole.
 */
import { dict, own } from '../own';
import type { RawSchema } from './document-types';
import type { SchemaNode, SchemaType } from './types';

const compiled = new Map<string, SchemaNode>();

const REF_PREFIX = '#/components/schemas/';
const SCHEMA_TYPES: ReadonlySet<string> = new Set<SchemaType>(['object', 'array', 'string', 'integer', 'number', 'boolean']);
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
/** Objects whose Go types keep the JSON as is rather than decoding it into fields. */
const RAW_OBJECTS: ReadonlySet<string> = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
]);

type Pending = Array<[wrapper: SchemaNode, target: SchemaNode]>;

/** The compiled node of a definition, resolving references against `schemas` (one document's). */
export function compileDefinition(name: string, schemas: Record<string, RawSchema>): SchemaNode | undefined {
  const done = compiled.get(name);
  if (done) return done;
  if (!own(schemas, name)) return undefined;
  const pending: Pending = [];
  const node = definitionNode(name, schemas, pending);
  for (const [wrapper, target] of pending) fillFromTarget(wrapper, target);
  return node;
}

function definitionNode(name: string, schemas: Record<string, RawSchema>, pending: Pending): SchemaNode {
  const existing = compiled.get(name);
  if (existing) return existing;
  const raw = own(schemas, name);
  const node: SchemaNode = { definition: name };
  compiled.set(name, node);
  if (!raw) return node;
  Object.assign(node, structure(raw, schemas, pending), annotations(raw));
  if (name === QUANTITY) node.format = 'quantity';
  if (holdsAnyJson(name, raw)) node.preserveUnknownFields = true;
  const gvk = raw['x-kubernetes-group-version-kind'];
  if (gvk) node.gvk = gvk.map((g) => ({ group: g.group, version: g.version, kind: g.kind }));
  return node;
}

function schemaNode(raw: RawSchema, schemas: Record<string, RawSchema>, pending: Pending): SchemaNode {
  const ref = refOf(raw);
  if (ref === undefined) return { ...structure(raw, schemas, pending), ...annotations(raw) };
  const target = definitionNode(ref, schemas, pending);
  const own = annotations(raw);
  if (Object.keys(own).length === 0) return target;
  pending.push([own, target]);
  return own;
}

function refOf(raw: RawSchema): string | undefined {
  const ref = raw.$ref ?? (raw.allOf?.length === 1 ? raw.allOf[0]?.$ref : undefined);
  return ref?.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
}

/** What a schema is: its type and the schemas of its members. */
function structure(raw: RawSchema, schemas: Record<string, RawSchema>, pending: Pending): SchemaNode {
  const node: SchemaNode = {};
  if (raw.type && SCHEMA_TYPES.has(raw.type)) node.type = raw.type as SchemaType;
  if (raw.properties) {
    const properties = dict<SchemaNode>();
    for (const [key, value] of Object.entries(raw.properties)) properties[key] = schemaNode(value, schemas, pending);
    node.properties = properties;
  }
  if (raw.additionalProperties === true) node.additionalProperties = true;
  else if (raw.additionalProperties) node.additionalProperties = schemaNode(raw.additionalProperties, schemas, pending);
  if (raw.items) node.items = schemaNode(raw.items, schemas, pending);
  if (raw.required) node.required = [...raw.required];
  return node;
}

/**
 * Definitions that hold arbitrary JSON: those whose schema says nothing about their content
 * (apiextensions' JSON and JSONSchemaPropsOr*) and the raw objects. An object type without
 * properties is otherwise an empty struct (CustomResourceSubresourceStatus), not free-form.
 */
function holdsAnyJson(name: string, raw: RawSchema): boolean {
  if (RAW_OBJECTS.has(name)) return true;
  return raw.type === undefined && !raw.properties && !raw.items && !raw.oneOf && !raw.format && raw.additionalProperties === undefined;
}

/** What a schema says about its use in a field: documentation, default and merge semantics. */
function annotations(raw: RawSchema): SchemaNode {
  const node: SchemaNode = {};
  if (raw.format !== undefined) node.format = raw.format;
  if (raw.description !== undefined) node.description = raw.description;
  if (raw.default !== undefined) node.default = raw.default;
  const listType = raw['x-kubernetes-list-type'];
  if (listType === 'atomic' || listType === 'set' || listType === 'map') node.listType = listType;
  if (raw['x-kubernetes-list-map-keys']) node.listMapKeys = [...raw['x-kubernetes-list-map-keys']];
  const mapType = raw['x-kubernetes-map-type'];
  if (mapType === 'atomic' || mapType === 'granular') node.mapType = mapType;
  if (raw['x-kubernetes-patch-strategy'] !== undefined) node.patchStrategy = raw['x-kubernetes-patch-strategy'];
  if (raw['x-kubernetes-patch-merge-key'] !== undefined) node.patchMergeKey = raw['x-kubernetes-patch-merge-key'];
  if (raw['x-kubernetes-int-or-string'] || raw.format === 'int-or-string') node.intOrString = true;
  if (raw['x-kubernetes-preserve-unknown-fields']) node.preserveUnknownFields = true;
  if (raw['x-kubernetes-embedded-resource']) node.embeddedResource = true;
  return node;
}

function fillFromTarget(wrapper: SchemaNode, target: SchemaNode): void {
  const into = wrapper as Record<string, unknown>;
  // own-keys: the keys are SchemaNode's own field names.
  for (const [key, value] of Object.entries(target)) if (key !== 'gvk' && into[key] === undefined) into[key] = value;
}
