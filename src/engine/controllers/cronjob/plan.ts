/**
 * What one sync of a CronJob decides (cronjob_controllerv2.go syncCronJob and
 * cleanupFinishedJobs), as pure functions of the CronJob, its listed Jobs and the virtual clock's
 * now. The control loop (controller.ts) performs what they return, in the order upstream does:
 * the history cleanup, then the active list's reconciliation (with an API read for each active
 * Job the lister does not hold), then the schedule's decision (replacing active Jobs, creating
 * the next one).
 *
 * Each planner works on its own copy of the status and changes it in the order upstream does, so
 * the status the controller writes keeps upstream's field order.
 */
import type { ObjectReference } from '../../api/generated/core-v1';
import type { EventType } from '../../client/events/types';
import { rfc3339 } from '../../api/time';
import type { Job } from '../util/types/job';
import { parseSchedule, type Schedule } from './schedule';
import { jobNameFor, mostRecentScheduleTime, nextScheduleDelayMs, rfc1123z } from './times';
import { SCHEDULED_TIMESTAMP_ANNOTATION, type CronJob, type CronJobStatus } from './types';

export interface CronJobEvent {
  eventType: EventType;
  reason: string;
  message: string;
}

/** The finished condition a Job carries (IsJobFinished), if any. */
export function finishedType(job: Job): 'Complete' | 'Failed' | undefined {
  const c = (job.status?.conditions ?? []).find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
  return c?.type as 'Complete' | 'Failed' | undefined;
}

/** The reference status.active keeps for a Job the controller created (getRef). */
export function jobRef(job: Job): ObjectReference {
  return { kind: 'Job', namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion ?? '' };
}

/** Drops the Job with this uid from status.active (the field goes when the list empties). */
export function removeActive(status: CronJobStatus, uid: string): void {
  const rest = (status.active ?? []).filter((r) => r.uid !== uid);
  if (rest.length > 0) status.active = rest;
  else delete status.active;
}

/**
 * cleanupFinishedJobs: the finished Jobs beyond successfulJobsHistoryLimit and
 * failedJobsHistoryLimit, oldest start first (completed ones, then failed ones), to delete.
 */
