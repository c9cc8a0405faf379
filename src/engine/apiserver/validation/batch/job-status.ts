/**
 * Job status rules (pkg/apis/batch/validation, with the registry's JobStatusValidationOptions
 * for 1.35 where JobManagedBy is on): counters and terminal conditions must stay consistent,
 * and most checks apply only when the fields involved change, so that a status the Job
 * controller is about to fix does not block unrelated updates.
 */
import { duplicate, invalid, OMIT, Path, required, type ErrorList } from '../../../api/field';
import type { KubeObject } from '../../../api/types';
import { int, num, obj, objs, semanticEqual, str, strs, type Obj } from '../core/json';
import { validateNonnegativeField } from '../meta';
import { failedOverlapsCompleted, validateIndexesFormat } from './indexes';
import { isIndexed } from './job-spec';
import { own } from '../../../api/own';

const conditionTrue = (job: KubeObject, type: string): boolean =>
  objs(obj(job['status'])?.['conditions']).some((c) => c['type'] === type && c['status'] === 'True');
const isComplete = (job: KubeObject): boolean => conditionTrue(job, 'Complete');
const isFailed = (job: KubeObject): boolean => conditionTrue(job, 'Failed');
const isFinished = (job: KubeObject): boolean => isComplete(job) || isFailed(job);
const isFailureTarget = (job: KubeObject): boolean => conditionTrue(job, 'FailureTarget');
const isSuccessCriteriaMet = (job: KubeObject): boolean => conditionTrue(job, 'SuccessCriteriaMet');

const statusOf = (job: KubeObject): Obj => obj(job['status']) ?? {};
const specOf = (job: KubeObject): Obj => obj(job['spec']) ?? {};
const time = (v: unknown): number | undefined => (typeof v === 'string' ? Date.parse(v) : undefined);

/** getStatusValidationOptions: which rules apply, by what the update changes. */
function options(job: KubeObject, old: KubeObject) {
  const s = statusOf(job);
  const o = statusOf(old);
  const changed = (f: string): boolean => !semanticEqual(own(s, f), own(o, f));
  const finishedChanged = isFinished(old) !== isFinished(job);
  const completeChanged = isComplete(old) !== isComplete(job);
  const failedChanged = isFailed(old) !== isFailed(job);
  const failureTargetChanged = isFailureTarget(old) !== isFailureTarget(job);
  const completedIndexesChanged = str(o['completedIndexes']) !== str(s['completedIndexes']);
  const failedIndexesChanged = changed('failedIndexes');
  const spec = specOf(job);
  return {
    rejectDecreasingSucceededCounter: !isIndexed(spec) || num(spec['completions']) !== num(spec['parallelism']),
    rejectInvalidCompletedIndexes: completedIndexesChanged,
    rejectInvalidFailedIndexes: failedIndexesChanged,
    rejectCompletedIndexesForNonIndexedJob: completedIndexesChanged,
    rejectFailedIndexesForNoBackoffLimitPerIndex: failedIndexesChanged,
    rejectFailedIndexesOverlappingCompleted: failedIndexesChanged || completedIndexesChanged,
    rejectFailedJobWithoutFailureTarget: failedChanged || failedIndexesChanged,
    rejectCompleteJobWithoutSuccessCriteriaMet: completeChanged,
    rejectFinishedJobWithActivePods: finishedChanged || changed('active'),
    rejectFinishedJobWithoutStartTime: finishedChanged || changed('startTime'),
    rejectFinishedJobWithUncountedTerminatedPods: finishedChanged || changed('uncountedTerminatedPods'),
    rejectStartTimeUpdateForUnsuspendedJob: changed('startTime'),
    rejectCompletionTimeBeforeStartTime: changed('startTime') || changed('completionTime'),
    rejectNotCompleteJobWithCompletionTime: completeChanged || changed('completionTime'),
    rejectCompleteJobWithoutCompletionTime: completeChanged || changed('completionTime'),
    rejectCompleteJobWithFailedCondition: completeChanged || failedChanged,
    rejectCompleteJobWithFailureTargetCondition: completeChanged || failureTargetChanged,
    rejectMoreReadyThanActivePods: changed('ready') || changed('active'),
    rejectFinishedJobWithTerminatingPods: finishedChanged || changed('terminating'),
  };
}

