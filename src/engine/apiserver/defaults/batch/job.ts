/**
 * Job defaults. Leaving both completions and parallelism unset means one pod to completion; a
 * per-index backoff limit lifts the global one to its maximum; a Job with a pod failure policy
 * replaces pods only once they have failed. The selector and the controller-uid labels are not
 * defaults: the registry strategy generates them unless manualSelector is true.
 */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, isEmpty, isNil, jsonDefaulter, metadataOf, objectAt, objectsIn, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultPodTemplateIn } from '../core/pod-spec';

const maxInt32 = 2147483647;

export function defaultJob(job: JsonObject): void {
  const spec = structAt(job, 'spec');
  if (!spec) return;
  if (isNil(spec.completions) && isNil(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  defaultNil(spec, 'parallelism', 1);
  defaultNil(spec, 'backoffLimit', isNil(spec.backoffLimitPerIndex) ? 6 : maxInt32);
  const template = objectAt(spec, 'template');
  const templateMeta = template && objectAt(template, 'metadata');
  const labels = templateMeta && objectAt(templateMeta, 'labels');
  const meta = metadataOf(job);
  if (labels && !isEmpty(labels) && meta && isEmpty(meta.labels)) meta.labels = { ...labels };
  defaultNil(spec, 'completionMode', 'NonIndexed');
  defaultNil(spec, 'suspend', false);
  const podFailurePolicy = objectAt(spec, 'podFailurePolicy');
  for (const rule of podFailurePolicy ? objectsIn(podFailurePolicy, 'rules') : []) {
    for (const pattern of objectsIn(rule, 'onPodConditions')) defaultEmptyString(pattern, 'status', 'True');
  }
  defaultNil(spec, 'podReplacementPolicy', podFailurePolicy ? 'Failed' : 'TerminatingOrFailed');
  defaultNil(spec, 'manualSelector', false);
  defaultPodTemplateIn(spec, 'template');
}

registerDefaulter('batch', 'Job', jsonDefaulter(defaultJob));
