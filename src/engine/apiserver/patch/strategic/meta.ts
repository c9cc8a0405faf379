/**
 * Patch strategies and merge keys for strategic merge patch. kube-apiserver reads them from the
 * Go struct tags of the versioned type (PatchMetaFromStruct); the OpenAPI extensions carry the
 * same tags, so the compiled schema stands in for the struct. Lookups fail the way reflection
 * does (a map is not a struct, an unknown JSON name is not a field), because those texts reach
 * the client.
 */
import type { SchemaNode } from '../../../api/openapi/types';
import { goQuote } from '../../../api/gofmt';
import { StrategicPatchError } from './errors';

export interface PatchMeta {
  strategies: string[];
  mergeKey: string;
}

export interface Lookup {
  /** The field's (or, for slices, the element's) schema; undefined below free-form values. */
  schema: SchemaNode | undefined;
  meta: PatchMeta;
}

/** The reflect.Kind of the Go type behind a schema node. */
export function goKind(node: SchemaNode | undefined): string {
  if (!node) return 'interface';
  if (node.properties) return 'struct';
  if (node.additionalProperties) return 'map';
  if (node.intOrString || node.format === 'int-or-string' || node.format === 'quantity' || node.format === 'date-time') return 'struct';
  switch (node.type) {
    case 'array':
      return 'slice';
    case 'string':
      return 'string';
    case 'integer':
      return node.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    default:
      // RawExtension, JSON, FieldsV1: structs whose JSON form is free.
      return 'struct';
  }
}

function structName(node: SchemaNode): string {
  const def = node.definition ?? '';
  return def.slice(def.lastIndexOf('.') + 1);
}

/** LookupPatchMetadataForStruct: the field named by a JSON key of a struct. */
export function lookupForStruct(node: SchemaNode | undefined, key: string): Lookup {
  const kind = goKind(node);
  if (kind !== 'struct' || !node) {
    throw new StrategicPatchError(`merging an object in json but data type is not struct, instead is: ${kind}`);
  }
  const props = node.properties;
  let field = props?.[key];
  if (!field) {
    // encoding/json falls back to a case-insensitive match of the field name.
    const folded = Object.keys(props ?? {}).find((k) => k.toLowerCase() === key.toLowerCase());
    field = folded === undefined ? undefined : props?.[folded];
  }
  if (!field) throw new StrategicPatchError(`unable to find api field in struct ${structName(node)} for the json field ${goQuote(key)}`);
  return { schema: field, meta: { strategies: (field.patchStrategy ?? '').split(','), mergeKey: field.patchMergeKey ?? '' } };
}

/** LookupPatchMetadataForSlice: the element type of a list field. */
export function lookupForSlice(node: SchemaNode | undefined, key: string): Lookup {
  const field = lookupForStruct(node, key);
  const kind = goKind(field.schema);
  // Optional structs are pointers in Go, and a pointer field also accepts a list of its type.
  if (kind === 'struct') return field;
  if (kind !== 'slice') throw new StrategicPatchError(`expected slice or array type, but got: ${goKind(node)}`);
  const elem = field.schema?.items;
  if (goKind(elem) === 'slice') throw new StrategicPatchError('unexpected slice of slice');
  return { schema: elem, meta: field.meta };
}

/** extractRetainKeysPatchStrategy: whether retainKeys is set, and the other strategy. */
export function otherStrategy(strategies: readonly string[]): string {
  if (strategies.length === 0) return '';
  if (strategies.length === 1) return strategies[0] === 'retainKeys' ? '' : strategies[0]!;
  if (strategies.length === 2) {
    if (strategies[0] === 'retainKeys') return strategies[1]!;
    if (strategies[1] === 'retainKeys') return strategies[0]!;
  }
  throw new StrategicPatchError(`unexpected patch strategy: [${strategies.join(' ')}]`);
}
