/**
 * The CronJob controller (pkg/controller/cronjob, ControllerV2): at each activation of its
 * schedule a CronJob creates a Job named <cronjob>-<unix minutes of the scheduled time>, honouring
 * suspend, startingDeadlineSeconds and concurrencyPolicy (Allow, Forbid, Replace); it keeps
 * status.active, lastScheduleTime and lastSuccessfulTime, and deletes finished Jobs beyond the
 * history limits. The next activation wakes the CronJob up again.
 *
 * Runs as system:serviceaccount:kube-system:cronjob-controller; events come from
 * "cronjob-controller".
 */
import { StatusError } from '../../api/status';
import type { Clock, Timer } from '../../clock';
import { deepCopy } from '../../client/clone';
import { CONCURRENT_SYNCS, type Controller, type ReconcileContext } from '../../client/controller';
import { isAlreadyExists, isNotFound } from '../../client/errors';
import type { EventRecorder, ObjectReference } from '../../client/events';
import { deletedObject, metaNamespaceKey, splitMetaNamespaceKey, type DeletedFinalStateUnknown, type SharedIndexInformer } from '../../client/informer';
import { JOBS } from '../../client/resources';
import type { GroupVersionResource } from '../../api/types';
import { controllerOf } from '../util/controller-ref-manager';
import { controlLoop, eventRecorder, type ControllerDeps } from '../util/deps';
import type { Job } from '../util/types/job';
import { cachedController } from '../util/owner-lookup';
import { parseSchedule, type Schedule } from './schedule';
import { jobNameFor, mostRecentScheduleTime, nextScheduleDelayMs, rfc1123z } from './times';
import { SCHEDULED_TIMESTAMP_ANNOTATION, type CronJob } from './types';

export const CRONJOB_CONTROLLER_ACCOUNT = 'cronjob-controller';

const CRONJOBS: GroupVersionResource = { group: 'batch', version: 'v1', resource: 'cronjobs' };

function finishedType(job: Job): 'Complete' | 'Failed' | undefined {
  const c = (job.status?.conditions ?? []).find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
  return c?.type as 'Complete' | 'Failed' | undefined;
}

function jobRef(job: Job): ObjectReference {
  return { kind: 'Job', namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion ?? '' };
}

export class CronJobController {
  readonly loop: Controller;
  private readonly clock: Clock;
  private readonly cronJobs: SharedIndexInformer<CronJob>;
  private readonly jobs: SharedIndexInformer<Job>;
  private readonly recorder: EventRecorder;
  /** The wake-up for each CronJob's next activation. */
  private readonly wakeUps = new Map<string, Timer>();

  constructor(deps: ControllerDeps) {
    this.clock = deps.clock;
    this.cronJobs = deps.informers.informerFor<CronJob>(CRONJOBS);
    this.jobs = deps.informers.informerFor<Job>(JOBS);
    this.recorder = eventRecorder(deps, 'cronjob-controller', 'cronjob events');
    this.loop = controlLoop(deps, {
      name: 'cronjob',
      workers: CONCURRENT_SYNCS.cronjob ?? 5,
      informers: [this.cronJobs, this.jobs] as unknown as SharedIndexInformer[],
      sync: (key, ctx) => this.sync(key, ctx),
    });
    this.cronJobs.addEventHandler(this.loop.handler<CronJob>());
    const forJob = (obj: Job | DeletedFinalStateUnknown<Job>): void => {
      const job = deletedObject(obj);
      const cj = cachedController(this.cronJobs.indexer, 'CronJob', job);
      if (cj) this.loop.enqueue(metaNamespaceKey(cj), obj);
    };
    this.jobs.addEventHandler({ onAdd: forJob, onUpdate: (_old, job) => forJob(job), onDelete: forJob });
  }

  run(): Promise<void> {
    return this.loop.run();
  }

  shutDown(): void {
    for (const timer of this.wakeUps.values()) this.clock.clearTimer(timer);
    this.wakeUps.clear();
    this.loop.shutDown();
  }

