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
import type { Timer } from '../../clock';
import { deepCopy } from '../../client/clone';
import type { ReconcileContext } from '../../client/controller';
import { isAlreadyExists, isNotFound } from '../../client/errors';
import { deletedObject, metaNamespaceKey, splitMetaNamespaceKey, type DeletedFinalStateUnknown } from '../../client/informer';
import { JOBS } from '../../client/resources';
import type { GroupVersionResource } from '../../api/types';
import { controllerOf } from '../util/controller-ref-manager';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import type { Job } from '../util/types/job';
import { cachedController } from '../util/owner-lookup';
import { jobsBeyondHistoryLimits, missingJobEvent, planSchedule, reconcileActive, recordStarted, removeActive, type CronJobEvent } from './plan';
import type { CronJob } from './types';

export const CRONJOB_CONTROLLER_ACCOUNT = 'cronjob-controller';

const CRONJOBS: GroupVersionResource = { group: 'batch', version: 'v1', resource: 'cronjobs' };

export class CronJobController extends LoopController {
  private readonly cronJobs = this.informer<CronJob>(CRONJOBS);
  private readonly jobs = this.informer<Job>(JOBS);
  /** The wake-up for each CronJob's next activation. */
  private readonly wakeUps = new Map<string, Timer>();

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'cronjob', events: { component: 'cronjob-controller', stream: 'cronjob events' } });
    this.cronJobs.addEventHandler(this.loop.handler<CronJob>());
    const forJob = (obj: Job | DeletedFinalStateUnknown<Job>): void => {
      const job = deletedObject(obj);
      const cj = cachedController(this.cronJobs.indexer, 'CronJob', job);
      if (cj) this.loop.enqueue(metaNamespaceKey(cj), obj);
    };
    this.jobs.addEventHandler({ onAdd: forJob, onUpdate: (_old, job) => forJob(job), onDelete: forJob });
  }

  override shutDown(): void {
    for (const timer of this.wakeUps.values()) this.clock.clearTimer(timer);
    this.wakeUps.clear();
    super.shutDown();
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<void> {
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
    const now = this.clock.now();
    const reconciled = reconcileActive(cj.status ?? {}, jobs);
    cj.status = reconciled.status;
    let changed = reconciled.changed;
    this.emit(ctx, cj, reconciled.events);
    for (const ref of reconciled.unlisted) {
      try {
        await ctx.client.resource<Job>(JOBS, ref.namespace).get(ref.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.emit(ctx, cj, [missingJobEvent(ref)]);
        removeActive(cj.status, ref.uid ?? '');
        changed = true;
      }
    }
    const decision = planSchedule(cj, cj.status, now);
    this.emit(ctx, cj, decision.events);
    const start = decision.start;
    if (!start) return decision.requeueAfterMs === undefined ? { changed } : { requeueAfterMs: decision.requeueAfterMs, changed };
    for (const ref of start.replace) {
      if (!(await this.deleteJob(ctx, cj, ref.namespace ?? '', ref.name ?? '', ref.uid ?? ''))) throw new Error(`could not replace job ${ref.namespace ?? ''}/${ref.name ?? ''}`);
      changed = true;
    }
    let created: Job;
    try {
      created = await ctx.client.resource<Job>(JOBS, cj.metadata.namespace).create(start.job);
      this.recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata.name ?? ''}`, ctx.cause);
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if ((err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')) throw err;
      if (!isAlreadyExists(err)) {
        this.recorder.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${err.message}`, ctx.cause);
        throw err;
      }
      created = await ctx.client.resource<Job>(JOBS, cj.metadata.namespace).get(start.job.metadata.name ?? '');
      if (controllerOf(created)?.uid !== cj.metadata.uid || (cj.status.active ?? []).some((r) => r.uid === created.metadata.uid)) return { changed };
    }
    recordStarted(cj.status, created, start.scheduled);
    return { requeueAfterMs: start.requeueAfterMs, changed: true };
  }

  private emit(ctx: ReconcileContext, cj: CronJob, events: readonly CronJobEvent[]): void {
    for (const e of events) this.recorder.event(cj, e.eventType, e.reason, e.message, ctx.cause);
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
    removeActive(cj.status ??= {}, uid);
    this.recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`, ctx.cause);
    return true;
  }

  /** Finished Jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit go, oldest first. */
  private async cleanupFinishedJobs(ctx: ReconcileContext, cj: CronJob, jobs: readonly Job[]): Promise<boolean> {
    let changed = false;
    for (const job of jobsBeyondHistoryLimits(cj, jobs)) {
      if (await this.deleteJob(ctx, cj, job.metadata.namespace ?? '', job.metadata.name ?? '', job.metadata.uid ?? '')) changed = true;
    }
    return changed;
  }
}