export function jobsBeyondHistoryLimits(cj: CronJob, jobs: readonly Job[]): Job[] {
  const { successfulJobsHistoryLimit: okLimit, failedJobsHistoryLimit: failLimit } = cj.spec;
  const byStart = (a: Job, b: Job): number => {
    const sa = a.status?.startTime;
    const sb = b.status?.startTime;
    if (!sa || !sb) return sa ? -1 : sb ? 1 : (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
    return Date.parse(sa) - Date.parse(sb) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
  };
  const out: Job[] = [];
  for (const [type, limit] of [['Complete', okLimit], ['Failed', failLimit]] as const) {
    if (limit === undefined) continue;
    const finished = jobs.filter((j) => finishedType(j) === type).sort(byStart);
    out.push(...finished.slice(0, Math.max(0, finished.length - limit)));
  }
  return out;
}

export interface ActiveReconciliation {
  status: CronJobStatus;
  events: CronJobEvent[];
  changed: boolean;
  /** Active references to Jobs the lister does not hold: the API is asked whether each is gone. */
  unlisted: ObjectReference[];
}

/**
 * The first part of syncCronJob: listed Jobs the CronJob does not know of are reported
 * (UnexpectedJob), finished active ones leave status.active (SawCompletedJob), and the latest
 * completion becomes lastSuccessfulTime.
 */
export function reconcileActive(statusIn: CronJobStatus, jobs: readonly Job[]): ActiveReconciliation {
  const status = structuredClone(statusIn);
  const events: CronJobEvent[] = [];
  let changed = false;
  const children = new Set<string>();
  for (const job of jobs) {
    const uid = job.metadata.uid ?? '';
    children.add(uid);
    const found = (status.active ?? []).some((r) => r.uid === uid);
    const finished = finishedType(job);
    if (!found && !finished) {
      events.push({ eventType: 'Warning', reason: 'UnexpectedJob', message: `Saw a job that the controller did not create or forgot: ${job.metadata.name ?? ''}` });
    } else if (found && finished) {
      removeActive(status, uid);
      events.push({ eventType: 'Normal', reason: 'SawCompletedJob', message: `Saw completed job: ${job.metadata.name ?? ''}, status: ${finished}` });
      changed = true;
    } else if (finished === 'Complete') {
      const completion = job.status?.completionTime;
      if (completion && (!status.lastSuccessfulTime || Date.parse(completion) > Date.parse(status.lastSuccessfulTime))) {
        status.lastSuccessfulTime = completion;
        changed = true;
      }
    }
  }
  const unlisted = (status.active ?? []).filter((ref) => !children.has(ref.uid ?? ''));
  return { status, events, changed, unlisted };
}

/** The event for an active Job the API no longer has (it leaves status.active). */
export function missingJobEvent(ref: ObjectReference): CronJobEvent {
  return { eventType: 'Normal', reason: 'MissingJob', message: `Active job went missing: ${ref.name ?? ''}` };
}

/** Starting the Job for a scheduled time: replace the active Jobs first (Replace), then create. */
export interface JobStart {
  scheduled: number;
  job: Job;
  replace: ObjectReference[];
  /** When to look again once it started: the activation after this one, plus 100 ms. */
  requeueAfterMs?: number;
}

export interface ScheduleDecision {
  events: CronJobEvent[];
  /** When to look again if no Job starts (the next activation, plus 100 ms). */
  requeueAfterMs?: number;
  start?: JobStart;
}

/**
 * The rest of syncCronJob, on the status the reconciliation left: nothing while deleting or
 * suspended or when the schedule does not parse; otherwise the most recent activation since the
 * last one (or creation), unless it is past startingDeadlineSeconds, already started, or
 * forbidden by the concurrency policy.
 */
export function planSchedule(cj: CronJob, status: CronJobStatus, now: number): ScheduleDecision {
  const events: CronJobEvent[] = [];
  if (cj.metadata.deletionTimestamp || cj.spec.suspend) return { events };
  let schedule: Schedule;
  try {
    schedule = parseSchedule(cj.spec.schedule);
  } catch (err) {
    events.push({ eventType: 'Warning', reason: 'UnparseableSchedule', message: `unparseable schedule: ${JSON.stringify(cj.spec.schedule)} : ${(err as Error).message}` });
    return { events };
  }
  const earliest = Date.parse(status.lastScheduleTime ?? cj.metadata.creationTimestamp ?? '') || now;
  let window;
  try {
    window = mostRecentScheduleTime(earliest, now, schedule, cj.spec.startingDeadlineSeconds);
  } catch (err) {
    events.push({ eventType: 'Warning', reason: 'InvalidSchedule', message: `invalid schedule: ${cj.spec.schedule} : ${(err as Error).message}` });
    return { events };
  }
  const waitForNext = (): ScheduleDecision => {
    const requeueAfterMs = nextScheduleDelayMs(earliest, now, schedule);
    return requeueAfterMs === undefined ? { events } : { events, requeueAfterMs };
  };
  if (window.missed === 'many' && window.mostRecent !== undefined) {
    events.push({ eventType: 'Warning', reason: 'TooManyMissedTimes', message: 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew' });
  }
  const scheduled = window.mostRecent;
  if (scheduled === undefined) return waitForNext();
  const deadline = cj.spec.startingDeadlineSeconds;
  if (deadline !== undefined && scheduled + deadline * 1000 < now) {
    events.push({ eventType: 'Warning', reason: 'MissSchedule', message: `Missed scheduled time to start a job: ${rfc1123z(scheduled)}` });
    return waitForNext();
  }
  const active = status.active ?? [];
  const jobName = jobNameFor(cj.metadata.name ?? '', scheduled);
  if (active.some((r) => r.name === jobName) || (status.lastScheduleTime && Date.parse(status.lastScheduleTime) === scheduled)) return waitForNext();
  if (cj.spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
    events.push({ eventType: 'Normal', reason: 'JobAlreadyActive', message: 'Not starting job because prior execution is running and concurrency policy is Forbid' });
    return waitForNext();
  }
  const replace = cj.spec.concurrencyPolicy === 'Replace' ? [...active] : [];
  const start: JobStart = { scheduled, job: jobFromTemplate(cj, jobName, scheduled), replace };
  const requeueAfterMs = nextScheduleDelayMs(scheduled, now, schedule);
  if (requeueAfterMs !== undefined) start.requeueAfterMs = requeueAfterMs;
  return { events, start };
}

/** After the Job for `scheduled` was created: it joins status.active and becomes lastScheduleTime. */
export function recordStarted(status: CronJobStatus, created: Job, scheduled: number): void {
  status.active = [...(status.active ?? []), jobRef(created)];
  status.lastScheduleTime = rfc3339(scheduled);
}

/** getJobFromTemplate2: the Job for one activation, owned by the CronJob. */
export function jobFromTemplate(cj: CronJob, name: string, scheduled: number): Job {
  const template = cj.spec.jobTemplate;
  const annotations = { ...(template.metadata?.annotations ?? {}), [SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339(scheduled) };
  const metadata: Job['metadata'] = { name, namespace: cj.metadata.namespace };
  if (template.metadata?.labels) metadata.labels = { ...template.metadata.labels };
  metadata.annotations = annotations;
  metadata.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name ?? '', uid: cj.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }];
  return { apiVersion: 'batch/v1', kind: 'Job', metadata, spec: structuredClone(template.spec ?? {}) } as Job;
}
