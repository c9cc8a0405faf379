/**
 * The REST strategy of a custom resource (apiextensions-apiserver pkg/registry/customresource):
 * generation 1 on create and bumped on any change outside metadata; with a status subresource,
 * status is written only through it, which in turn changes nothing but status. Validation is the
 * type meta, ObjectMeta (names are DNS subdomains), the structural schema and the scale paths.
 */
import { invalid, Path, type ErrorList } from '../../api/field';
import { goFloat } from '../../api/gofmt';
import { nameIsDNSSubdomain } from '../../api/names';
import { isObject, type JsonObject, type JsonValue, type KubeObject } from '../../api/types';
import { cloneJson } from '../patch/govalue';
import type { Strategy } from '../strategies/types';
import type { KindValidator } from '../validation/registry';
import { semanticEqual, validateObjectMeta } from '../validation/meta';
import type { CustomResourceVersion } from './definition';
import { validateCustomResource } from './validate';
import { hasRules, validateRules } from './cel-rules';
import { own } from '../../api/own';
import { fail, ok, type Result } from '../../api/result';

const MAX_INT32 = 2147483647;

function nonMetadataChanged(obj: KubeObject, old: KubeObject): boolean {
  const keys = new Set([...Object.keys(obj), ...Object.keys(old)]);
  for (const k of keys) if (k !== 'metadata' && !semanticEqual(own(obj, k), own(old, k))) return true;
  return false;
}

/** Go's %v of a decoded JSON value, as accessor errors print it. */
function goValue(v: JsonValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goFloat(v);
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') return `map[${Object.keys(v).sort().map((k) => `${k}:${goValue(v[k]!)}`).join(' ')}]`;
  return String(v);
}

function goType(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'object') return 'map[string]interface {}';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** unstructured.NestedInt64 at a ".a.b" path: the value, undefined when absent, or the accessor error. */
function nestedInt(obj: JsonObject, path: string): Result<number | undefined> {
  const parts = path.replace(/^\./, '').split('.');
  const jsonPath = (n: number): string => `.${parts.slice(0, n).join('.')}`;
  let cur: JsonValue = obj;
  for (let i = 0; i < parts.length; i++) {
    if (!isObject(cur)) return fail(`${jsonPath(i + 1)} accessor error: ${goValue(cur)} is of the type ${goType(cur)}, expected map[string]interface{}`);
    const next: JsonValue | undefined = own(cur, parts[i]!);
    if (next === undefined) return ok(undefined);
    cur = next;
  }
  if (typeof cur !== 'number' || !Number.isInteger(cur)) return fail(`${jsonPath(parts.length)} accessor error: ${goValue(cur)} is of the type ${goType(cur)}, expected int64`);
  return ok(cur);
}

/** ValidateScaleSpec and ValidateScaleStatus: the replicas paths hold non-negative int32 values. */
function scaleErrors(obj: KubeObject, paths: string[]): ErrorList {
  const errs: ErrorList = [];
  for (const path of paths) {
    const nested = nestedInt(obj as JsonObject, path);
    const at = Path.root(path);
    const value = nested.ok ? nested.value : undefined;
    if (!nested.ok) errs.push(invalid(at, 0, nested.error));
    else if (value !== undefined && value < 0) errs.push(invalid(at, value, 'should be a non-negative integer'));
    else if (value !== undefined && value > MAX_INT32) errs.push(invalid(at, value, `should be less than or equal to ${MAX_INT32}`));
  }
  return errs;
}

function typeMetaErrors(v: CustomResourceVersion, obj: KubeObject): ErrorList {
  const errs: ErrorList = [];
  if (obj.kind !== v.kind) errs.push(invalid(Path.root('kind'), obj.kind, `must be ${v.kind}`));
  const apiVersion = `${v.group}/${v.version}`;
  if (obj.apiVersion !== apiVersion) errs.push(invalid(Path.root('apiVersion'), obj.apiVersion, `must be ${apiVersion}`));
  return errs;
}

function customResourceValidator(v: CustomResourceVersion): KindValidator {
  const specPaths = v.scale ? [v.scale.specReplicasPath] : [];
  const statusPaths = v.scale ? [v.scale.statusReplicasPath] : [];
  const statusSchema = v.schema.properties.get('status');
  return {
    create(obj) {
      const typeMeta = typeMetaErrors(v, obj);
      if (typeMeta.length > 0) return typeMeta;
      const errs = [
        ...validateObjectMeta(obj.metadata, v.namespaced, nameIsDNSSubdomain, Path.root('metadata')),
        ...validateCustomResource(obj as JsonObject, v.schema),
        ...scaleErrors(obj, [...specPaths, ...statusPaths]),
      ];
      return withRuleErrors(errs, v, obj, undefined);
    },
    update(obj, old) {
      const typeMeta = typeMetaErrors(v, obj);
      if (typeMeta.length > 0) return typeMeta;
      const errs = [...validateCustomResource(obj as JsonObject, v.schema, undefined, old as JsonObject), ...scaleErrors(obj, [...specPaths, ...statusPaths])];
      return withRuleErrors(errs, v, obj, old);
    },
    updateStatus(obj, old) {
      const typeMeta = typeMetaErrors(v, obj);
      if (typeMeta.length > 0) return typeMeta;
      const status = obj.status as JsonValue | undefined;
      const schemaErrors = status !== undefined && statusSchema ? validateCustomResource(status, statusSchema, Path.root('status'), old.status as JsonValue | undefined) : [];
      return withRuleErrors([...schemaErrors, ...scaleErrors(obj, statusPaths)], v, obj, old);
    },
  };
}

/**
 * The x-kubernetes-validations rules run after the schema's checks, unless those found the kind
 * of error that makes rules meaningless (hasBlockingErr in the registry's strategy).
 */
function withRuleErrors(errs: ErrorList, v: CustomResourceVersion, obj: KubeObject, old: KubeObject | undefined): ErrorList {
  if (!hasRules(v.schema)) return errs;
  if (errs.some((e) => BLOCKING.has(e.type))) return [...errs, invalid(undefined, null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation')];
  return [...errs, ...validateRules(v.schema, obj as JsonObject, old as JsonObject | undefined)];
}

const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

export function customResourceStrategy(v: CustomResourceVersion): Strategy {
  return {
    generation: true,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    returnDeletedObject: false,
    garbageCollected: true,
    validator: customResourceValidator(v),
    prepareForCreate(obj) {
      if (v.statusSubresource) delete obj.status;
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      if (v.statusSubresource) {
        if (old.status !== undefined) obj.status = cloneJson(old.status as JsonValue);
        else delete obj.status;
      }
      if (nonMetadataChanged(obj, old)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    // The status subresource keeps the old object but for status (and the writer's managedFields).
    prepareStatusUpdate(obj, old) {
      const next = cloneJson(old as JsonObject) as KubeObject;
      if (obj.metadata.managedFields) next.metadata.managedFields = obj.metadata.managedFields;
      else delete next.metadata.managedFields;
      next.metadata.resourceVersion = obj.metadata.resourceVersion;
      if (obj.status !== undefined) next.status = obj.status;
      else delete next.status;
      return next;
    },
  };
}
