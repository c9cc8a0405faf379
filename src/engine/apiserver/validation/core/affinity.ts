/** Node selectors and node/pod (anti-)affinity. */
import { forbidden, invalid, required, type ErrorList, type Path } from '../../../api/field';
import { isValidLabelValue, nameIsDNSSubdomain, validateNamespaceName } from '../../../api/names';
import { int, isSet, obj, objs, str, strs, type Obj } from './json';
import { validateLabelName, validateLabelSelector, validateSetOperatorValues } from './meta';
import type { PodValidationOptions } from './options';

export function validateNodeSelectorRequirement(rq: Obj, allowInvalidLabelValue: boolean, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const values = strs(rq['values']);
  const operator = str(rq['operator']);
  const valueErrs = validateSetOperatorValues(operator, values.length, fldPath);
  if (valueErrs) errs.push(...valueErrs);
  else if (operator === 'Gt' || operator === 'Lt') {
    if (values.length !== 1) errs.push(required(fldPath.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else errs.push(invalid(fldPath.child('operator'), operator, 'not a valid selector operator'));
  errs.push(...validateLabelName(str(rq['key']), fldPath.child('key')));
  if (!allowInvalidLabelValue) {
    values.forEach((v, i) => errs.push(...isValidLabelValue(v).map((m) => invalid(fldPath.child('values').index(i), v, m))));
  }
  return errs;
}

function validateNodeFieldSelectorRequirement(req: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const operator = str(req['operator']);
  const values = strs(req['values']);
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(fldPath.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalid(fldPath.child('operator'), operator, 'not a valid selector operator'));
  }
  const key = str(req['key']);
  if (key !== 'metadata.name') {
    errs.push(invalid(fldPath.child('key'), key, 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => errs.push(...nameIsDNSSubdomain(v, false).map((m) => invalid(fldPath.child('values').index(i), v, m))));
  }
  return errs;
}

export function validateNodeSelectorTerm(term: Obj, allowInvalidLabelValue: boolean, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  objs(term['matchExpressions']).forEach((req, j) => errs.push(...validateNodeSelectorRequirement(req, allowInvalidLabelValue, fldPath.child('matchExpressions').index(j))));
  objs(term['matchFields']).forEach((req, j) => errs.push(...validateNodeFieldSelectorRequirement(req, fldPath.child('matchFields').index(j))));
  return errs;
}

/** A NodeSelector (node affinity's required terms, PersistentVolume node affinity). */
export function validateNodeSelector(selector: Obj, allowInvalidLabelValue: boolean, fldPath: Path): ErrorList {
  const termPath = fldPath.child('nodeSelectorTerms');
  const terms = objs(selector['nodeSelectorTerms']);
  if (terms.length === 0) return [required(termPath, 'must have at least one node selector term')];
  const errs: ErrorList = [];
  terms.forEach((term, i) => errs.push(...validateNodeSelectorTerm(term, allowInvalidLabelValue, termPath.index(i))));
  return errs;
}

function validatePreferredSchedulingTerms(terms: readonly Obj[], fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  terms.forEach((term, i) => {
    const weight = int(term['weight']);
    if (weight <= 0 || weight > 100) errs.push(invalid(fldPath.index(i).child('weight'), weight, 'must be in the range 1-100'));
    // Preferred terms tolerate invalid values: with a single node they can still match.
    errs.push(...validateNodeSelectorTerm(obj(term['preference']) ?? {}, true, fldPath.index(i).child('preference')));
  });
  return errs;
}

function validateNodeAffinity(na: Obj, opts: PodValidationOptions, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const requiredTerms = obj(na['requiredDuringSchedulingIgnoredDuringExecution']);
  if (requiredTerms) {
    errs.push(...validateNodeSelector(requiredTerms, opts.allowInvalidLabelValueInRequiredNodeAffinity, fldPath.child('requiredDuringSchedulingIgnoredDuringExecution')));
  }
  const preferred = objs(na['preferredDuringSchedulingIgnoredDuringExecution']);
  if (preferred.length > 0) errs.push(...validatePreferredSchedulingTerms(preferred, fldPath.child('preferredDuringSchedulingIgnoredDuringExecution')));
  return errs;
}

function validateLabelKeys(fldPath: Path, keys: string[], labelSelector: unknown): ErrorList {
  if (keys.length === 0) return [];
  if (!isSet(labelSelector)) return [forbidden(fldPath, 'must not be specified when labelSelector is not set')];
  const errs: ErrorList = [];
  keys.forEach((k, i) => errs.push(...validateLabelName(k, fldPath.index(i))));
  return errs;
}

/**
 * matchLabelKeys and mismatchLabelKeys: valid label names, a labelSelector to merge into, and no
 * key both in matchLabelKeys and already in the selector, or in both lists.
 */
function validateMatchLabelKeysAndMismatchLabelKeys(fldPath: Path, term: Obj): ErrorList {
  const matchLabelKeys = strs(term['matchLabelKeys']);
  const mismatchLabelKeys = strs(term['mismatchLabelKeys']);
  const selector = obj(term['labelSelector']);
  const errs = validateLabelKeys(fldPath.child('matchLabelKeys'), matchLabelKeys, selector);
  errs.push(...validateLabelKeys(fldPath.child('mismatchLabelKeys'), mismatchLabelKeys, selector));
  if (selector) {
    const keyIndex = new Map<string, number>();
    matchLabelKeys.forEach((k, i) => keyIndex.set(k, i));
    const selectorKeys = new Set(Object.keys(obj(selector['matchLabels']) ?? {}));
    for (const expr of objs(selector['matchExpressions'])) {
      const key = str(expr['key']);
      const i = keyIndex.get(key);
      if (i !== undefined && selectorKeys.has(key)) errs.push(invalid(fldPath.index(i), key, 'exists in both matchLabelKeys and labelSelector'));
      selectorKeys.add(key);
    }
  }
  const mismatch = new Set(mismatchLabelKeys);
  matchLabelKeys.forEach((k, i) => {
    if (mismatch.has(k)) errs.push(invalid(fldPath.child('matchLabelKeys').index(i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}

function validatePodAffinityTerm(term: Obj, allowInvalidLabelValue: boolean, fldPath: Path): ErrorList {
  const selectorOpts = { allowInvalidLabelValueInSelector: allowInvalidLabelValue };
  const errs = validateLabelSelector(term['labelSelector'], selectorOpts, fldPath.child('labelSelector'));
  errs.push(...validateLabelSelector(term['namespaceSelector'], selectorOpts, fldPath.child('namespaceSelector')));
  for (const name of strs(term['namespaces'])) {
    errs.push(...validateNamespaceName(name, false).map((m) => invalid(fldPath.child('namespace'), name, m)));
  }
  errs.push(...validateMatchLabelKeysAndMismatchLabelKeys(fldPath, term));
  const topologyKey = str(term['topologyKey']);
  if (topologyKey.length === 0) errs.push(required(fldPath.child('topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(topologyKey, fldPath.child('topologyKey')));
  return errs;
}

function validatePodAffinityKind(a: Obj, allowInvalidLabelValue: boolean, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const requiredPath = fldPath.child('requiredDuringSchedulingIgnoredDuringExecution');
  objs(a['requiredDuringSchedulingIgnoredDuringExecution']).forEach((t, i) => errs.push(...validatePodAffinityTerm(t, allowInvalidLabelValue, requiredPath.index(i))));
  const preferredPath = fldPath.child('preferredDuringSchedulingIgnoredDuringExecution');
  objs(a['preferredDuringSchedulingIgnoredDuringExecution']).forEach((w, j) => {
    const weight = int(w['weight']);
    if (weight <= 0 || weight > 100) errs.push(invalid(preferredPath.index(j).child('weight'), weight, 'must be in the range 1-100'));
    errs.push(...validatePodAffinityTerm(obj(w['podAffinityTerm']) ?? {}, allowInvalidLabelValue, preferredPath.index(j).child('podAffinityTerm')));
  });
  return errs;
}

export function validateAffinity(affinity: unknown, opts: PodValidationOptions, fldPath: Path): ErrorList {
  const a = obj(affinity);
  if (!a) return [];
  const errs: ErrorList = [];
  const na = obj(a['nodeAffinity']);
  if (na) errs.push(...validateNodeAffinity(na, opts, fldPath.child('nodeAffinity')));
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const pa = obj(a[kind]);
    if (pa) errs.push(...validatePodAffinityKind(pa, opts.allowInvalidLabelValueInSelector, fldPath.child(kind)));
  }
  return errs;
}
