/**
 * CronJob defaults. The job template's JobSpec gets no Job defaults (those apply to Job objects
 * when the controller creates them), only its pod template's PodSpec defaults.
 */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, jsonDefaulter, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultPodTemplateIn } from '../core/pod-spec';

export function defaultCronJob(cronJob: JsonObject): void {
  const spec = structAt(cronJob, 'spec');
  if (!spec) return;
  defaultEmptyString(spec, 'concurrencyPolicy', 'Allow');
  defaultNil(spec, 'suspend', false);
  defaultNil(spec, 'successfulJobsHistoryLimit', 3);
  defaultNil(spec, 'failedJobsHistoryLimit', 1);
  const jobTemplate = structAt(spec, 'jobTemplate');
  const jobSpec = jobTemplate && structAt(jobTemplate, 'spec');
  if (jobSpec) defaultPodTemplateIn(jobSpec, 'template');
}

registerDefaulter('batch', 'CronJob', jsonDefaulter(defaultCronJob));
