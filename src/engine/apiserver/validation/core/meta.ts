/**
 * The metadata, label and selector checks the core rules build on (apimachinery's
 * pkg/apis/meta/v1/validation and pkg/api/validation).
 */
import { forbidden, invalid, Path, required, tooLong, type ErrorList } from '../../../api/field';
import { isQualifiedName, isValidLabelValue, validateNamespaceName, type NameValidator } from '../../../api/names';
import { arr, obj, objs, semanticEqual, str, strMap, strs, type Obj } from './json';
import { isStandardFinalizerName } from './resourcenames';

export const fieldImmutableErrorMsg = 'field is immutable';

export function validateLabelName(name: string, fldPath: Path): ErrorList {
  return isQualifiedName(name).map((m) => invalid(fldPath, name, m).withOrigin('format=k8s-label-key'));
}

export function validateLabels(labels: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  for (const [k, v] of strMap(labels)) {
    errs.push(...validateLabelName(k, fldPath));
    errs.push(...isValidLabelValue(v).map((m) => invalid(fldPath, v, m).withOrigin('format=k8s-label-value')));
  }
  return errs;
}

export interface LabelSelectorOptions {
  allowInvalidLabelValueInSelector: boolean;
}

export function validateLabelSelector(selector: unknown, opts: LabelSelectorOptions, fldPath: Path): ErrorList {
  const sel = obj(selector);
  if (!sel) return [];
  const errs = validateLabels(sel['matchLabels'], fldPath.child('matchLabels'));
  objs(sel['matchExpressions']).forEach((expr, i) => errs.push(...validateLabelSelectorRequirement(expr, opts, fldPath.child('matchExpressions').index(i))));
  return errs;
}

/** Whether a stored selector fails today's rules (so updates keep accepting its values). */
export function selectorHasErrors(selector: unknown): boolean {
  return validateLabelSelector(selector, { allowInvalidLabelValueInSelector: false }, Path.root('')).length > 0;
}

function validateLabelSelectorRequirement(req: Obj, opts: LabelSelectorOptions, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const values = arr(req['values']);
  switch (req['operator']) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(fldPath.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(fldPath.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(invalid(fldPath.child('operator'), str(req['operator']), 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(str(req['key']), fldPath.child('key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => errs.push(...isValidLabelValue(str(v)).map((m) => invalid(fldPath.child('values').index(i), str(v), m))));
  }
  return errs;
}

const totalAnnotationSizeLimitB = 256 * 1024;

export function validateAnnotations(annotations: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  let size = 0;
  for (const [k, v] of strMap(annotations)) {
    errs.push(...isQualifiedName(k.toLowerCase()).map((m) => invalid(fldPath, k, m).withOrigin('format=k8s-label-key')));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > totalAnnotationSizeLimitB) errs.push(tooLong(fldPath, totalAnnotationSizeLimitB));
  return errs;
}

export function validateFinalizerName(name: string, fldPath: Path): ErrorList {
  return isQualifiedName(name).map((m) => invalid(fldPath, name, m));
}

/** ValidateImmutableField: unchanged under semantic equality. */
export function validateImmutableField(newVal: unknown, oldVal: unknown, fldPath: Path): ErrorList {
  return semanticEqual(newVal, oldVal) ? [] : [invalid(fldPath, newVal ?? null, fieldImmutableErrorMsg)];
}

/** Core's ValidateObjectMeta: apimachinery's rules plus the legacy finalizer-name rule. */
export function validateObjectMeta(meta: unknown, requiresNamespace: boolean, nameFn: NameValidator, fldPath: Path): ErrorList {
  const m = obj(meta) ?? {};
  const errs: ErrorList = [];
  const generateName = str(m['generateName']);
  const name = str(m['name']);
  if (generateName.length !== 0) errs.push(...nameFn(generateName, true).map((msg) => invalid(fldPath.child('generateName'), generateName, msg)));
  if (name.length === 0) errs.push(required(fldPath.child('name'), 'name or generateName is required'));
  else errs.push(...nameFn(name, false).map((msg) => invalid(fldPath.child('name'), name, msg)));
  const ns = str(m['namespace']);
  if (requiresNamespace) {
    if (ns.length === 0) errs.push(required(fldPath.child('namespace'), ''));
    else errs.push(...validateNamespaceName(ns, false).map((msg) => invalid(fldPath.child('namespace'), ns, msg)));
  } else if (ns.length !== 0) {
    errs.push(forbidden(fldPath.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateLabels(m['labels'], fldPath.child('labels')));
  errs.push(...validateAnnotations(m['annotations'], fldPath.child('annotations')));
  errs.push(...validateKubeFinalizers(m['finalizers'], fldPath.child('finalizers')));
  return errs;
}

export function validateObjectMetaUpdate(newMeta: unknown, oldMeta: unknown, fldPath: Path): ErrorList {
  const n = obj(newMeta) ?? {};
  const o = obj(oldMeta) ?? {};
  const errs: ErrorList = [];
  for (const f of ['name', 'namespace', 'uid']) errs.push(...validateImmutableField(str(n[f]), str(o[f]), fldPath.child(f)));
  errs.push(...validateLabels(n['labels'], fldPath.child('labels')));
  errs.push(...validateAnnotations(n['annotations'], fldPath.child('annotations')));
  errs.push(...validateKubeFinalizers(n['finalizers'], fldPath.child('finalizers')));
  return errs;
}

function validateKubeFinalizers(finalizers: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  strs(finalizers).forEach((f, i) => {
    errs.push(...validateFinalizerName(f, fldPath));
    errs.push(...validateKubeFinalizerName(f, fldPath.index(i)));
  });
  return errs;
}

/** Unqualified finalizer names must be one of the standard ones. */
export function validateKubeFinalizerName(name: string, fldPath: Path): ErrorList {
  if (!name.includes('/') && !isStandardFinalizerName(name)) {
    return [invalid(fldPath, name, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}
