/**
 * PodDisruptionBudget rules (pkg/apis/policy/validation). The name is only checked by the
 * generic object-meta pass, as upstream's PDB validation never looks at metadata.
 */
import { invalid, notSupported, Path, type ErrorList } from '../../../api/field';
import type { KubeObject } from '../../../api/types';
import { int, obj, str } from '../core/json';
import { goStruct, labelSelectorValue } from '../apps/go-values';
import { intOrString, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../apps/int-or-percent';
import { labelSelectorHasInvalidLabelValue, validateConditions, validateLabelSelector, validateNonnegativeField } from '../meta';
import { registerValidator } from '../registry';
import { own } from '../../../api/own';

const supportedUnhealthyPodEvictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** The internal PodDisruptionBudgetSpec, as the "cannot be both set" error prints it. */
function specValue(s: Record<string, unknown>): Map<string, unknown> {
  return goStruct([
    ['MinAvailable', s['minAvailable'] ?? null],
    ['Selector', labelSelectorValue(s['selector'])],
    ['MaxUnavailable', s['maxUnavailable'] ?? null],
    ['UnhealthyPodEvictionPolicy', s['unhealthyPodEvictionPolicy'] ?? null],
  ]);
}

function validatePodDisruptionBudgetSpec(spec: unknown, allowInvalidLabelValue: boolean, fldPath: Path): ErrorList {
  const s = obj(spec) ?? {};
  const errs: ErrorList = [];
  if (isSet(s['minAvailable']) && isSet(s['maxUnavailable'])) {
    errs.push(invalid(fldPath, specValue(s), 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const name of ['minAvailable', 'maxUnavailable'] as const) {
    if (!isSet(s[name])) continue;
    const v = intOrString(s[name]);
    errs.push(...validatePositiveIntOrPercent(v, fldPath.child(name)), ...isNotMoreThan100Percent(v, fldPath.child(name)));
  }
  errs.push(...validateLabelSelector(s['selector'], { allowInvalidLabelValueInSelector: allowInvalidLabelValue }, fldPath.child('selector')));
  const policy = s['unhealthyPodEvictionPolicy'];
  if (isSet(policy) && !supportedUnhealthyPodEvictionPolicies.includes(str(policy))) {
    errs.push(notSupported(fldPath.child('unhealthyPodEvictionPolicy'), str(policy), supportedUnhealthyPodEvictionPolicies));
  }
  return errs;
}

function validateStatus(status: unknown, fldPath: Path): ErrorList {
  const s = obj(status) ?? {};
  return [
    ...validateConditions(s['conditions'], fldPath.child('conditions')),
    ...['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'].flatMap((f) =>
      validateNonnegativeField(int(own(s, f)), fldPath.child(f)),
    ),
  ];
}

registerValidator('policy', 'PodDisruptionBudget', {
  create: (pdb: KubeObject) => validatePodDisruptionBudgetSpec(pdb['spec'], false, Path.root('spec')),
  update: (pdb, old) =>
    validatePodDisruptionBudgetSpec(pdb['spec'], labelSelectorHasInvalidLabelValue(obj(old['spec'])?.['selector']), Path.root('spec')),
  updateStatus: (pdb) => validateStatus(pdb['status'], Path.root('status')),
});
