/**
 * The TTL-after-finished controller (pkg/controller/ttlafterfinished): a finished Job with
 * ttlSecondsAfterFinished is deleted, with foreground propagation so its pods go first, once that
 * many seconds have passed since it finished. Before deleting, the Job is read again from the API
 * in case its TTL changed, and the delete is pinned to its uid.
 *
 * Runs as system:serviceaccount:kube-system:ttl-after-finished-controller with
 * --concurrent-ttl-after-finished-syncs (5) workers.
 */
import { requeueAfter, type ReconcileContext, type SyncResult } from '../../client/controller';
import { isNotFound } from '../../client/errors';
import { splitMetaNamespaceKey } from '../../client/informer';
import { JOBS } from '../../client/resources';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { needsCleanup, ttlLeftMs, type Job } from './ttl';

export const TTL_AFTER_FINISHED_ACCOUNT = 'ttl-after-finished-controller';

const WORKERS = 5;

export class TTLAfterFinishedController extends LoopController {
  private readonly jobs = this.informer<Job>(JOBS);

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'ttl-after-finished', workers: WORKERS });
    const changed = (job: Job): void => {
      if (!job.metadata.deletionTimestamp && needsCleanup(job)) this.loop.enqueueObject(job);
    };
    this.jobs.addEventHandler({ onAdd: changed, onUpdate: (_old, job) => changed(job) });
  }

  /** processJob. */
  protected async sync(key: string, ctx: ReconcileContext): Promise<SyncResult> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.jobs.indexer.getByName(namespace, name);
    if (!cached) return;
    const left = ttlLeftMs(cached, this.clock.now());
    if (left instanceof Error) throw left;
    if (left === undefined) return;
    if (left > 0) {
      ctx.observe(`finished; ${left / 1000}s of its TTL left`);
      return requeueAfter(left);
    }
    // The cached Job may be stale: only a fresh read says the TTL has truly run out.
    const jobs = ctx.client.resource<Job>(JOBS, namespace);
    let fresh: Job;
    try {
      fresh = await jobs.get(name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const freshLeft = ttlLeftMs(fresh, this.clock.now());
    if (freshLeft instanceof Error) throw freshLeft;
    if (freshLeft === undefined) return;
    if (freshLeft > 0) return requeueAfter(freshLeft);
    ctx.observe(`finished ${fresh.spec?.ttlSecondsAfterFinished ?? 0}s ago or more: TTL expired, deleting`);
    await jobs.delete(name, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid ?? '' } });
  }
}
