/**
 * Deployment rules (pkg/apis/apps/validation and the apps/v1 registry strategy): replicas,
 * selector and template, the rollout strategy, and the status counters.
 */
import { forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { int, num, obj, type Obj } from '../core/json';
import { validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { rollingStrategyValue } from './go-values';
import { intOrPercentValue, isNotMoreThan100Percent, validateRollingUpdateValues } from './int-or-percent';
import { isDecremented, validateReplicaSetSelectorAndTemplate, validateSelectorImmutable } from './template';
import { validateReplicaCounts } from './status';

function validateRollingUpdate(ru: Obj, fldPath: Path): ErrorList {
  const { maxUnavailable, maxSurge, errs } = validateRollingUpdateValues(ru, fldPath);
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errs.push(invalid(fldPath.child('maxUnavailable'), maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  return [...errs, ...isNotMoreThan100Percent(maxUnavailable, fldPath.child('maxUnavailable'))];
}

function validateStrategy(strategy: Obj, fldPath: Path): ErrorList {
  const ru = obj(strategy['rollingUpdate']);
  switch (strategy['type']) {
    case 'Recreate':
      return ru ? [forbidden(fldPath.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate':
      return ru ? validateRollingUpdate(ru, fldPath.child('rollingUpdate')) : [required(fldPath.child('rollingUpdate'), 'this should be defaulted and never be nil')];
    default:
      return [notSupported(fldPath, rollingStrategyValue(strategy), ['Recreate', 'RollingUpdate'])];
  }
}

function validateSpec(spec: Obj, oldSpec: Obj | undefined, fldPath: Path): ErrorList {
  const errs = validateNonnegativeField(int(spec['replicas']), fldPath.child('replicas'));
  errs.push(...validateReplicaSetSelectorAndTemplate(spec, oldSpec, fldPath));
  errs.push(...validateStrategy(obj(spec['strategy']) ?? {}, fldPath.child('strategy')));
  const minReadySeconds = int(spec['minReadySeconds']);
  errs.push(...validateNonnegativeField(minReadySeconds, fldPath.child('minReadySeconds')));
  const history = num(spec['revisionHistoryLimit']);
  if (history !== undefined) errs.push(...validateNonnegativeField(history, fldPath.child('revisionHistoryLimit')));
  const deadline = num(spec['progressDeadlineSeconds']);
  if (deadline !== undefined) {
    errs.push(...validateNonnegativeField(deadline, fldPath.child('progressDeadlineSeconds')));
    if (deadline <= minReadySeconds) errs.push(invalid(fldPath.child('progressDeadlineSeconds'), deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

function validateStatus(status: Obj, fldPath: Path): ErrorList {
  const errs = validateNonnegativeField(int(status['observedGeneration']), fldPath.child('observedGeneration'));
  for (const f of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'] as const) {
    errs.push(...validateNonnegativeField(int(status[f]), fldPath.child(f)));
  }
  for (const f of ['terminatingReplicas', 'collisionCount'] as const) {
    const v = num(status[f]);
    if (v !== undefined) errs.push(...validateNonnegativeField(v, fldPath.child(f)));
  }
  return [...errs, ...validateReplicaCounts(status, ['updatedReplicas', 'readyReplicas', 'availableReplicas'], 'readyReplicas', fldPath)];
}

const specOf = (d: KubeObject): Obj => obj(d['spec']) ?? {};

registerValidator('apps', 'Deployment', {
  create: (d) => [...validateObjectMeta(d.metadata, true, nameIsDNSSubdomain, Path.root('metadata')), ...validateSpec(specOf(d), undefined, Path.root('spec'))],
  update: (d, old) => [
    ...validateObjectMetaUpdate(d.metadata, old.metadata, Path.root('metadata')),
    ...validateSpec(specOf(d), specOf(old), Path.root('spec')),
    ...validateSelectorImmutable(specOf(d)['selector'], specOf(old)['selector'], Path.root('spec', 'selector')),
  ],
  updateStatus: (d, old) => {
    const status = obj(d['status']) ?? {};
    const errs = [...validateObjectMetaUpdate(d.metadata, old.metadata, Path.root('metadata')), ...validateStatus(status, Path.root('status'))];
    const before = obj(old['status'])?.['collisionCount'];
    if (isDecremented(status['collisionCount'], before)) errs.push(invalid(Path.root('status', 'collisionCount'), num(status['collisionCount']) ?? 0, 'cannot be decremented'));
    return errs;
  },
});
