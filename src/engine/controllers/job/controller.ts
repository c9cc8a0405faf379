/**
 * The Job controller (pkg/controller/job), for NonIndexed and Indexed Jobs (indexed.ts: one pod
 * per pending completion index, succeeded indexes in status.completedIndexes): it keeps
 * min(parallelism, remaining completions) pods running (new pods wait out the failure backoff), counts finished
 * pods through status.uncountedTerminatedPods before it lets go of their job-tracking finalizer,
 * and finishes the Job: SuccessCriteriaMet then Complete ("Job completed") when the completions
 * are reached or (Indexed) a success policy rule matches (SuccessPolicy, policies.ts); or
 * FailureTarget then Failed when a failed pod matches a FailJob rule of the pod failure policy
 * (PodFailurePolicy; Ignore rules keep failures from counting), more pods failed than
 * backoffLimit allows ("Job has reached the specified backoff limit") or activeDeadlineSeconds
 * ran out. A suspended Job has its pods deleted. What finishes the Job and which pods to create
 * or delete are decided by the planners in plan.ts; this loop performs them and tracks the status.
 *
 * Runs as system:serviceaccount:kube-system:job-controller; events come from "job-controller".
 */
import { deepCopy } from '../../client/clone';
import { requeueAfter, type Controller, type ReconcileContext, type SyncResult } from '../../client/controller';
import { isNotFound } from '../../client/errors';
import { deletedObject, metaNamespaceKey, splitMetaNamespaceKey, type DeletedFinalStateUnknown } from '../../client/informer';
import { JOBS, PODS } from '../../client/resources';
import { controllerOf } from '../util/controller-ref-manager';
import { controlLoop, type ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { cachedController } from '../util/owner-lookup';
import { ControllerExpectations } from '../util/expectations';
import { slowStartBatch } from '../util/slow-start';
import { nextBackoffRecord, type BackoffRecord } from './backoff';
import { ensureCondition, findCondition, isJobFinished, MESSAGE_COMPLETIONS_REACHED, newCondition, REASON_COMPLETIONS_REACHED } from './conditions';
import { hasTrackingFinalizer, isActive, isPodFailed, isReady, isTerminating, podFromTemplate, removeTrackingFinalizerPatch } from './pods';
import type { Job, JobCondition, JobStatus, Pod } from '../util/types/job';
import { matchPodFailurePolicy } from './policies';
import { planFinish, planManage, SYNC_JOB_BATCH_PERIOD_MS } from './plan';
import { failedIndexesOf, hasBackoffLimitPerIndex, podBeingReplaced, withIndexFailureCounts } from './per-index';
import { completionIndex, formatIntervals, has, isIndexedJob, parseIntervals, total, withCompletionIndex, withIndexes, type Interval } from './indexed';

export const JOB_CONTROLLER_ACCOUNT = 'job-controller';

const jobKey = (job: Job): string => metaNamespaceKey(job);

export class JobController extends LoopController {
  /** Pods whose Job is gone or finished: their tracking finalizer is removed. */
  readonly orphans: Controller;
  private readonly jobs = this.informer<Job>(JOBS);
  private readonly pods = this.informer<Pod>(PODS);
  private readonly expectations = new ControllerExpectations(this.clock);
  private readonly backoff = new Map<string, BackoffRecord>();

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'job', events: { component: 'job-controller', stream: 'job events' } });
    this.orphans = controlLoop(deps, { name: 'job-orphan-pod', informers: this.informers, workers: 1, sync: (key, ctx) => this.syncOrphanPod(key, ctx) });
    this.jobs.addEventHandler({
      onAdd: (job) => this.loop.enqueue(jobKey(job), job),
      onUpdate: (_old, job) => this.loop.enqueue(jobKey(job), job),
      onDelete: (obj) => {
        const job = deletedObject(obj);
        this.expectations.delete(jobKey(job));
        this.loop.enqueue(jobKey(job), obj);
      },
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.podChanged(pod, pod, true),
      onUpdate: (old, pod) => old.metadata.resourceVersion !== pod.metadata.resourceVersion && this.podChanged(pod, pod, false),
      onDelete: (obj) => this.podChanged(deletedObject(obj), obj, false, true),
    });
  }

  override run(): Promise<void> {
    return Promise.all([super.run(), this.orphans.run()]).then(() => undefined);
  }

  override shutDown(): void {
    super.shutDown();
    this.orphans.shutDown();
  }

  private jobOf(pod: Pod): Job | undefined {
    return controllerOf(pod)?.apiVersion === 'batch/v1' ? cachedController(this.jobs.indexer, 'Job', pod) : undefined;
  }

  private podChanged(pod: Pod, because: Pod | DeletedFinalStateUnknown<Pod>, added: boolean, deleted = false): void {
    const job = this.jobOf(pod);
    if (!job) {
      if (hasTrackingFinalizer(pod) && !deleted) this.orphans.enqueue(metaNamespaceKey(pod), because);
      return;
    }
    const key = jobKey(job);
    if (added && !pod.metadata.deletionTimestamp) this.expectations.creationObserved(key);
    if (deleted || pod.metadata.deletionTimestamp) this.expectations.deletionObserved(key, metaNamespaceKey(pod));
    if (hasTrackingFinalizer(pod) && isJobFinished(job)) this.orphans.enqueue(metaNamespaceKey(pod), because);
    this.loop.enqueue(key, because);
    this.loop.enqueueAfter(key, SYNC_JOB_BATCH_PERIOD_MS);
  }

  private async syncOrphanPod(key: string, ctx: ReconcileContext): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pod = this.pods.indexer.getByName(namespace, name);
    if (!pod) return;
    const ref = controllerOf(pod);
    if (ref && (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1')) return;
    const job = this.jobOf(pod);
    if (job && !isJobFinished(job)) return;
    const patch = removeTrackingFinalizerPatch(pod);
    if (!patch) return;
    ctx.observe('orphan pod: removing the job-tracking finalizer');
    try {
      await ctx.client.resource(PODS, namespace).patch(name, 'strategic', patch);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<SyncResult> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.jobs.indexer.getByName(namespace, name);
    if (!cached) {
      this.expectations.delete(key);
      this.backoff.delete(key);
      return;
    }
    if (isJobFinished(cached)) {
      this.backoff.delete(key);
      return;
    }
    const job = deepCopy(cached);
    const status: JobStatus = (job.status ??= {});
    status.uncountedTerminatedPods ??= {};
    const now = this.clock.now();
    const nowTime = this.clock.rfc3339(now);
    const satisfied = this.expectations.satisfied(key);
    const pods = this.pods.indexer.listNamespace(namespace).filter((p) => controllerOf(p)?.uid === job.metadata.uid);
    const activePods = pods.filter(isActive);
    let active = activePods.length;
    let ready = activePods.filter(isReady).length;
    let terminating = pods.filter(isTerminating).length;
    const uncountedSucceeded = new Set(status.uncountedTerminatedPods.succeeded ?? []);
    const uncountedFailed = new Set(status.uncountedTerminatedPods.failed ?? []);
    const fresh = (p: Pod): boolean => hasTrackingFinalizer(p) && !uncountedSucceeded.has(p.metadata.uid ?? '') && !uncountedFailed.has(p.metadata.uid ?? '');
    const newSucceeded = pods.filter((p) => fresh(p) && p.status?.phase === 'Succeeded');
    // With a pod failure policy, failures its Ignore rules match are not counted (nonIgnoredFailedPodsCount).
    const counts = (p: Pod): boolean => !job.spec.podFailurePolicy || matchPodFailurePolicy(job.spec.podFailurePolicy, p).count;
    const newFailed = pods.filter((p) => fresh(p) && isPodFailed(p, job) && counts(p));
    // An Indexed Job counts succeeded indexes (calculateSucceededIndexes), not pods.
    const indexed = isIndexedJob(job);
    const completionsOf = typeof job.spec.completions === 'number' ? job.spec.completions : 0;
    const prevIndexes = indexed ? parseIntervals(status.completedIndexes, completionsOf) : [];
    const succeededIndexes = indexed ? withIndexes(prevIndexes, succeededIndexesOf(pods, completionsOf)) : [];
    const succeeded = indexed ? total(succeededIndexes) : (status.succeeded ?? 0) + newSucceeded.length + uncountedSucceeded.size;
    const failed = (status.failed ?? 0) + newFailed.length + uncountedFailed.size;
    const suspended = job.spec.suspend === true;
    if (!status.startTime && !suspended) status.startTime = nowTime;
    const backoff = nextBackoffRecord(this.backoff.get(key) ?? { failuresAfterLastSuccess: 0 }, newSucceeded, newFailed, now);
    this.backoff.set(key, backoff);
    let result: SyncResult = undefined;

    // backoffLimitPerIndex: the failed indexes, and whether they fail the Job
    const failedIndexes = indexed && hasBackoffLimitPerIndex(job) ? failedIndexesOf(job, pods, completionsOf) : undefined;
    const decision = planFinish({ job, pods, failed, succeededIndexes, failedIndexes, completions: completionsOf, now, nowTime });
    let finished = decision.finished;
    if (decision.requeueAfterMs !== undefined) result = requeueAfter(decision.requeueAfterMs);

    let suspendChanged = false;
    if (finished) {
      const deleted = await this.deletePods(ctx, job, activePods, false);
      if (deleted.count !== active || !satisfied) finished = undefined;
      active -= deleted.count;
      terminating += deleted.count;
      ready -= deleted.ready;
    } else {
      let managed = false;
      if (satisfied && !job.metadata.deletionTimestamp) {
        const outcome = await this.manageJob(ctx, job, activePods, succeeded, backoff, now, succeededIndexes, failedIndexes, pods);
        active = outcome.active;
        ready -= outcome.deletedReady;
        terminating += outcome.deleted;
        if (outcome.requeueAfterMs !== undefined) result = requeueAfter(outcome.requeueAfterMs);
        managed = true;
      }
      const completions = job.spec.completions;
      const complete = completions === undefined || completions === null ? succeeded > 0 && active === 0 : succeeded >= completions && active === 0;
      if (complete) {
        finished = newCondition('SuccessCriteriaMet', REASON_COMPLETIONS_REACHED, MESSAGE_COMPLETIONS_REACHED, nowTime);
      } else if (managed) {
        const [conditions, changed] = suspended
          ? ensureCondition(status.conditions ?? [], 'Suspended', 'True', 'JobSuspended', 'Job suspended', nowTime)
          : ensureCondition(status.conditions ?? [], 'Suspended', 'False', 'JobResumed', 'Job resumed', nowTime);
        if (changed) {
          status.conditions = conditions;
          suspendChanged = true;
          this.recorder.event(job, 'Normal', suspended ? 'Suspended' : 'Resumed', suspended ? 'Job suspended' : 'Job resumed', ctx.cause);
          if (!suspended) status.startTime = nowTime;
        }
      }
    }
    const needsUpdate = suspendChanged || active !== (status.active ?? 0) || ready !== status.ready || terminating !== status.terminating;
    setCount(status, 'active', active);
    status.ready = ready;
    status.terminating = terminating;
    ctx.observe(`${active} active, ${ready} ready, ${succeeded} succeeded, ${failed} failed${finished ? `; ${finished.type}` : ''}`);
    await this.trackStatus(ctx, job, pods, finished, terminating, needsUpdate, indexed ? { prev: prevIndexes, completions: completionsOf, failed: failedIndexes } : undefined);
    return result;
  }

  private async manageJob(
    ctx: ReconcileContext,
    job: Job,
    activePods: readonly Pod[],
    succeeded: number,
    backoff: BackoffRecord,
    now: number,
    succeededIndexes: readonly Interval[],
    failedIndexes: readonly Interval[] | undefined,
    allPods: readonly Pod[],
  ): Promise<{ active: number; deleted: number; deletedReady: number; requeueAfterMs?: number }> {
    const key = jobKey(job);
    const active = activePods.length;
    const decision = planManage({ job, activePods, succeeded, backoff, now, succeededIndexes, failedIndexes });
    if (decision.kind === 'none') return { active, deleted: 0, deletedReady: 0 };
    if (decision.kind === 'wait') return { active, deleted: 0, deletedReady: 0, requeueAfterMs: decision.requeueAfterMs };
    if (decision.kind === 'delete') {
      const deleted = await this.deletePods(ctx, job, decision.pods, true);
      return { active: active - deleted.count, deleted: deleted.count, deletedReady: deleted.ready };
    }
    const { count: diff, indexes } = decision;
    this.expectations.expectCreations(key, diff);
    const all = allPods;
    const pods = ctx.client.resource<Pod>(PODS, job.metadata.namespace);
    let next = 0;
    const [created, error] = await slowStartBatch(diff, async () => {
      const ix = indexes[next++];
      try {
        let template: Pod = ix === undefined ? podFromTemplate(job) : withCompletionIndex(podFromTemplate(job), job, ix);
        if (ix !== undefined && failedIndexes) template = withIndexFailureCounts(template, job, podBeingReplaced(job, all, ix, now));
        const pod = await pods.create(template);
        this.recorder.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name ?? ''}`, ctx.cause);
      } catch (err) {
        this.expectations.creationObserved(key);
        if (err instanceof Error) this.recorder.event(job, 'Warning', 'FailedCreate', `Error creating: ${err.message}`, ctx.cause);
        throw err;
      }
    });
    for (let i = created + 1; i < diff; i++) this.expectations.creationObserved(key);
    if (error) throw error;
    return { active: active + created, deleted: 0, deletedReady: 0 };
  }

  /** Deletes the pods (dropping their tracking finalizer first when `dropFinalizer`, as deleteJobPods does). */
  private async deletePods(ctx: ReconcileContext, job: Job, victims: readonly Pod[], dropFinalizer: boolean): Promise<{ count: number; ready: number }> {
    const key = jobKey(job);
    if (victims.length === 0) return { count: 0, ready: 0 };
    if (dropFinalizer) this.expectations.expectDeletions(key, victims.map((p) => metaNamespaceKey(p)));
    const pods = ctx.client.resource<Pod>(PODS, job.metadata.namespace);
    let count = 0;
    let ready = 0;
    let firstError: Error | undefined;
    for (const pod of victims) {
      const name = pod.metadata.name ?? '';
      try {
        const patch = dropFinalizer ? removeTrackingFinalizerPatch(pod) : undefined;
        if (patch) await pods.patch(name, 'strategic', patch);
        await pods.delete(name);
        this.recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`, ctx.cause);
      } catch (err) {
        if (!isNotFound(err)) {
          if (dropFinalizer) this.expectations.deletionObserved(key, metaNamespaceKey(pod));
          if (!(err instanceof Error) || err instanceof TypeError) throw err;
          this.recorder.event(job, 'Warning', 'FailedDelete', `Error deleting: ${err.message}`, ctx.cause);
          firstError ??= err;
          continue;
        }
      }
      count++;
      if (isReady(pod)) ready++;
    }
    if (firstError && count === 0) throw firstError;
    return { count, ready };
  }

  /**
   * trackJobStatusAndRemoveFinalizers: finished pods go into uncountedTerminatedPods (written
   * with any interim condition), lose their finalizer, then move into the counters; the Job
   * finishes once nothing is uncounted or terminating.
   */
  private async trackStatus(
    ctx: ReconcileContext,
    job: Job,
    pods: readonly Pod[],
    finishedIn: JobCondition | undefined,
    terminating: number,
    needsUpdate: boolean,
    indexed?: { prev: readonly Interval[]; completions: number; failed?: readonly Interval[] },
  ): Promise<void> {
    const status = job.status!;
    const uncounted = status.uncountedTerminatedPods!;
    const withFinalizer = new Set(pods.filter(hasTrackingFinalizer).map((p) => p.metadata.uid ?? ''));
    let flush = needsUpdate || moveCounted(status, withFinalizer);
    let finished = finishedIn;
    const toRelease: Pod[] = [];
    const newIndexes: number[] = [];
    for (const pod of pods) {
      if (!hasTrackingFinalizer(pod)) continue;
      const failedPod = isPodFailed(pod, job);
      const releasable = job.metadata.deletionTimestamp !== undefined || finished !== undefined || pod.status?.phase === 'Succeeded' || failedPod;
      if (!releasable) continue;
      toRelease.push(pod);
      const uid = pod.metadata.uid ?? '';
      if (pod.status?.phase === 'Succeeded' && !(uncounted.failed ?? []).includes(uid)) {
        // The completion index is enough not to count a succeeded pod twice.
        if (indexed) {
          const ix = completionIndex(pod);
          if (ix >= 0 && ix < indexed.completions && !has(indexed.prev, ix)) newIndexes.push(ix);
        } else if (!(uncounted.succeeded ?? []).includes(uid)) {
          uncounted.succeeded = [...(uncounted.succeeded ?? []), uid];
          flush = true;
        }
      } else if (
        (failedPod || (finished && finished.type !== 'SuccessCriteriaMet')) &&
        !(uncounted.failed ?? []).includes(uid) &&
        (!indexed || (completionIndex(pod) >= 0 && completionIndex(pod) < indexed.completions)) &&
        (!job.spec.podFailurePolicy || matchPodFailurePolicy(job.spec.podFailurePolicy, pod).count)
      ) {
        uncounted.failed = [...(uncounted.failed ?? []), uid];
        flush = true;
      }
    }
    if (indexed) {
      const intervals = withIndexes(indexed.prev, [...new Set(newIndexes)].sort((a, b) => a - b));
      const text = formatIntervals(intervals);
      if (text !== (status.completedIndexes ?? '')) flush = true;
      setCount(status, 'succeeded', total(intervals));
      if (text) status.completedIndexes = text;
      else delete status.completedIndexes;
      if (indexed.failed) {
        const failed = formatIntervals(indexed.failed);
        if (failed !== status.failedIndexes) {
          status.failedIndexes = failed;
          flush = true;
        }
      }
    }
    if (finished?.type === 'FailureTarget') {
      status.conditions = [...(status.conditions ?? []), finished];
      flush = true;
      finished = newCondition('Failed', finished.reason ?? '', finished.message ?? '', this.clock.rfc3339());
    }
    if (finished?.type === 'SuccessCriteriaMet') {
      if (!findCondition(job, 'SuccessCriteriaMet')) {
        status.conditions = [...(status.conditions ?? []), finished];
        flush = true;
      }
      finished = newCondition('Complete', finished.reason ?? '', finished.message ?? '', this.clock.rfc3339());
    }
    const client = ctx.client.resource<Job>(JOBS, job.metadata.namespace);
    let current = job;
    if (flush) {
      current = deepCopy(await client.updateStatus(withGoStatus(current)));
      current.status ??= {};
      current.status.uncountedTerminatedPods ??= {};
      flush = false;
    }
    const pods2 = ctx.client.resource<Pod>(PODS, job.metadata.namespace);
    for (const pod of toRelease) {
      try {
        await pods2.patch(pod.metadata.name ?? '', 'strategic', removeTrackingFinalizerPatch(pod)!);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      withFinalizer.delete(pod.metadata.uid ?? '');
    }
    if (moveCounted(current.status!, withFinalizer)) flush = true;
    let done = false;
    const left = current.status!.uncountedTerminatedPods!;
    if (finished && (left.succeeded ?? []).length + (left.failed ?? []).length === 0 && terminating === 0) {
      const [conditions] = ensureCondition(current.status!.conditions ?? [], finished.type, 'True', finished.reason ?? '', finished.message ?? '', this.clock.rfc3339());
      current.status!.conditions = conditions;
      if (finished.type === 'Complete') current.status!.completionTime = conditions.find((c) => c.type === 'Complete')?.lastTransitionTime ?? this.clock.rfc3339();
      done = true;
      flush = true;
    }
    if (!flush) return;
    await client.updateStatus(withGoStatus(current));
    if (!done || !finished) return;
    if (finished.type === 'Complete') {
      const completions = current.spec.completions;
      if (typeof completions === 'number' && (current.status!.succeeded ?? 0) > completions) {
        this.recorder.event(current, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached', ctx.cause);
      }
      this.recorder.event(current, 'Normal', 'Completed', 'Job completed', ctx.cause);
    } else {
      this.recorder.event(current, 'Warning', finished.reason ?? '', finished.message ?? '', ctx.cause);
    }
  }
}

/** The indexes of succeeded pods not counted yet (they still have the tracking finalizer). */
function succeededIndexesOf(pods: readonly Pod[], completions: number): number[] {
  const found = new Set<number>();
  for (const p of pods) {
    const ix = completionIndex(p);
    if (p.status?.phase === 'Succeeded' && ix >= 0 && ix < completions && hasTrackingFinalizer(p)) found.add(ix);
  }
  return [...found].sort((a, b) => a - b);
}

function setCount(status: JobStatus, field: 'active' | 'succeeded' | 'failed', value: number): void {
  if (value > 0) status[field] = value;
  else delete status[field];
}

/** Uncounted pods that lost their finalizer are counted now (cleanUncountedPodsWithoutFinalizers). */
function moveCounted(status: JobStatus, withFinalizer: Set<string>): boolean {
  const uncounted = (status.uncountedTerminatedPods ??= {});
  let changed = false;
  for (const field of ['succeeded', 'failed'] as const) {
    const list = uncounted[field] ?? [];
    const keep = list.filter((uid) => withFinalizer.has(uid));
    if (keep.length === list.length) continue;
    changed = true;
    setCount(status, field, (status[field] ?? 0) + list.length - keep.length);
    if (keep.length > 0) uncounted[field] = keep;
    else delete uncounted[field];
  }
  return changed;
}

/** The status in Go's field order, as kube-controller-manager sends it. */
function withGoStatus(job: Job): Job {
  const s = job.status ?? {};
  const ordered: JobStatus = {};
  for (const k of ['conditions', 'startTime', 'completionTime', 'active', 'succeeded', 'failed', 'terminating', 'completedIndexes', 'failedIndexes', 'uncountedTerminatedPods', 'ready'] as const) {
    if (s[k] !== undefined) (ordered as Record<string, unknown>)[k] = s[k];
  }
  return { ...job, status: ordered };
}

