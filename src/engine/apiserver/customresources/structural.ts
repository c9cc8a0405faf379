/**
 * A CRD version's structural schema (apiextensions-apiserver pkg/apiserver/schema): the
 * openAPIV3Schema of spec.versions[*].schema, read once into the shape pruning, defaulting and
 * validation walk. CRD validation has already made it structural (types everywhere, no $ref).
 */
import { isObject, type JsonObject, type JsonValue } from '../../api/types';
import type * as apiextensions from '../../api/generated/apiextensions-v1';

export interface Structural {
  type: string;
  format: string;
  nullable: boolean;
  properties: Map<string, Structural>;
  /** Map values; undefined when the object has no additionalProperties schema. */
  additionalProperties: Structural | undefined;
  items: Structural | undefined;
  required: string[];
  enum: JsonValue[] | undefined;
  default: JsonValue | undefined;
  maximum: number | undefined;
  exclusiveMaximum: boolean;
  minimum: number | undefined;
  exclusiveMinimum: boolean;
  multipleOf: number | undefined;
  maxLength: number | undefined;
  minLength: number | undefined;
  pattern: string | undefined;
  maxItems: number | undefined;
  minItems: number | undefined;
  uniqueItems: boolean;
  maxProperties: number | undefined;
  minProperties: number | undefined;
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  intOrString: boolean;
  listType: string | undefined;
  listMapKeys: string[];
  mapType: string | undefined;
  /** x-kubernetes-validations: the CEL rules on this node. */
  validations: ValidationRule[];
}

/** An apiextensions/v1 ValidationRule as read off the schema: the strings it leaves out are empty. */
export type ValidationRule = Required<Pick<apiextensions.ValidationRule, 'rule' | 'message' | 'messageExpression' | 'fieldPath'>> & {
  reason: string | undefined;
  optionalOldSelf: boolean | undefined;
};

function validationsOf(v: unknown): ValidationRule[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObject).map((r) => ({
    rule: str(r['rule']),
    message: str(r['message']),
    messageExpression: str(r['messageExpression']),
    reason: typeof r['reason'] === 'string' ? r['reason'] : undefined,
    fieldPath: str(r['fieldPath']),
    optionalOldSelf: typeof r['optionalOldSelf'] === 'boolean' ? r['optionalOldSelf'] : undefined,
  }));
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function structuralOf(schema: JsonObject): Structural {
  const properties = new Map<string, Structural>();
  if (isObject(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) if (isObject(v)) properties.set(k, structuralOf(v));
  const additional = schema.additionalProperties;
  // additionalProperties: true (with preserve-unknown-fields) keeps any value; a schema describes them.
  const additionalProperties = isObject(additional) ? structuralOf(additional) : additional === true ? structuralOf({ 'x-kubernetes-preserve-unknown-fields': true }) : undefined;
  return {
    type: str(schema.type),
    format: str(schema.format),
    nullable: schema.nullable === true,
    properties,
    additionalProperties,
    items: isObject(schema.items) ? structuralOf(schema.items) : undefined,
    required: Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
    enum: Array.isArray(schema.enum) ? schema.enum : undefined,
    default: schema.default,
    maximum: num(schema.maximum),
    exclusiveMaximum: schema.exclusiveMaximum === true,
    minimum: num(schema.minimum),
    exclusiveMinimum: schema.exclusiveMinimum === true,
    multipleOf: num(schema.multipleOf),
    maxLength: num(schema.maxLength),
    minLength: num(schema.minLength),
    pattern: typeof schema.pattern === 'string' ? schema.pattern : undefined,
    maxItems: num(schema.maxItems),
    minItems: num(schema.minItems),
    uniqueItems: schema.uniqueItems === true,
    maxProperties: num(schema.maxProperties),
    minProperties: num(schema.minProperties),
    preserveUnknownFields: schema['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: schema['x-kubernetes-embedded-resource'] === true,
    intOrString: schema['x-kubernetes-int-or-string'] === true,
    listType: typeof schema['x-kubernetes-list-type'] === 'string' ? schema['x-kubernetes-list-type'] : undefined,
    listMapKeys: Array.isArray(schema['x-kubernetes-list-map-keys']) ? schema['x-kubernetes-list-map-keys'].filter((k): k is string => typeof k === 'string') : [],
    mapType: typeof schema['x-kubernetes-map-type'] === 'string' ? schema['x-kubernetes-map-type'] : undefined,
    validations: validationsOf(schema['x-kubernetes-validations']),
  };
}

/** The schema of a field of an object: its property, else the map value schema. */
export function fieldSchema(s: Structural | undefined, key: string): Structural | undefined {
  if (!s) return undefined;
  return s.properties.get(key) ?? s.additionalProperties;
}
