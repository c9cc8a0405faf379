/** kubectl get jobs and cronjobs. */
import type { KubeObject } from '../api/types';
import { ageColumn, containersColumn, imagesColumn, nameColumn } from './common';
import { CRONJOB_ACTIVE, CRONJOB_LAST_SCHEDULE, CRONJOB_SCHEDULE, CRONJOB_SUSPEND, CRONJOB_TIME_ZONE, JOB_SELECTOR, JOB_SUCCEEDED } from './descriptions';
import { age, ageOf, arr, containerCells, formatLabelSelector, hasTrueCondition, int, obj, str } from './format';
import { humanDuration } from './duration';
import { column, type Printer } from './table';

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

export const jobPrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', JOB_SUCCEEDED),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', JOB_SELECTOR, { priority: 1 }),
  ],
  cells(job, ctx) {
    const [names, images] = containerCells(obj(obj(job.spec).template).spec);
    return [
      job.metadata.name ?? '',
      jobStatus(job),
      completions(job),
      jobDuration(job, ctx.now),
      ageOf(job, ctx.now),
      names,
      images,
      formatLabelSelector(obj(job.spec).selector),
    ];
  },
};

export const cronJobPrinter: Printer = {
  columns: [
    nameColumn,
    column('Schedule', 'string', CRONJOB_SCHEDULE),
    column('Timezone', 'string', CRONJOB_TIME_ZONE),
    column('Suspend', 'boolean', CRONJOB_SUSPEND),
    column('Active', 'integer', CRONJOB_ACTIVE),
    column('Last Schedule', 'string', CRONJOB_LAST_SCHEDULE),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', JOB_SELECTOR, { priority: 1 }),
  ],
  cells(cj, ctx) {
    const spec = obj(cj.spec);
    const status = obj(cj.status);
    const jobSpec = obj(obj(spec.jobTemplate).spec);
    const [names, images] = containerCells(obj(jobSpec.template).spec);
    const last = status.lastScheduleTime ? age(status.lastScheduleTime, ctx.now) : '<none>';
    const suspend = typeof spec.suspend === 'boolean' ? (spec.suspend ? 'True' : 'False') : '<unset>';
    return [
      cj.metadata.name ?? '',
      str(spec.schedule),
      str(spec.timeZone) || '<none>',
      suspend,
      arr(status.active).length,
      last,
      ageOf(cj, ctx.now),
      names,
      images,
      formatLabelSelector(jobSpec.selector),
    ];
  },
};
