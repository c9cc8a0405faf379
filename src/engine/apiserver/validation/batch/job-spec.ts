/**
 * JobSpec rules shared by Jobs and CronJob job templates (pkg/apis/batch/validation): counts,
 * completion mode and its limits, failure and success policies, and a pod template that
 * terminates (restartPolicy OnFailure or Never).
 */
import { invalid, notSupported, required, tooLong, tooMany, type ErrorList, type Path } from '../../../api/field';
import { isDomainPrefixedPath } from '../../../api/names';
import { isSet, num, obj, objs, str, type Obj } from '../core/json';
import type { PodValidationOptions } from '../core/options';
import { validatePodTemplateSpec } from '../core/podtemplate';
import { validateNonnegativeField } from '../meta';
import { goStruct } from '../apps/go-values';
import { validateIndexesFormat } from './indexes';
import { validatePodFailurePolicy } from './pod-failure-policy';

const maxParallelismForIndexedJob = 100_000;
const maxFailedIndexesForIndexedJob = 100_000;
const completionsSoftLimit = 100_000;
const parallelismLimitForHighCompletions = 10_000;
const maxFailedIndexesLimitForHighCompletions = 10_000;
const maxManagedByLength = 63;
const maxSucceededIndexesLength = 64 * 1024;
const maxSuccessPolicyRules = 20;

export const isIndexed = (spec: Obj): boolean => spec['completionMode'] === 'Indexed';

function validateIndexedLimits(spec: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const completions = num(spec['completions']);
  const parallelism = num(spec['parallelism']);
  const maxFailed = num(spec['maxFailedIndexes']);
  if (completions === undefined) errs.push(required(fldPath.child('completions'), 'when completion mode is Indexed'));
  if (parallelism !== undefined && parallelism > maxParallelismForIndexedJob) {
    errs.push(invalid(fldPath.child('parallelism'), parallelism, `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`));
  }
  if (completions !== undefined && maxFailed !== undefined && maxFailed > completions) {
    errs.push(invalid(fldPath.child('maxFailedIndexes'), maxFailed, 'must be less than or equal to completions'));
  }
  if (maxFailed !== undefined && maxFailed > maxFailedIndexesForIndexedJob) {
    errs.push(invalid(fldPath.child('maxFailedIndexes'), maxFailed, `must be less than or equal to ${maxFailedIndexesForIndexedJob}`));
  }
  if (completions !== undefined && completions > completionsSoftLimit && isSet(spec['backoffLimitPerIndex'])) {
    if (maxFailed === undefined) errs.push(required(fldPath.child('maxFailedIndexes'), `must be specified when completions is above ${completionsSoftLimit}`));
    const suffix = `when completions are above ${completionsSoftLimit} and used with backoff limit per index`;
    if (parallelism !== undefined && parallelism > parallelismLimitForHighCompletions) {
      errs.push(invalid(fldPath.child('parallelism'), parallelism, `must be less than or equal to ${parallelismLimitForHighCompletions} ${suffix}`));
    }
    if (maxFailed !== undefined && maxFailed > maxFailedIndexesLimitForHighCompletions) {
      errs.push(invalid(fldPath.child('maxFailedIndexes'), maxFailed, `must be less than or equal to ${maxFailedIndexesLimitForHighCompletions} ${suffix}`));
    }
  }
  return errs;
}

/** The internal SuccessPolicy, as the non-indexed error prints it. */
function successPolicyValue(policy: Obj): Map<string, unknown> {
  const rules = objs(policy['rules']).map((r) => goStruct([['SucceededIndexes', r['succeededIndexes'] ?? null], ['SucceededCount', r['succeededCount'] ?? null]]));
  return goStruct([['Rules', Array.isArray(policy['rules']) ? rules : null]]);
}

