/**
 * OpenAPI v3 schema rules for CustomResourceDefinitions (apiextensions validation.go and
 * pkg/apiserver/schema's structural checks), limited to the common ones: supported keywords and
 * types, list and map extensions, x-kubernetes-validations shape, and structural invariants.
 * CEL rules are compiled by customresources/cel-rules.ts; defaults are not validated against the
 * schema.
 */
import { forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { arr, obj, str, strs } from '../core/json';
import { own } from '../../../api/own';

type Schema = Record<string, unknown>;

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const supportedValidationReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

export interface SchemaContext {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
}

const sortedKeys = (o: Schema | undefined): string[] => (o ? Object.keys(o).sort() : []);
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);
const isTrue = (v: unknown): boolean => v === true;

/** specStandardValidatorV3.validate: keywords Kubernetes does not support. */
function validateStandard(s: Schema, ctx: SchemaContext, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const type = str(s['type']);
  if (type.length > 0 && !openapiV3Types.includes(type)) errs.push(notSupported(fldPath.child('type'), type, openapiV3Types));
  if (s['default'] !== undefined && !ctx.allowDefaults) {
    errs.push(forbidden(fldPath.child('default'), ctx.disallowDefaultsReason ? `must not be set ${ctx.disallowDefaultsReason}` : 'must not be set'));
  }
  if (str(s['id']) !== '') errs.push(forbidden(fldPath.child('id'), 'id is not supported'));
  if (s['additionalItems'] !== undefined) errs.push(forbidden(fldPath.child('additionalItems'), 'additionalItems is not supported'));
  if (sortedKeys(obj(s['patternProperties'])).length > 0) errs.push(forbidden(fldPath.child('patternProperties'), 'patternProperties is not supported'));
  if (sortedKeys(obj(s['definitions'])).length > 0) errs.push(forbidden(fldPath.child('definitions'), 'definitions is not supported'));
  if (s['dependencies'] !== undefined && s['dependencies'] !== null) errs.push(forbidden(fldPath.child('dependencies'), 'dependencies is not supported'));
  if (typeof s['$ref'] === 'string') errs.push(forbidden(fldPath.child('$ref'), '$ref is not supported'));
  if (type === 'null') errs.push(forbidden(fldPath.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s['items'])) errs.push(forbidden(fldPath.child('items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && isTrue(s['x-kubernetes-embedded-resource'])) {
    errs.push(forbidden(fldPath.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

function validateListAndMapTypes(s: Schema, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const type = str(s['type']);
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const mapKeys = strs(s['x-kubernetes-list-map-keys']);
  const items = obj(s['items']);
  if (typeof mapType === 'string' && type !== 'object') {
    if (type === '') errs.push(required(fldPath.child('type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(invalid(fldPath.child('type'), type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (typeof mapType === 'string' && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(fldPath.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  if (typeof listType === 'string' && type !== 'array') {
    if (type === '') errs.push(required(fldPath.child('type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(invalid(fldPath.child('type'), type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items) {
    const itemType = str(items['type']);
    const itemListType = items['x-kubernetes-list-type'];
    if (itemType === 'array' && typeof itemListType === 'string' && itemListType !== 'atomic') {
      errs.push(invalid(fldPath.child('items', 'x-kubernetes-list-type'), itemListType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (itemType === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // Upstream reports the item's list type (usually unset) as the bad value here.
      errs.push(invalid(fldPath.child('items', 'x-kubernetes-map-type'), itemListType ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (typeof listType === 'string' && !['atomic', 'set', 'map'].includes(listType)) {
    errs.push(notSupported(fldPath.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (mapKeys.length > 0) {
    if (typeof listType !== 'string') errs.push(required(fldPath.child('x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(fldPath.child('x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) errs.push(required(fldPath.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (s['items'] === undefined || s['items'] === null) errs.push(required(fldPath.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(s['items'])) errs.push(invalid(fldPath.child('items'), s['items'], 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items && str(items['type']) !== 'object') {
      errs.push(invalid(fldPath.child('items', 'type'), str(items['type']), "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (items && str(items['type']) === 'object') {
      const props = obj(items['properties']) ?? {};
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const p = obj(own(props, k));
        if (p) {
          const t = str(p['type']);
          if (t === 'array' || t === 'object') {
            errs.push(invalid(fldPath.child('items', 'properties').key(k).child('type'), 'object', "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(invalid(fldPath.child('x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errs.push(invalid(fldPath.child('x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  return errs;
}

/** validateMapListKeysMapSet: list items of sets and maps, and map keys, cannot be nullable. */
function validateMapListKeysMapSet(s: Schema, fldPath: Path): ErrorList {
  const items = obj(s['items']);
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: ErrorList = [];
  if (isTrue(items['nullable'])) errs.push(forbidden(fldPath.child('items', 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const requiredKeys = new Set(strs(items['required']));
    const props = obj(items['properties']) ?? {};
    for (const k of strs(s['x-kubernetes-list-map-keys'])) {
      const p = obj(own(props, k));
      if (!p) continue;
      const propPath = fldPath.child('items', 'properties').key(k);
      if (!requiredKeys.has(k) && p['default'] === undefined) {
        errs.push(required(propPath.child('default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (isTrue(p['nullable'])) errs.push(forbidden(propPath.child('nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

function validateXValidations(s: Schema, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  arr(s['x-kubernetes-validations']).forEach((raw, i) => {
    const rule = obj(raw) ?? {};
    const p = fldPath.child('x-kubernetes-validations').index(i);
    const r = str(rule['rule']).trim();
    const message = str(rule['message']);
    const msg = message.trim();
    if (r.length === 0) errs.push(required(p.child('rule'), 'rule is not specified'));
    else if (message.length > 0 && msg.length === 0) errs.push(invalid(p.child('message'), message, 'must be non-empty if specified'));
    else if (hasNewlines(msg)) errs.push(invalid(p.child('message'), message, 'must not contain line breaks'));
    else if (hasNewlines(r) && msg.length === 0) errs.push(required(p.child('message'), 'message must be specified if rule contains line breaks'));
    const messageExpression = str(rule['messageExpression']);
    if (messageExpression.length > 0 && messageExpression.trim().length === 0) {
      errs.push(required(p.child('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    const reason = rule['reason'];
    if (typeof reason === 'string' && !supportedValidationReasons.includes(reason)) errs.push(notSupported(p.child('reason'), reason, supportedValidationReasons));
    const fieldPath = str(rule['fieldPath']);
    if (fieldPath.length > 0 && fieldPath.trim().length === 0) errs.push(invalid(p.child('fieldPath'), fieldPath, 'must be non-empty if specified'));
    if (hasNewlines(fieldPath)) errs.push(invalid(p.child('fieldPath'), fieldPath, 'must not contain line breaks'));
  });
  return errs;
}

/** ValidateCustomResourceDefinitionOpenAPISchema, recursing with Go's rules for each position. */
export function validateOpenAPISchema(s: Schema | undefined, ctx: SchemaContext, isRoot: boolean, fldPath: Path): ErrorList {
  if (!s) return [];
  const errs = validateStandard(s, ctx, fldPath);
  if (isTrue(s['uniqueItems'])) errs.push(forbidden(fldPath.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const props = obj(s['properties']);
  const additional = s['additionalProperties'];
  if (additional !== undefined && additional !== null) {
    if (sortedKeys(props).length > 0 && (additional === false || obj(additional))) {
      errs.push(forbidden(fldPath.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = ctx.insideResourceMeta ? { ...ctx, allowDefaults: false, disallowDefaultsReason: 'inside additionalProperties applying to object metadata' } : ctx;
    errs.push(...validateOpenAPISchema(obj(additional), sub, false, fldPath.child('additionalProperties')));
  }
  for (const name of sortedKeys(props)) {
    let sub = ctx;
    if ((isRoot || isTrue(s['x-kubernetes-embedded-resource'])) && metaFields.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${name}` };
    }
    errs.push(...validateOpenAPISchema(obj(own(props, name)), sub, false, fldPath.child('properties').key(name)));
  }
  errs.push(...validateOpenAPISchema(obj(s['not']), ctx, false, fldPath.child('not')));
  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    arr(s[combinator]).forEach((sub, i) => errs.push(...validateOpenAPISchema(obj(sub), ctx, false, fldPath.child(combinator).index(i))));
  }
  for (const name of sortedKeys(obj(s['definitions']))) {
    errs.push(...validateOpenAPISchema(obj(own(obj(s['definitions']), name)), ctx, false, fldPath.child('definitions').key(name)));
  }
  const items = s['items'];
  if (obj(items)) errs.push(...validateOpenAPISchema(obj(items), ctx, false, fldPath.child('items')));
  if (Array.isArray(items)) items.forEach((it, i) => errs.push(...validateOpenAPISchema(obj(it), ctx, false, fldPath.child('items').index(i))));
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(fldPath.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  errs.push(...validateListAndMapTypes(s, fldPath), ...validateMapListKeysMapSet(s, fldPath), ...validateXValidations(s, fldPath));
  return errs;
}

type Level = 'root' | 'item' | 'field';

const typeRequiredDetail: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** validateStructuralInvariants: the subset of pkg/apiserver/schema's checks on the typed skeleton. */
function structuralInvariants(s: Schema, lvl: Level, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const type = str(s['type']);
  const items = obj(s['items']);
  if (type === 'array' && !items) errs.push(required(fldPath.child('items'), 'must be specified'));
  if (items) errs.push(...structuralInvariants(items, 'item', fldPath.child('items')));
  const props = obj(s['properties']) ?? {};
  for (const k of sortedKeys(props)) errs.push(...structuralInvariants(obj(own(props, k)) ?? {}, 'field', fldPath.child('properties').key(k)));
  const additional = obj(s['additionalProperties']);
  if (s['additionalProperties'] !== undefined && s['additionalProperties'] !== null) {
    if (lvl === 'root') errs.push(forbidden(fldPath.child('additionalProperties'), 'must not be used at the root'));
    if (additional) errs.push(...structuralInvariants(additional, 'field', fldPath.child('additionalProperties')));
  }
  const intOrString = isTrue(s['x-kubernetes-int-or-string']);
  const preserve = isTrue(s['x-kubernetes-preserve-unknown-fields']);
  const embedded = isTrue(s['x-kubernetes-embedded-resource']);
  if (intOrString && preserve) errs.push(invalid(fldPath.child('x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(invalid(fldPath.child('x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (embedded && type !== 'object') {
    if (type === '') errs.push(required(fldPath.child('type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalid(fldPath.child('type'), type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !intOrString && !preserve) {
    errs.push(required(fldPath.child('type'), typeRequiredDetail[lvl]));
  }
  if (embedded && s['additionalProperties'] !== undefined && s['additionalProperties'] !== null) {
    errs.push(forbidden(fldPath.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && type !== '' && type !== 'object') errs.push(invalid(fldPath.child('type'), type, 'must be object at the root'));
  const checkMetadata = lvl === 'root' || embedded;
  for (const f of ['kind', 'apiVersion'] as const) {
    const p = obj(props[f]);
    if (p && checkMetadata && str(p['type']) !== 'string') errs.push(invalid(fldPath.child('properties').key(f).child('type'), str(p['type']), 'must be string'));
  }
  const metadata = obj(props['metadata']);
  if (metadata) {
    const metaPath = fldPath.child('properties').key('metadata');
    if (checkMetadata && str(metadata['type']) !== 'object') errs.push(invalid(metaPath.child('type'), str(metadata['type']), 'must be object'));
    if (lvl === 'root') {
      const rest = Object.keys(metadata).filter((k) => k !== 'type' && k !== 'default' && k !== 'properties');
      const metaProps = sortedKeys(obj(metadata['properties']));
      const onlyNames = metaProps.every((k) => k === 'name' || k === 'generateName');
      if (rest.length > 0 || !onlyNames) {
        errs.push(forbidden(metaPath, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
      }
    }
  }
  if (embedded && !preserve && sortedKeys(props).length === 0) {
    errs.push(required(fldPath.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** ValidateStructural: upstream sorts these errors by their message. */
export function validateStructural(s: Schema, fldPath: Path): ErrorList {
  return structuralInvariants(s, 'root', fldPath).sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
}

export function schemaHasDefaults(s: unknown): boolean {
  const o = obj(s);
  if (!o) return false;
  if (o['default'] !== undefined) return true;
  const children: unknown[] = [
    ...Object.values(obj(o['properties']) ?? {}),
    o['items'],
    o['additionalProperties'],
    o['not'],
    ...arr(o['allOf']),
    ...arr(o['oneOf']),
    ...arr(o['anyOf']),
  ];
  return children.some(schemaHasDefaults);
}

