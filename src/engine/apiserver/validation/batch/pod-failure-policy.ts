/**
 * Job podFailurePolicy rules (pkg/apis/batch/validation): each rule has an action and exactly one
 * of onExitCodes and onPodConditions.
 */
import { duplicate, invalid, notSupported, OMIT, required, tooMany, type ErrorList, type Path } from '../../../api/field';
import { arr, num, obj, objs, str, type Obj } from '../core/json';
import { validateQualifiedName } from '../core/formats';

const maxRules = 20;
const maxOnExitCodesValues = 255;
const maxOnPodConditionsPatterns = 20;
const actions = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const operators = ['In', 'NotIn'];
const conditionStatuses = ['False', 'True', 'Unknown'];

/** fmt's %q of a string slice: `["a" "b"]`. */
const quotedList = (list: string[]): string => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

function validateOnExitCodes(req: Obj, containerNames: Set<string>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const operator = str(req['operator']);
  if (operator === '') errs.push(required(fldPath.child('operator'), `valid values: ${quotedList(operators)}`));
  else if (!operators.includes(operator)) errs.push(notSupported(fldPath.child('operator'), operator, operators));
  const containerName = req['containerName'];
  if (typeof containerName === 'string' && !containerNames.has(containerName)) {
    errs.push(invalid(fldPath.child('containerName'), containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const valuesPath = fldPath.child('values');
  const values = arr(req['values']).map((v) => num(v) ?? 0);
  if (values.length === 0) errs.push(invalid(valuesPath, Array.isArray(req['values']) ? [] : null, 'at least one value is required'));
  else if (values.length > maxOnExitCodesValues) errs.push(tooMany(valuesPath, values.length, maxOnExitCodesValues));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) errs.push(invalid(valuesPath.index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(valuesPath.index(j), v));
    else seen.add(v);
    if (j > 0 && values[j - 1]! > v) ordered = false;
  });
  if (!ordered) errs.push(invalid(valuesPath, values, 'must be ordered'));
  return errs;
}

function validateOnPodConditions(patterns: readonly Obj[], fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (patterns.length > maxOnPodConditionsPatterns) errs.push(tooMany(fldPath, patterns.length, maxOnPodConditionsPatterns));
  patterns.forEach((p, j) => {
    const patternPath = fldPath.index(j);
    errs.push(...validateQualifiedName(str(p['type']), patternPath.child('type')));
    const status = str(p['status']);
    if (status === '') errs.push(required(patternPath.child('status'), `valid values: ${quotedList(conditionStatuses)}`));
    else if (!conditionStatuses.includes(status)) errs.push(notSupported(patternPath.child('status'), status, conditionStatuses));
  });
  return errs;
}

function validateRule(rule: Obj, hasBackoffLimitPerIndex: boolean, containerNames: Set<string>, rulePath: Path): ErrorList {
  const errs: ErrorList = [];
  const action = str(rule['action']);
  const actionPath = rulePath.child('action');
  if (action === '') errs.push(required(actionPath, `valid values: ${quotedList(actions)}`));
  else if (action === 'FailIndex') {
    if (!hasBackoffLimitPerIndex) errs.push(invalid(actionPath, action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!actions.includes(action)) errs.push(notSupported(actionPath, action, actions));
  const onExitCodes = obj(rule['onExitCodes']);
  const onPodConditions = objs(rule['onPodConditions']);
  if (onExitCodes) errs.push(...validateOnExitCodes(onExitCodes, containerNames, rulePath.child('onExitCodes')));
  if (onPodConditions.length > 0) errs.push(...validateOnPodConditions(onPodConditions, rulePath.child('onPodConditions')));
  if (onExitCodes && onPodConditions.length > 0) errs.push(invalid(rulePath, OMIT, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  if (!onExitCodes && onPodConditions.length === 0) errs.push(invalid(rulePath, OMIT, 'specifying one of OnExitCodes and OnPodConditions is required'));
  return errs;
}

export function validatePodFailurePolicy(spec: Obj, fldPath: Path): ErrorList {
  const rulesPath = fldPath.child('rules');
  const rules = objs(obj(spec['podFailurePolicy'])?.['rules']);
  const errs: ErrorList = [];
  if (rules.length > maxRules) errs.push(tooMany(rulesPath, rules.length, maxRules));
  const podSpec = obj(obj(spec['template'])?.['spec']) ?? {};
  const containerNames = new Set([...objs(podSpec['containers']), ...objs(podSpec['initContainers'])].map((c) => str(c['name'])));
  const hasBackoffLimitPerIndex = num(spec['backoffLimitPerIndex']) !== undefined;
  rules.forEach((r, i) => errs.push(...validateRule(r, hasBackoffLimitPerIndex, containerNames, rulesPath.index(i))));
  return errs;
}
