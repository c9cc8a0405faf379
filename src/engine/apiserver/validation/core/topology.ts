/** topologySpreadConstraints. */
import { duplicate, forbidden, invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { int, isSet, num, obj, objs, str, strs, type Obj } from './json';
import { validateLabelName, validateLabelSelector } from './meta';
import { isNotPositiveErrorMsg } from './numbers';
import type { PodValidationOptions } from './options';

const scheduleActions = ['DoNotSchedule', 'ScheduleAnyway'];
const nodeInclusionPolicies = ['Honor', 'Ignore'];

export function validateTopologySpreadConstraints(constraints: unknown, fldPath: Path, opts: PodValidationOptions): ErrorList {
  const errs: ErrorList = [];
  const list = objs(constraints);
  list.forEach((c, i) => {
    const path = fldPath.index(i);
    const maxSkew = int(c['maxSkew']);
    if (maxSkew <= 0) errs.push(invalid(path.child('maxSkew'), maxSkew, isNotPositiveErrorMsg));
    const topologyKey = str(c['topologyKey']);
    if (topologyKey.length === 0) errs.push(required(path.child('topologyKey'), 'can not be empty'));
    const action = str(c['whenUnsatisfiable']);
    if (!scheduleActions.includes(action)) errs.push(notSupported(path.child('whenUnsatisfiable'), action, scheduleActions));
    // {topologyKey, whenUnsatisfiable} identifies a constraint; only the first of a repeated pair is reported.
    if (list.slice(i + 1).some((r) => str(r['topologyKey']) === topologyKey && str(r['whenUnsatisfiable']) === action)) {
      errs.push(duplicate(path.child('{topologyKey, whenUnsatisfiable}'), `{${topologyKey}, ${action}}`));
    }
    const minDomains = num(c['minDomains']);
    if (minDomains !== undefined) {
      if (minDomains <= 0) errs.push(invalid(path.child('minDomains'), minDomains, isNotPositiveErrorMsg));
      if (action !== 'DoNotSchedule') {
        errs.push(invalid(path.child('minDomains'), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
      }
    }
    for (const field of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      if (isSet(c[field]) && !nodeInclusionPolicies.includes(str(c[field]))) {
        errs.push(notSupported(path.child(field), str(c[field]), nodeInclusionPolicies));
      }
    }
    errs.push(...validateMatchLabelKeysInTopologySpread(path.child('matchLabelKeys'), strs(c['matchLabelKeys']), obj(c['labelSelector'])));
    if (!opts.allowInvalidTopologySpreadConstraintLabelSelector) {
      errs.push(...validateLabelSelector(c['labelSelector'], { allowInvalidLabelValueInSelector: false }, path.child('labelSelector')));
    }
  });
  return errs;
}

function validateMatchLabelKeysInTopologySpread(fldPath: Path, keys: string[], selector: Obj | undefined): ErrorList {
  if (keys.length === 0) return [];
  const errs: ErrorList = [];
  const selectorKeys = new Set<string>();
  if (selector) {
    for (const k of Object.keys(obj(selector['matchLabels']) ?? {})) selectorKeys.add(k);
    for (const e of objs(selector['matchExpressions'])) selectorKeys.add(str(e['key']));
  } else {
    errs.push(forbidden(fldPath, 'must not be specified when labelSelector is not set'));
  }
  keys.forEach((key, i) => {
    errs.push(...validateLabelName(key, fldPath.index(i)));
    if (selectorKeys.has(key)) errs.push(invalid(fldPath.index(i), key, 'exists in both matchLabelKeys and labelSelector'));
  });
  return errs;
}
