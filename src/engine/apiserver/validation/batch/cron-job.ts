/**
 * CronJob rules (pkg/apis/batch/validation): a schedule robfig/cron accepts, an IANA time zone,
 * a concurrency policy, and a job template whose selector is left to the controller.
 */
import { invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { DNS1035LabelMaxLength, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { bool, num, obj, str, type Obj } from '../core/json';
import { podTemplateValidationOptions } from '../core/podtemplate';
import { validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { labelSelectorValue } from '../apps/go-values';
import { cronParseError, isKnownTimeZone } from './cron-schedule';
import { validateJobSpecFields } from './job-spec';

const concurrencyPolicies = ['Allow', 'Forbid', 'Replace'];
/** The controller appends "-<minutes since epoch>" (11 characters) to name each Job. */
const maxCronJobNameLength = DNS1035LabelMaxLength - 11;
const validTimeZoneCharacters = /^[A-Za-z.\-_0-9+]{1,14}$/;

function validateScheduleFormat(schedule: string, allowTZInSchedule: boolean, timeZone: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const parseError = cronParseError(schedule);
  if (parseError !== undefined) errs.push(invalid(fldPath, schedule, parseError));
  if (allowTZInSchedule && schedule.includes('TZ') && typeof timeZone === 'string') {
    errs.push(invalid(fldPath, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZInSchedule && schedule.includes('TZ')) {
    errs.push(invalid(fldPath, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errs;
}

function validateTimeZone(timeZone: unknown, fldPath: Path): ErrorList {
  if (typeof timeZone !== 'string') return [];
  if (timeZone.length === 0) return [invalid(fldPath, timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !validTimeZoneCharacters.test(part)) {
      return [invalid(fldPath, timeZone, `unknown time zone ${timeZone}`)];
    }
  }
  const errs: ErrorList = [];
  if (timeZone.toLowerCase() === 'local') errs.push(invalid(fldPath, timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  if (!isKnownTimeZone(timeZone)) errs.push(invalid(fldPath, timeZone, `unknown time zone ${timeZone}`));
  return errs;
}

/** ValidateJobTemplateSpec: a job template never carries its own selector. */
function validateJobTemplate(template: Obj, oldTemplate: Obj | undefined, fldPath: Path): ErrorList {
  const spec = obj(template['spec']) ?? {};
  const oldPodTemplate = obj(obj(oldTemplate?.['spec'])?.['template']);
  const errs = validateJobSpecFields(spec, fldPath.child('spec'), podTemplateValidationOptions(oldPodTemplate));
  if (obj(spec['selector'])) errs.push(invalid(fldPath.child('spec', 'selector'), labelSelectorValue(spec['selector']), '`selector` will be auto-generated'));
  if (bool(spec['manualSelector'])) errs.push(notSupported(fldPath.child('spec', 'manualSelector'), true, ['nil', 'false']));
  return errs;
}

function validateSpec(spec: Obj, oldSpec: Obj | undefined, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const schedule = str(spec['schedule']);
  if (schedule === '') errs.push(required(fldPath.child('schedule'), ''));
  else errs.push(...validateScheduleFormat(schedule, str(oldSpec?.['schedule']).includes('TZ'), spec['timeZone'], fldPath.child('schedule')));
  const deadline = num(spec['startingDeadlineSeconds']);
  if (deadline !== undefined) errs.push(...validateNonnegativeField(deadline, fldPath.child('startingDeadlineSeconds')));
  if (!oldSpec || oldSpec['timeZone'] !== spec['timeZone']) errs.push(...validateTimeZone(spec['timeZone'], fldPath.child('timeZone')));
  const policy = str(spec['concurrencyPolicy']);
  if (policy === '') errs.push(required(fldPath.child('concurrencyPolicy'), ''));
  else if (!concurrencyPolicies.includes(policy)) errs.push(notSupported(fldPath.child('concurrencyPolicy'), policy, concurrencyPolicies));
  errs.push(...validateJobTemplate(obj(spec['jobTemplate']) ?? {}, obj(oldSpec?.['jobTemplate']), fldPath.child('jobTemplate')));
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit'] as const) {
    const v = num(spec[f]);
    if (v !== undefined) errs.push(...validateNonnegativeField(v, fldPath.child(f)));
  }
  return errs;
}

const specOf = (cj: KubeObject): Obj => obj(cj['spec']) ?? {};

registerValidator('batch', 'CronJob', {
  create: (cj) => {
    const errs = [...validateObjectMeta(cj.metadata, true, nameIsDNSSubdomain, Path.root('metadata')), ...validateSpec(specOf(cj), undefined, Path.root('spec'))];
    const name = str(cj.metadata.name);
    if (name.length > maxCronJobNameLength) errs.push(invalid(Path.root('metadata', 'name'), name, `must be no more than ${maxCronJobNameLength} characters`));
    return errs;
  },
  // Names over 52 characters are only refused on create, so older CronJobs stay updatable.
  update: (cj, old) => [...validateObjectMetaUpdate(cj.metadata, old.metadata, Path.root('metadata')), ...validateSpec(specOf(cj), specOf(old), Path.root('spec'))],
  updateStatus: () => [],
});