type Options = ReturnType<typeof options>;

function validateUncounted(uncounted: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  for (const list of ['succeeded', 'failed'] as const) {
    strs(uncounted[list]).forEach((uid, i) => {
      const p = fldPath.child(list).index(i);
      if (uid === '') errs.push(invalid(p, uid, 'must not be empty'));
      else if (seen.has(uid)) errs.push(duplicate(p, uid));
      else seen.add(uid);
    });
  }
  return errs;
}

function validateJobStatus(job: KubeObject, opts: Options, fldPath: Path): ErrorList {
  const s = statusOf(job);
  const spec = specOf(job);
  const errs = ['active', 'succeeded', 'failed'].flatMap((f) => validateNonnegativeField(int(own(s, f)), fldPath.child(f)));
  for (const f of ['ready', 'terminating'] as const) {
    const v = num(s[f]);
    if (v !== undefined) errs.push(...validateNonnegativeField(v, fldPath.child(f)));
  }
  const uncounted = obj(s['uncountedTerminatedPods']);
  if (uncounted) errs.push(...validateUncounted(uncounted, fldPath.child('uncountedTerminatedPods')));
  const conditions = fldPath.child('conditions');
  if (opts.rejectCompleteJobWithFailedCondition && isComplete(job) && isFailed(job)) {
    errs.push(invalid(conditions, OMIT, 'cannot set Complete=True and Failed=true conditions'));
  }
  if (opts.rejectCompleteJobWithFailureTargetCondition && isComplete(job) && isFailureTarget(job)) {
    errs.push(invalid(conditions, OMIT, 'cannot set Complete=True and FailureTarget=true conditions'));
  }
  const completionTime = s['completionTime'];
  const startTime = s['startTime'];
  if (opts.rejectNotCompleteJobWithCompletionTime && typeof completionTime === 'string' && !isComplete(job)) {
    errs.push(invalid(fldPath.child('completionTime'), completionTime, 'cannot set completionTime when there is no Complete=True condition'));
  }
  if (opts.rejectCompleteJobWithoutCompletionTime && typeof completionTime !== 'string' && isComplete(job)) {
    errs.push(required(fldPath.child('completionTime'), 'completionTime is required for Complete jobs'));
  }
  const start = time(startTime);
  const completion = time(completionTime);
  if (opts.rejectCompletionTimeBeforeStartTime && start !== undefined && completion !== undefined && completion < start) {
    errs.push(invalid(fldPath.child('completionTime'), completionTime, 'completionTime cannot be set before startTime'));
  }
  if (opts.rejectFailedJobWithoutFailureTarget && isFailed(job) && !isFailureTarget(job)) {
    errs.push(invalid(conditions, OMIT, 'cannot set Failed=True condition without the FailureTarget=true condition'));
  }
  if (opts.rejectCompleteJobWithoutSuccessCriteriaMet && isComplete(job) && !isSuccessCriteriaMet(job)) {
    errs.push(invalid(conditions, OMIT, 'cannot set Complete=True condition without the SuccessCriteriaMet=true condition'));
  }
  const finished = isFinished(job);
  const active = int(s['active']);
  if (opts.rejectFinishedJobWithActivePods && active > 0 && finished) errs.push(invalid(fldPath.child('active'), active, 'active>0 is invalid for finished job'));
  if (opts.rejectFinishedJobWithoutStartTime && typeof startTime !== 'string' && finished) {
    errs.push(required(fldPath.child('startTime'), 'startTime is required for finished job'));
  }
  if (opts.rejectFinishedJobWithUncountedTerminatedPods && finished && uncounted && strs(uncounted['failed']).length + strs(uncounted['succeeded']).length > 0) {
    errs.push(invalid(fldPath.child('uncountedTerminatedPods'), uncounted, 'uncountedTerminatedPods needs to be empty for finished job'));
  }
  const completions = num(spec['completions']);
  const completedIndexes = str(s['completedIndexes']);
  const failedIndexes = s['failedIndexes'];
  if (opts.rejectInvalidCompletedIndexes && completions !== undefined) {
    const r = validateIndexesFormat(completedIndexes, completions);
    if (typeof r === 'string') errs.push(invalid(fldPath.child('completedIndexes'), completedIndexes, `error parsing completedIndexes: ${r}`));
  }
  if (opts.rejectInvalidFailedIndexes && completions !== undefined && num(spec['backoffLimitPerIndex']) !== undefined && typeof failedIndexes === 'string') {
    const r = validateIndexesFormat(failedIndexes, completions);
    if (typeof r === 'string') errs.push(invalid(fldPath.child('failedIndexes'), failedIndexes, `error parsing failedIndexes: ${r}`));
  }
  if (opts.rejectCompletedIndexesForNonIndexedJob && completedIndexes.length > 0 && !isIndexed(spec)) {
    errs.push(invalid(fldPath.child('completedIndexes'), completedIndexes, 'cannot set non-empty completedIndexes when non-indexed completion mode'));
  }
  if (opts.rejectFailedIndexesForNoBackoffLimitPerIndex && num(spec['backoffLimitPerIndex']) === undefined && typeof failedIndexes === 'string') {
    errs.push(invalid(fldPath.child('failedIndexes'), failedIndexes, 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if (opts.rejectFailedIndexesOverlappingCompleted && completions !== undefined && typeof failedIndexes === 'string') {
    const overlap = failedOverlapsCompleted(completedIndexes, failedIndexes, completions);
    if (overlap !== undefined) errs.push(invalid(fldPath.child('failedIndexes'), failedIndexes, overlap));
  }
  const terminating = num(s['terminating']);
  if (opts.rejectFinishedJobWithTerminatingPods && terminating !== undefined && terminating > 0 && finished) {
    errs.push(invalid(fldPath.child('terminating'), terminating, 'terminating>0 is invalid for finished job'));
  }
  const ready = num(s['ready']);
  if (opts.rejectMoreReadyThanActivePods && ready !== undefined && ready > active) errs.push(invalid(fldPath.child('ready'), ready, 'cannot set more ready pods than active'));
  if (isSuccessCriteriaMet(job) && isFailed(job)) errs.push(invalid(conditions, OMIT, 'cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (isSuccessCriteriaMet(job) && isFailureTarget(job)) errs.push(invalid(conditions, OMIT, 'cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (obj(spec['successPolicy']) && !isSuccessCriteriaMet(job) && isComplete(job)) {
    errs.push(invalid(conditions, OMIT, 'cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  }
  return errs;
}

export function validateJobStatusUpdate(job: KubeObject, old: KubeObject): ErrorList {
  const opts = options(job, old);
  const statusPath = Path.root('status');
  const s = statusOf(job);
  const o = statusOf(old);
  const errs = validateJobStatus(job, opts, statusPath);
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (conditionTrue(old, type) && !conditionTrue(job, type)) errs.push(invalid(statusPath.child('conditions'), OMIT, `cannot disable the terminal ${type}=True condition`));
  }
  if (int(s['failed']) < int(o['failed'])) errs.push(invalid(statusPath.child('failed'), int(s['failed']), 'cannot decrease the failed counter'));
  if (opts.rejectDecreasingSucceededCounter && int(s['succeeded']) < int(o['succeeded'])) {
    errs.push(invalid(statusPath.child('succeeded'), int(s['succeeded']), 'cannot decrease the succeeded counter'));
  }
  const completion = s['completionTime'];
  if (typeof completion === 'string' && typeof o['completionTime'] === 'string' && time(completion) !== time(o['completionTime'])) {
    errs.push(invalid(statusPath.child('completionTime'), completion, 'completionTime cannot be mutated'));
  }
  if (opts.rejectStartTimeUpdateForUnsuspendedJob && typeof o['startTime'] === 'string' && time(o['startTime']) !== time(s['startTime']) && specOf(job)['suspend'] !== true) {
    errs.push(required(statusPath.child('startTime'), 'startTime cannot be removed for unsuspended job'));
  }
  if (isSuccessCriteriaMet(old) && !isSuccessCriteriaMet(job)) errs.push(invalid(statusPath.child('conditions'), OMIT, 'cannot disable the SuccessCriteriaMet=True condition'));
  if (isComplete(old) && !isSuccessCriteriaMet(old) && isSuccessCriteriaMet(job)) {
    errs.push(invalid(statusPath.child('conditions'), OMIT, 'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'));
  }
  return errs;
}
