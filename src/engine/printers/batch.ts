/** kubectl get jobs and cronjobs. */
import type { JsonObject, KubeObject } from '../api/types';
import { NAME, podTemplateColumns, templatePodSpec } from './common';
import { CRONJOB_ACTIVE, CRONJOB_LAST_SCHEDULE, CRONJOB_SCHEDULE, CRONJOB_SUSPEND, CRONJOB_TIME_ZONE, JOB_SELECTOR, JOB_SUCCEEDED } from './descriptions';
import { age, arr, formatLabelSelector, hasTrueCondition, int, obj, str } from './format';
import { humanDuration } from './duration';
import { col, tablePrinter, wide, type Row } from './table';

/** The job's state word, in printJob's order of precedence. */
export function jobStatus(job: KubeObject): string {
  const conditions = obj(job.status).conditions;
  if (hasTrueCondition(conditions, 'Complete')) return 'Complete';
  if (hasTrueCondition(conditions, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  if (hasTrueCondition(conditions, 'Suspended')) return 'Suspended';
  if (hasTrueCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  if (hasTrueCondition(conditions, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

export function completions(job: KubeObject): string {
  const spec = obj(job.spec);
  const succeeded = int(obj(job.status).succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${int(spec.completions)}`;
  const parallelism = int(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: KubeObject, now: number): string {
  const status = obj(job.status);
  const start = Date.parse(str(status.startTime));
  if (Number.isNaN(start)) return '';
  const end = Date.parse(str(status.completionTime));
  return humanDuration((Number.isNaN(end) ? now : end) - start);
}

export const jobPrinter = tablePrinter([
  NAME,
  col('Status', 'string', 'Status of the job.', (r) => jobStatus(r.object)),
  col('Completions', 'string', JOB_SUCCEEDED, (r) => completions(r.object)),
  col('Duration', 'string', 'Time required to complete the job.', (r) => jobDuration(r.object, r.now)),
  ...podTemplateColumns(templatePodSpec),
  wide('Selector', 'string', JOB_SELECTOR, (r) => formatLabelSelector(r.spec.selector)),
]);

/** The spec of the Jobs a CronJob creates. */
const jobSpec = (r: Row): JsonObject => obj(obj(r.spec.jobTemplate).spec);

export const cronJobPrinter = tablePrinter([
  NAME,
  col('Schedule', 'string', CRONJOB_SCHEDULE, (r) => str(r.spec.schedule)),
  col('Timezone', 'string', CRONJOB_TIME_ZONE, (r) => str(r.spec.timeZone) || '<none>'),
  col('Suspend', 'boolean', CRONJOB_SUSPEND, (r) => (typeof r.spec.suspend === 'boolean' ? (r.spec.suspend ? 'True' : 'False') : '<unset>')),
  col('Active', 'integer', CRONJOB_ACTIVE, (r) => arr(r.status.active).length),
  col('Last Schedule', 'string', CRONJOB_LAST_SCHEDULE, (r) => (r.status.lastScheduleTime ? age(r.status.lastScheduleTime, r.now) : '<none>')),
  ...podTemplateColumns((r) => obj(jobSpec(r).template).spec),
  wide('Selector', 'string', JOB_SELECTOR, (r) => formatLabelSelector(jobSpec(r).selector)),
]);
