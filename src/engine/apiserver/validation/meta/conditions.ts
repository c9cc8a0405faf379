/**
 * metav1.Condition rules (ValidateConditions, release-1.35), used by kinds whose status carries
 * standard conditions (PodDisruptionBudget, CRDs' status, ...).
 */
import { duplicate, invalid, notSupported, required, tooLong, type ErrorList, type Path } from '../../../api/field';
import { regexError } from '../../../api/names';
import { asArray, asObject, asString } from './json';
import { validateLabelName } from './labels';

const maxReasonLen = 1024;
const maxMessageLen = 32 * 1024;
const conditionReasonFmt = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const conditionReasonErrMsg =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

export function validateConditions(conditions: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  asArray(conditions).forEach((c, i) => {
    const type = asString(asObject(c)?.['type']);
    if (seen.has(type)) errs.push(duplicate(fldPath.index(i).child('type'), type));
    else seen.add(type);
    errs.push(...validateCondition(c, fldPath.index(i)));
  });
  return errs;
}

export function validateCondition(condition: unknown, fldPath: Path): ErrorList {
  const c = asObject(condition) ?? {};
  const errs = validateLabelName(asString(c['type']), fldPath.child('type'));
  const status = asString(c['status']);
  if (status !== 'True' && status !== 'False' && status !== 'Unknown') errs.push(notSupported(fldPath.child('status'), status, ['False', 'True', 'Unknown']));
  const observedGeneration = typeof c['observedGeneration'] === 'number' ? c['observedGeneration'] : 0;
  if (observedGeneration < 0) errs.push(invalid(fldPath.child('observedGeneration'), observedGeneration, 'must be greater than or equal to zero'));
  if (asString(c['lastTransitionTime']).length === 0) errs.push(required(fldPath.child('lastTransitionTime'), ''));
  const reason = asString(c['reason']);
  if (reason.length === 0) {
    errs.push(required(fldPath.child('reason'), ''));
  } else {
    if (!new RegExp(`^(?:${conditionReasonFmt})$`).test(reason)) {
      errs.push(invalid(fldPath.child('reason'), reason, regexError(conditionReasonErrMsg, conditionReasonFmt, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB')));
    }
    if (byteLength(reason) > maxReasonLen) errs.push(tooLong(fldPath.child('reason'), maxReasonLen));
  }
  if (byteLength(asString(c['message'])) > maxMessageLen) errs.push(tooLong(fldPath.child('message'), maxMessageLen));
  return errs;
}