function validateSuccessPolicy(spec: Obj, policy: Obj, fldPath: Path): ErrorList {
  const rulesPath = fldPath.child('rules');
  const rules = objs(policy['rules']);
  const completions = num(spec['completions']) ?? 0;
  const errs: ErrorList = [];
  if (rules.length === 0) errs.push(required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > maxSuccessPolicyRules) errs.push(tooMany(rulesPath, rules.length, maxSuccessPolicyRules));
  rules.forEach((rule, i) => {
    const rulePath = rulesPath.index(i);
    const indexes = rule['succeededIndexes'];
    const count = num(rule['succeededCount']);
    if (count === undefined && typeof indexes !== 'string') {
      errs.push(required(rulePath, 'at least one of succeededCount or succeededIndexes must be specified'));
    }
    let total = 0;
    if (typeof indexes === 'string') {
      const p = rulePath.child('succeededIndexes');
      if (indexes.length > maxSucceededIndexesLength) errs.push(tooLong(p, maxSucceededIndexesLength));
      const parsed = validateIndexesFormat(indexes, completions);
      if (typeof parsed === 'string') errs.push(invalid(p, indexes, `error parsing succeededIndexes: ${parsed}`));
      else total = parsed;
    }
    if (count !== undefined) {
      const p = rulePath.child('succeededCount');
      errs.push(...validateNonnegativeField(count, p));
      if (count > completions) errs.push(invalid(p, count, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (typeof indexes === 'string' && count > total) {
        errs.push(invalid(p, count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
      }
    }
  });
  return errs;
}

function validatePodReplacementPolicy(spec: Obj, fldPath: Path): ErrorList {
  const policy = spec['podReplacementPolicy'];
  if (typeof policy !== 'string') return [];
  if (obj(spec['podFailurePolicy'])) return policy === 'Failed' ? [] : [notSupported(fldPath, policy, ['Failed'])];
  return ['Failed', 'TerminatingOrFailed'].includes(policy) ? [] : [notSupported(fldPath, policy, ['Failed', 'TerminatingOrFailed'])];
}

/** validateJobSpec: everything but the selector, which Jobs and templates treat differently. */
export function validateJobSpecFields(spec: Obj, fldPath: Path, opts: PodValidationOptions): ErrorList {
  const errs: ErrorList = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex'] as const) {
    const v = num(spec[f]);
    if (v !== undefined) errs.push(...validateNonnegativeField(v, fldPath.child(f)));
  }
  const maxFailed = num(spec['maxFailedIndexes']);
  if (maxFailed !== undefined) {
    errs.push(...validateNonnegativeField(maxFailed, fldPath.child('maxFailedIndexes')));
    if (!isSet(spec['backoffLimitPerIndex'])) errs.push(required(fldPath.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  const managedBy = spec['managedBy'];
  if (typeof managedBy === 'string') {
    errs.push(...isDomainPrefixedPath(fldPath.child('managedBy'), managedBy));
    if (managedBy.length > maxManagedByLength) errs.push(tooLong(fldPath.child('managedBy'), maxManagedByLength));
  }
  const mode = spec['completionMode'];
  if (typeof mode === 'string') {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported(fldPath.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') errs.push(...validateIndexedLimits(spec, fldPath));
  }
  if (mode === undefined || mode === null || mode === 'NonIndexed') {
    const perIndex = num(spec['backoffLimitPerIndex']);
    if (perIndex !== undefined) errs.push(invalid(fldPath.child('backoffLimitPerIndex'), perIndex, 'requires indexed completion mode'));
    if (maxFailed !== undefined) errs.push(invalid(fldPath.child('maxFailedIndexes'), maxFailed, 'requires indexed completion mode'));
  }
  if (obj(spec['podFailurePolicy'])) errs.push(...validatePodFailurePolicy(spec, fldPath.child('podFailurePolicy')));
  const successPolicy = obj(spec['successPolicy']);
  if (successPolicy) {
    if (!isIndexed(spec)) errs.push(invalid(fldPath.child('successPolicy'), successPolicyValue(successPolicy), 'requires indexed completion mode'));
    else errs.push(...validateSuccessPolicy(spec, successPolicy, fldPath.child('successPolicy')));
  }
  errs.push(...validatePodReplacementPolicy(spec, fldPath.child('podReplacementPolicy')));
  const template = obj(spec['template']) ?? {};
  errs.push(...validatePodTemplateSpec(template, fldPath.child('template'), opts));
  const restartPolicy = str(obj(template['spec'])?.['restartPolicy']);
  const restartPath = fldPath.child('template', 'spec', 'restartPolicy');
  if (restartPolicy === 'Always' || restartPolicy === '') errs.push(required(restartPath, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(notSupported(restartPath, restartPolicy, ['OnFailure', 'Never']));
  else if (obj(spec['podFailurePolicy']) && restartPolicy !== 'Never') {
    errs.push(invalid(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}
