/**
 * Label and selector rules of k8s.io/apimachinery/pkg/apis/meta/v1/validation (release-1.35).
 */
import { forbidden, invalid, required, type ErrorList, type Path } from '../../../api/field';
import { isQualifiedName, isValidLabelValue } from '../../../api/names';
import { asArray, asObject, asString, stringEntries } from './json';

export interface LabelSelectorValidationOptions {
  /** Kept true on update when the old object already had such values (ratcheting). */
  allowInvalidLabelValueInSelector: boolean;
  allowUnknownOperatorInRequirement?: boolean;
}

/** ValidateLabelName: a label key (qualified name). */
export function validateLabelName(labelName: string, fldPath: Path): ErrorList {
  return isQualifiedName(labelName).map((msg) => invalid(fldPath, labelName, msg).withOrigin('format=k8s-label-key'));
}

/** ValidateLabels: every key a qualified name, every value a label value. */
export function validateLabels(labels: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  for (const [k, v] of stringEntries(labels)) {
    errs.push(...validateLabelName(k, fldPath));
    errs.push(...isValidLabelValue(v).map((msg) => invalid(fldPath, v, msg).withOrigin('format=k8s-label-value')));
  }
  return errs;
}

/** LabelSelectorHasInvalidLabelValue: decides the ratcheting option on update. */
export function labelSelectorHasInvalidLabelValue(selector: unknown): boolean {
  return asArray(asObject(selector)?.['matchExpressions']).some((e) =>
    asArray(asObject(e)?.['values']).some((v) => isValidLabelValue(asString(v)).length > 0),
  );
}

/** ValidateLabelSelector (a nil selector is valid). */
export function validateLabelSelector(selector: unknown, opts: LabelSelectorValidationOptions, fldPath: Path): ErrorList {
  const ps = asObject(selector);
  if (!ps) return [];
  const errs = validateLabels(ps['matchLabels'], fldPath.child('matchLabels'));
  asArray(ps['matchExpressions']).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, opts, fldPath.child('matchExpressions').index(i)));
  });
  return errs;
}

/**
 * The values rule of the set-based operators, as every requirement validator of apimachinery
 * and core writes it: In and NotIn need values, Exists and DoesNotExist take none. undefined for
 * any other operator (each caller has its own rule for those).
 */
export function validateSetOperatorValues(operator: string, valueCount: number, fldPath: Path): ErrorList | undefined {
  switch (operator) {
    case 'In':
    case 'NotIn':
      return valueCount === 0 ? [required(fldPath.child('values'), "must be specified when `operator` is 'In' or 'NotIn'")] : [];
    case 'Exists':
    case 'DoesNotExist':
      return valueCount > 0 ? [forbidden(fldPath.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")] : [];
    default:
      return undefined;
  }
}

export function validateLabelSelectorRequirement(requirement: unknown, opts: LabelSelectorValidationOptions, fldPath: Path): ErrorList {
  const sr = asObject(requirement) ?? {};
  const errs: ErrorList = [];
  const values = asArray(sr['values']);
  const operator = asString(sr['operator']);
  const valueErrs = validateSetOperatorValues(operator, values.length, fldPath);
  if (valueErrs) errs.push(...valueErrs);
  else if (!opts.allowUnknownOperatorInRequirement) errs.push(invalid(fldPath.child('operator'), operator, 'not a valid selector operator'));
  errs.push(...validateLabelName(asString(sr['key']), fldPath.child('key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => {
      const value = asString(v);
      errs.push(...isValidLabelValue(value).map((msg) => invalid(fldPath.child('values').index(i), value, msg)));
    });
  }
  return errs;
}

/** ValidateFieldSelectorRequirement (metav1.FieldSelectorRequirement, used by authorization). */
export function validateFieldSelectorRequirement(requirement: unknown, opts: { allowUnknownOperatorInRequirement?: boolean }, fldPath: Path): ErrorList {
  const r = asObject(requirement) ?? {};
  const errs: ErrorList = [];
  if (asString(r['key']).length === 0) errs.push(required(fldPath.child('key'), 'must be specified'));
  const values = asArray(r['values']);
  const operator = asString(r['operator']);
  const valueErrs = validateSetOperatorValues(operator, values.length, fldPath);
  if (valueErrs) errs.push(...valueErrs);
  else if (!opts.allowUnknownOperatorInRequirement) errs.push(invalid(fldPath.child('operator'), operator, 'not a valid selector operator'));
  return errs;
}
