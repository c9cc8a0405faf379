/**
 * What every workload checks about its selector and pod template (pkg/apis/apps/validation):
 * the selector must be non-empty and select the template's own labels, and the pods run forever.
 */
import { forbidden, invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { labelSelectorAsSelector, type Selector, type LabelSelector } from '../../../api/labels';
import type { Result } from '../../../api/result';
import { isSet, obj, objs, str, strs, type Obj } from '../core/json';
import type { PodValidationOptions } from '../core/options';
import { podTemplateValidationOptions, validatePodTemplateSpec } from '../core/podtemplate';
import { validateLabelSelector } from '../meta';
import { semanticEqual } from '../core/json';
import { labelSelectorValue, stringMap } from './go-values';

/** The JSON selector as a typed LabelSelector; mistyped parts read as Go's zero values. */
function labelSelectorOf(sel: unknown): LabelSelector | undefined {
  const s = obj(sel);
  if (!s) return undefined;
  return {
    matchLabels: Object.fromEntries(Object.entries(obj(s['matchLabels']) ?? {}).map(([k, v]) => [k, str(v)])),
    matchExpressions: objs(s['matchExpressions']).map((e) => ({ key: str(e['key']), operator: str(e['operator']), values: strs(e['values']) })),
  };
}

/** metav1.LabelSelectorAsSelector on the JSON selector; a missing selector selects nothing. */
export function selectorOf(sel: unknown): Result<Selector> {
  return labelSelectorAsSelector(labelSelectorOf(sel));
}

export const templateLabels = (template: Obj): Record<string, string> => stringMap(obj(template['metadata'])?.['labels']) ?? {};

/** The "`selector` does not match template `labels`" check, reported with the template's labels. */
export function validateSelectorMatchesTemplate(selector: Selector, template: Obj, fldPath: Path): ErrorList {
  if (selector.empty() || selector.matches(templateLabels(template))) return [];
  return [invalid(fldPath.child('metadata', 'labels'), stringMap(obj(template['metadata'])?.['labels']), '`selector` does not match template `labels`')];
}

/** restartPolicy Always and no activeDeadlineSeconds: the rule of every long-running workload. */
export function validateLongRunningPodSpec(template: Obj, kindName: string, fldPath: Path): ErrorList {
  const spec = obj(template['spec']) ?? {};
  const errs: ErrorList = [];
  if (spec['restartPolicy'] !== 'Always') errs.push(notSupported(fldPath.child('spec', 'restartPolicy'), str(spec['restartPolicy']), ['Always']));
  if (isSet(spec['activeDeadlineSeconds'])) {
    errs.push(forbidden(fldPath.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kindName} is not Supported`));
  }
  return errs;
}

/** ValidatePodTemplateSpecForReplicaSet, shared by Deployments (whose errors still say ReplicaSet). */
function validatePodTemplateSpecForReplicaSet(template: Obj, selector: Selector, fldPath: Path, opts: PodValidationOptions): ErrorList {
  return [
    ...validateSelectorMatchesTemplate(selector, template, fldPath),
    ...validatePodTemplateSpec(template, fldPath, opts),
    ...validateLongRunningPodSpec(template, 'ReplicaSet', fldPath),
  ];
}

/**
 * A workload's selector, which must be given, valid and non-empty: the empty-selector message
 * names `kindName` ("deployment", which ReplicaSets use too, or "statefulset").
 */
export function validateRequiredSelector(sel: Obj | undefined, kindName: string, fldPath: Path): ErrorList {
  if (!sel) return [required(fldPath, '')];
  const errs = validateLabelSelector(sel, { allowInvalidLabelValueInSelector: false }, fldPath);
  if (isEmptySelector(sel)) errs.push(invalid(fldPath, labelSelectorValue(sel), `empty selector is invalid for ${kindName}`));
  return errs;
}

/**
 * The selector and pod template of a ReplicaSet spec, and of a Deployment spec, which upstream
 * validates with the ReplicaSet rules: the template is checked only against a selector that parses.
 */
export function validateReplicaSetSelectorAndTemplate(spec: Obj, oldSpec: Obj | undefined, fldPath: Path): ErrorList {
  const sel = obj(spec['selector']);
  const errs = validateRequiredSelector(sel, 'deployment', fldPath.child('selector'));
  const selector = selectorOf(sel);
  if (!selector.ok) errs.push(invalid(fldPath.child('selector'), labelSelectorValue(sel), 'invalid label selector'));
  else {
    const opts = podTemplateValidationOptions(obj(oldSpec?.['template']));
    errs.push(...validatePodTemplateSpecForReplicaSet(obj(spec['template']) ?? {}, selector.value, fldPath.child('template'), opts));
  }
  return errs;
}

/** Whether a selector has neither matchLabels nor matchExpressions. */
export function isEmptySelector(sel: Obj): boolean {
  return Object.keys(obj(sel['matchLabels']) ?? {}).length + (Array.isArray(sel['matchExpressions']) ? sel['matchExpressions'].length : 0) === 0;
}

/** The apps/v1 strategies' selector immutability, with the selector printed in struct order. */
export function validateSelectorImmutable(now: unknown, before: unknown, fldPath: Path): ErrorList {
  return semanticEqual(now, before) ? [] : [invalid(fldPath, labelSelectorValue(now), 'field is immutable')];
}

/** IsDecremented for a *int32 counter: going from a value to nil counts as a decrement. */
export function isDecremented(now: unknown, before: unknown): boolean {
  if (typeof before !== 'number') return false;
  return typeof now !== 'number' || now < before;
}
