/**
 * Int-or-percent checks shared by rollout strategies and PodDisruptionBudgets (pkg/apis/apps/
 * validation). A v1 IntOrString is a JSON number or a string such as "25%".
 */
import { invalid, type ErrorList, type Path } from '../../../api/field';
import { intValue, type IntOrString } from '../../../api/intstr';
import { isValidPercent } from '../../../api/names';
import { validateNonnegativeField } from '../meta';
import type { Obj } from '../core/json';

/** The field's value as an IntOrString; an absent field is Go's zero IntOrString, the int 0. */
export function intOrString(v: unknown): IntOrString {
  return typeof v === 'number' || typeof v === 'string' ? v : 0;
}

/** ValidatePositiveIntOrPercent: a non-negative int or a well-formed percent string. */
export function validatePositiveIntOrPercent(v: IntOrString, fldPath: Path): ErrorList {
  if (typeof v === 'string') return isValidPercent(v).map((msg) => invalid(fldPath, v, msg));
  return validateNonnegativeField(v, fldPath);
}

function percentValue(v: IntOrString): number | undefined {
  if (typeof v !== 'string' || isValidPercent(v).length > 0) return undefined;
  return intValue(v.slice(0, -1));
}

/** getIntOrPercentValue: the percentage number or the int (a non-percent string reads as its integer). */
export function intOrPercentValue(v: IntOrString): number {
  const pct = percentValue(v);
  if (pct !== undefined) return pct;
  return intValue(v);
}

/** IsNotMoreThan100Percent: only percent strings are capped. */
export function isNotMoreThan100Percent(v: IntOrString, fldPath: Path): ErrorList {
  const pct = percentValue(v);
  if (pct === undefined || pct <= 100) return [];
  return [invalid(fldPath, v, 'must not be greater than 100%')];
}

/**
 * A rolling update's maxUnavailable and maxSurge (Deployments and DaemonSets alike), read as
 * IntOrStrings, with the errors of each that is no positive int or percent.
 */
export function validateRollingUpdateValues(ru: Obj, fldPath: Path): { maxUnavailable: IntOrString; maxSurge: IntOrString; errs: ErrorList } {
  const maxUnavailable = intOrString(ru['maxUnavailable']);
  const maxSurge = intOrString(ru['maxSurge']);
  const errs = [...validatePositiveIntOrPercent(maxUnavailable, fldPath.child('maxUnavailable')), ...validatePositiveIntOrPercent(maxSurge, fldPath.child('maxSurge'))];
  return { maxUnavailable, maxSurge, errs };
}