  private async sync(key: string, ctx: ReconcileContext): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.cronJobs.indexer.getByName(namespace, name);
    if (!cached) {
      this.clock.clearTimer(this.wakeUps.get(key));
      this.wakeUps.delete(key);
      return;
    }
    const cj = deepCopy(cached);
    cj.status ??= {};
    const jobs = this.jobs.indexer.listNamespace(namespace).filter((j) => controllerOf(j)?.uid === cj.metadata.uid);
    const cleaned = await this.cleanupFinishedJobs(ctx, cj, jobs);
    let requeue: number | undefined;
    let changed = cleaned;
    let syncError: Error | undefined;
    try {
      const out = await this.syncCronJob(ctx, cj, jobs);
      requeue = out.requeueAfterMs;
      changed ||= out.changed;
    } catch (err) {
      if (!(err instanceof Error) || err instanceof TypeError) throw err;
      syncError = err;
    }
    if (changed) await ctx.client.resource<CronJob>(CRONJOBS, namespace).updateStatus(cj);
    if (requeue !== undefined) this.wakeUpAt(key, Math.max(0, requeue));
    if (syncError) throw syncError;
  }

  /**
   * The sync for the next activation. Upstream requeues the key after the delay; here the wait is
   * a daemon timer, so a cluster with CronJobs still settles between activations.
   */
  private wakeUpAt(key: string, delayMs: number): void {
    this.clock.clearTimer(this.wakeUps.get(key));
    this.wakeUps.set(
      key,
      this.clock.setTimer(
        delayMs,
        () => {
          this.wakeUps.delete(key);
          this.loop.enqueue(key);
        },
        { daemon: true, label: `cronjob-controller: next schedule of ${key}` },
      ),
    );
  }

  private async syncCronJob(ctx: ReconcileContext, cj: CronJob, jobs: readonly Job[]): Promise<{ requeueAfterMs?: number; changed: boolean }> {
    const status = cj.status!;
    const now = this.clock.now();
    let changed = false;
    const active = (): ObjectReference[] => status.active ?? [];
    const removeActive = (uid: string): void => {
      const rest = active().filter((r) => r.uid !== uid);
      if (rest.length > 0) status.active = rest;
      else delete status.active;
    };
    const children = new Set<string>();
    for (const job of jobs) {
      const uid = job.metadata.uid ?? '';
      children.add(uid);
      const found = active().some((r) => r.uid === uid);
      const finished = finishedType(job);
      if (!found && !finished) {
        this.recorder.event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata.name ?? ''}`, ctx.cause);
      } else if (found && finished) {
        removeActive(uid);
        this.recorder.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name ?? ''}, status: ${finished}`, ctx.cause);
        changed = true;
      } else if (finished === 'Complete') {
        const completion = job.status?.completionTime;
        if (completion && (!status.lastSuccessfulTime || Date.parse(completion) > Date.parse(status.lastSuccessfulTime))) {
          status.lastSuccessfulTime = completion;
          changed = true;
        }
      }
    }
    for (const ref of [...active()]) {
      if (children.has(ref.uid ?? '')) continue;
      try {
        await ctx.client.resource<Job>(JOBS, ref.namespace).get(ref.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.recorder.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name ?? ''}`, ctx.cause);
        removeActive(ref.uid ?? '');
        changed = true;
      }
    }
    if (cj.metadata.deletionTimestamp || cj.spec.suspend) return { changed };

    let schedule: Schedule;
    try {
      schedule = parseSchedule(cj.spec.schedule);
    } catch (err) {
      this.recorder.event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(cj.spec.schedule)} : ${(err as Error).message}`, ctx.cause);
      return { changed };
    }
    const earliest = Date.parse(status.lastScheduleTime ?? cj.metadata.creationTimestamp ?? '') || now;
    let window;
    try {
      window = mostRecentScheduleTime(earliest, now, schedule, cj.spec.startingDeadlineSeconds);
    } catch (err) {
      this.recorder.event(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${cj.spec.schedule} : ${(err as Error).message}`, ctx.cause);
      return { changed };
    }
    const next = (): number | undefined => nextScheduleDelayMs(earliest, now, schedule);
    if (window.missed === 'many' && window.mostRecent !== undefined) {
      this.recorder.event(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew', ctx.cause);
    }
    const scheduled = window.mostRecent;
    if (scheduled === undefined) return { requeueAfterMs: next(), changed };
    const deadline = cj.spec.startingDeadlineSeconds;
    if (deadline !== undefined && scheduled + deadline * 1000 < now) {
      this.recorder.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`, ctx.cause);
      return { requeueAfterMs: next(), changed };
    }
    const jobName = jobNameFor(cj.metadata.name ?? '', scheduled);
    if (active().some((r) => r.name === jobName) || (status.lastScheduleTime && Date.parse(status.lastScheduleTime) === scheduled)) {
      return { requeueAfterMs: next(), changed };
    }
    if (cj.spec.concurrencyPolicy === 'Forbid' && active().length > 0) {
      this.recorder.event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid', ctx.cause);
      return { requeueAfterMs: next(), changed };
    }
    if (cj.spec.concurrencyPolicy === 'Replace') {
      for (const ref of [...active()]) {
        if (!(await this.deleteJob(ctx, cj, ref.namespace ?? '', ref.name ?? '', ref.uid ?? ''))) throw new Error(`could not replace job ${ref.namespace ?? ''}/${ref.name ?? ''}`);
        changed = true;
      }
    }
    let created: Job;
    try {
      created = await ctx.client.resource<Job>(JOBS, cj.metadata.namespace).create(this.jobFromTemplate(cj, jobName, scheduled));
      this.recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata.name ?? ''}`, ctx.cause);
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if ((err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')) throw err;
      if (!isAlreadyExists(err)) {
        this.recorder.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${err.message}`, ctx.cause);
        throw err;
      }
      created = await ctx.client.resource<Job>(JOBS, cj.metadata.namespace).get(jobName);
      if (controllerOf(created)?.uid !== cj.metadata.uid || active().some((r) => r.uid === created.metadata.uid)) return { changed };
    }
    status.active = [...active(), jobRef(created)];
    status.lastScheduleTime = this.clock.rfc3339(scheduled);
    const nextDelay = nextScheduleDelayMs(scheduled, now, schedule);
    return { requeueAfterMs: nextDelay, changed: true };
  }

  private jobFromTemplate(cj: CronJob, name: string, scheduled: number): Job {
    const template = cj.spec.jobTemplate ?? {};
    const annotations = { ...(template.metadata?.annotations ?? {}), [SCHEDULED_TIMESTAMP_ANNOTATION]: this.clock.rfc3339(scheduled) };
    const metadata: Job['metadata'] = { name, namespace: cj.metadata.namespace };
    if (template.metadata?.labels) metadata.labels = { ...template.metadata.labels };
    metadata.annotations = annotations;
    metadata.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name ?? '', uid: cj.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }];
    return { apiVersion: 'batch/v1', kind: 'Job', metadata, spec: structuredClone(template.spec ?? {}) } as Job;
  }

  /** Deletes a Job (its pods go with it) and drops it from the active list. */
  private async deleteJob(ctx: ReconcileContext, cj: CronJob, namespace: string, name: string, uid: string): Promise<boolean> {
    try {
      await ctx.client.resource<Job>(JOBS, namespace).delete(name, { propagationPolicy: 'Background' });
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      this.recorder.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${err.message}`, ctx.cause);
      return false;
    }
    const rest = (cj.status?.active ?? []).filter((r) => r.uid !== uid);
    if (rest.length > 0) cj.status!.active = rest;
    else delete cj.status!.active;
    this.recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`, ctx.cause);
    return true;
  }

  /** Finished Jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit go, oldest first. */
  private async cleanupFinishedJobs(ctx: ReconcileContext, cj: CronJob, jobs: readonly Job[]): Promise<boolean> {
    const { successfulJobsHistoryLimit: okLimit, failedJobsHistoryLimit: failLimit } = cj.spec;
    if (okLimit === undefined && failLimit === undefined) return false;
    let changed = false;
    const byStart = (a: Job, b: Job): number => {
      const sa = a.status?.startTime;
      const sb = b.status?.startTime;
      if (!sa || !sb) return sa ? -1 : sb ? 1 : (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
      return Date.parse(sa) - Date.parse(sb) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
    };
    for (const [type, limit] of [['Complete', okLimit], ['Failed', failLimit]] as const) {
      if (limit === undefined) continue;
      const finished = jobs.filter((j) => finishedType(j) === type).sort(byStart);
      for (const job of finished.slice(0, Math.max(0, finished.length - limit))) {
        if (await this.deleteJob(ctx, cj, job.metadata.namespace ?? '', job.metadata.name ?? '', job.metadata.uid ?? '')) changed = true;
      }
    }
    return changed;
  }
}
