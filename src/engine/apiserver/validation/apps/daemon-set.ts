/**
 * DaemonSet rules (pkg/apis/apps/validation and the apps/v1 registry strategy): selector and
 * template, and an update strategy where exactly one of maxSurge and maxUnavailable is non-zero.
 */
import { invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { int, num, obj, type Obj } from '../core/json';
import { podTemplateValidationOptions } from '../core/podtemplate';
import { validatePodTemplateSpec } from '../core/podtemplate';
import { labelSelectorHasInvalidLabelValue, validateLabelSelector, validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { labelSelectorValue, rollingStrategyValue } from './go-values';
import { intOrPercentValue, isNotMoreThan100Percent, validateRollingUpdateValues } from './int-or-percent';
import { isDecremented, isEmptySelector, selectorOf, templateLabels, validateLongRunningPodSpec, validateSelectorImmutable } from './template';
import { own } from '../../../api/own';

function validateRollingUpdate(ru: Obj, fldPath: Path): ErrorList {
  const { maxUnavailable, maxSurge, errs } = validateRollingUpdateValues(ru, fldPath);
  errs.push(...isNotMoreThan100Percent(maxUnavailable, fldPath.child('maxUnavailable')), ...isNotMoreThan100Percent(maxSurge, fldPath.child('maxSurge')));
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errs.push(invalid(fldPath.child('maxSurge'), maxSurge, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(required(fldPath.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  return errs;
}

function validateUpdateStrategy(strategy: Obj, fldPath: Path): ErrorList {
  switch (strategy['type']) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const ru = obj(strategy['rollingUpdate']);
      return ru ? validateRollingUpdate(ru, fldPath.child('rollingUpdate')) : [required(fldPath.child('rollingUpdate'), '')];
    }
    default:
      return [notSupported(fldPath, rollingStrategyValue(strategy), ['RollingUpdate', 'OnDelete'])];
  }
}

function validateSpec(spec: Obj, oldSpec: Obj | undefined, allowInvalidLabelValue: boolean, fldPath: Path): ErrorList {
  const sel = spec['selector'];
  const errs = validateLabelSelector(sel, { allowInvalidLabelValueInSelector: allowInvalidLabelValue }, fldPath.child('selector'));
  const selector = selectorOf(sel);
  const template = obj(spec['template']) ?? {};
  const templatePath = fldPath.child('template');
  if (selector.ok && !selector.value.matches(templateLabels(template))) {
    errs.push(invalid(templatePath.child('metadata', 'labels'), obj(obj(template['metadata'])?.['labels']) ?? null, '`selector` does not match template `labels`'));
  }
  const s = obj(sel);
  if (s && isEmptySelector(s)) errs.push(invalid(fldPath.child('selector'), labelSelectorValue(s), 'empty selector is invalid for daemonset'));
  errs.push(...validatePodTemplateSpec(template, templatePath, podTemplateValidationOptions(obj(oldSpec?.['template']))));
  errs.push(...validateLongRunningPodSpec(template, 'DaemonSet', templatePath));
  errs.push(...validateNonnegativeField(int(spec['minReadySeconds']), fldPath.child('minReadySeconds')));
  errs.push(...validateUpdateStrategy(obj(spec['updateStrategy']) ?? {}, fldPath.child('updateStrategy')));
  const history = num(spec['revisionHistoryLimit']);
  if (history !== undefined) errs.push(...validateNonnegativeField(history, fldPath.child('revisionHistoryLimit')));
  return errs;
}

function validateStatus(status: Obj, fldPath: Path): ErrorList {
  const fields = [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
  ];
  const errs = fields.flatMap((f) => validateNonnegativeField(int(own(status, f)), fldPath.child(f)));
  const collisions = num(status['collisionCount']);
  if (collisions !== undefined) errs.push(...validateNonnegativeField(collisions, fldPath.child('collisionCount')));
  return errs;
}

const specOf = (ds: KubeObject): Obj => obj(ds['spec']) ?? {};

function validateDaemonSet(ds: KubeObject, oldSpec: Obj | undefined, allowInvalidLabelValue: boolean): ErrorList {
  return [
    ...validateObjectMeta(ds.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateSpec(specOf(ds), oldSpec, allowInvalidLabelValue, Path.root('spec')),
  ];
}

registerValidator('apps', 'DaemonSet', {
  create: (ds) => validateDaemonSet(ds, undefined, false),
  // The strategy runs the create rules and then the update rules, which validate the spec again.
  update: (ds, old) => {
    const allow = labelSelectorHasInvalidLabelValue(specOf(old)['selector']);
    return [
      ...validateDaemonSet(ds, specOf(old), allow),
      ...validateObjectMetaUpdate(ds.metadata, old.metadata, Path.root('metadata')),
      ...validateSpec(specOf(ds), specOf(old), allow, Path.root('spec')),
      ...validateSelectorImmutable(specOf(ds)['selector'], specOf(old)['selector'], Path.root('spec', 'selector')),
    ];
  },
  updateStatus: (ds, old) => {
    const status = obj(ds['status']) ?? {};
    const errs = [...validateObjectMetaUpdate(ds.metadata, old.metadata, Path.root('metadata')), ...validateStatus(status, Path.root('status'))];
    if (isDecremented(status['collisionCount'], obj(old['status'])?.['collisionCount'])) {
      errs.push(invalid(Path.root('status', 'collisionCount'), num(status['collisionCount']) ?? 0, 'cannot be decremented'));
    }
    return errs;
  },
});
