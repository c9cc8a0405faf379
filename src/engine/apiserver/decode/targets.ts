/**
 * The Go type a JSON value decodes into, from the field's Go type (go-types) and its OpenAPI
 * schema: structs, maps, slices, primitives, and the types with their own UnmarshalJSON.
 */
import type { SchemaNode } from '../../api/openapi/types';
import { table } from '../../api/own';
import { elementType, goStruct, underlyingType, type GoStruct } from './go-types';

/** Types with their own UnmarshalJSON, by OpenAPI definition. */
const CUSTOM = table({
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'intstr',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'microtime',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'raw',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': 'raw',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': 'raw',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': 'schemaOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': 'schemaOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': 'schemaOrStringArray',
} as const);

export type CustomKind = 'quantity' | 'intstr' | 'time' | 'microtime' | 'raw' | 'schemaOrBool' | 'schemaOrArray' | 'schemaOrStringArray';

interface Common {
  /** The type as Go errors print it, without the pointer: "int32", "[]v1.Container". */
  type: string;
  pointer: boolean;
}

export type StructTarget = Common & {
  kind: 'struct';
  name: string;
  schema: SchemaNode;
  go: GoStruct | undefined;
  /** The targets of the fields met so far (see fieldTarget): filled in, never changed. */
  readonly fields: Map<string, Target>;
};
export type CollectionTarget = Common & { kind: 'map' | 'slice'; elem: Target };

export type Target =
  | StructTarget
  | CollectionTarget
  | (Common & { kind: 'bytes' | 'string' | 'bool' | 'any' })
  | (Common & { kind: 'int'; bits: number; unsigned: boolean })
  | (Common & { kind: 'float'; bits: number })
  | (Common & { kind: 'custom'; custom: CustomKind });

const INTS = table<[bits: number, unsigned: boolean]>({
  int: [64, false], int8: [8, false], int16: [16, false], int32: [32, false], int64: [64, false],
  uint: [64, true], uint8: [8, true], uint16: [16, true], uint32: [32, true], uint64: [64, true],
});

const targets = new WeakMap<SchemaNode, Map<string | undefined, Target>>();
const schemaless = new Map<string | undefined, Target>();

/** The target of a field, made once per schema node and Go type (targets are never changed). */
export function targetFor(schema: SchemaNode | undefined, goType: string | undefined): Target {
  let byType = schema ? targets.get(schema) : schemaless;
  if (!byType) targets.set(schema!, (byType = new Map()));
  let t = byType.get(goType);
  if (!t) byType.set(goType, (t = makeTarget(schema, goType)));
  return t;
}

/**
 * The target of a struct's field `key`, or undefined when the struct has no such field (Go's
 * struct fields when the Go type is known, else the schema's properties): worked out once per
 * struct and field instead of for every field of every body.
 */
export function fieldTarget(t: StructTarget, key: string): Target | undefined {
  const found = t.fields.get(key);
  if (found) return found;
  const goType = t.go ? t.go.fields[key] : undefined;
  const known = t.go ? goType !== undefined : t.schema.properties?.[key] !== undefined;
  if (!known) return undefined;
  const target = targetFor(t.schema.properties?.[key], goType);
  t.fields.set(key, target);
  return target;
}

function makeTarget(schema: SchemaNode | undefined, goType: string | undefined): Target {
  const pointer = goType?.startsWith('*') ?? false;
  const type = goType?.replace(/^\*+/, '');
  const definition = schema?.definition;
  const custom = definition ? CUSTOM[definition] : undefined;
  if (definition && custom) return { kind: 'custom', custom, type: type ?? printedDefinition(definition), pointer };
  const go = definition ? goStruct(definition) : undefined;
  if (definition && go && schema) return { kind: 'struct', name: go.name, schema, go, fields: new Map(), type: type ?? printedDefinition(definition), pointer };
  if (type) {
    const u = underlyingType(type);
    if (u === '[]uint8') return { kind: 'bytes', type, pointer };
    if (u.startsWith('[]')) return { kind: 'slice', elem: targetFor(schema?.items, elementType(type)), type, pointer };
    if (u.startsWith('map[')) {
      const ap = schema?.additionalProperties;
      return { kind: 'map', elem: targetFor(typeof ap === 'object' ? ap : undefined, elementType(type)), type, pointer };
    }
    const int = INTS[u];
    if (int) return { kind: 'int', bits: int[0], unsigned: int[1], type, pointer };
    if (u === 'float64' || u === 'float32') return { kind: 'float', bits: u === 'float64' ? 64 : 32, type, pointer };
    if (u === 'string' || u === 'bool') return { kind: u, type, pointer };
    if (u === 'interface {}') return { kind: 'any', type, pointer };
  }
  return fromSchema(schema, pointer);
}

/** Without Go type information (custom resources, unusual fields) the schema alone decides. */
function fromSchema(schema: SchemaNode | undefined, pointer: boolean): Target {
  if (!schema || (schema.preserveUnknownFields && !schema.properties)) return { kind: 'any', type: 'interface {}', pointer };
  if (schema.intOrString) return { kind: 'custom', custom: 'intstr', type: 'intstr.IntOrString', pointer };
  switch (schema.type) {
    case 'object':
      if (schema.properties) {
        const name = schema.definition ? schema.definition.slice(schema.definition.lastIndexOf('.') + 1) : '';
        return { kind: 'struct', name, schema, go: undefined, fields: new Map(), type: schema.definition ? printedDefinition(schema.definition) : 'struct {}', pointer };
      }
      if (typeof schema.additionalProperties === 'object') {
        const elem = fromSchema(schema.additionalProperties, false);
        return { kind: 'map', elem, type: `map[string]${elem.type}`, pointer };
      }
      return { kind: 'any', type: 'map[string]interface {}', pointer };
    case 'array': {
      const elem = fromSchema(schema.items, false);
      return { kind: 'slice', elem, type: `[]${elem.type}`, pointer };
    }
    case 'string':
      return schema.format === 'byte' ? { kind: 'bytes', type: '[]uint8', pointer } : { kind: 'string', type: 'string', pointer };
    case 'integer':
      return schema.format === 'int32' ? { kind: 'int', bits: 32, unsigned: false, type: 'int32', pointer } : { kind: 'int', bits: 64, unsigned: false, type: 'int64', pointer };
    case 'number':
      return { kind: 'float', bits: 64, type: 'float64', pointer };
    case 'boolean':
      return { kind: 'bool', type: 'bool', pointer };
    default:
      return { kind: 'any', type: 'interface {}', pointer };
  }
}

/** io.k8s.api.apps.v1.DeploymentSpec -> v1.DeploymentSpec (Go prints the package's last element). */
export function printedDefinition(definition: string): string {
  const parts = definition.split('.');
  return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
}

/** The JSON Go writes for a type's zero value. */
export function zeroValue(t: Target): string | number | boolean | null | Record<string, never> {
  if (t.pointer) return null;
  switch (t.kind) {
    case 'string':
      return '';
    case 'int':
    case 'float':
      return 0;
    case 'bool':
      return false;
    case 'struct':
      return {};
    case 'custom':
      return t.custom === 'quantity' ? '0' : t.custom === 'intstr' ? 0 : null;
    default:
      return null;
  }
}
