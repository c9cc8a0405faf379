/**
 * The resource quota controller (pkg/controller/resourcequota): recalculates each ResourceQuota's
 * status.used from the objects that exist, so usage that admission charged comes back when
 * objects are deleted or pods finish. A quota is recalculated when it is created or its hard
 * limits change (first, on the priority queue, while its status lacks them), when a tracked
 * object in its namespace is deleted or stops counting, and every 5 minutes
 * (--resource-quota-sync-period) in any case.
 *
 * Runs as system:serviceaccount:kube-system:resourcequota-controller with
 * --concurrent-resource-quota-syncs (5) workers per queue.
 */
import type { ResourceRegistry } from '../../api/registry';
import type { GroupVersionResource, KubeObject } from '../../api/types';
import type { Timer } from '../../clock';
import type { Controller, ReconcileContext } from '../../client/controller';
import { metaNamespaceKey, splitMetaNamespaceKey, type DeletedFinalStateUnknown } from '../../client/informer';
import { evaluatorFor } from '../../apiserver/admission/resourcequota/evaluators';
import { controlLoop, type ControllerDeps } from '../util/deps';
import { LoopController, loopWorkers } from '../util/loop-controller';
import { QuotaMonitor } from './monitor';
import { groupResourceKey, needsPriority, recalculatedStatus, sameHardLimits, statusNeedsUpdate, trackedResources, type GroupResource, type ResourceQuota } from './usage';

export const RESOURCE_QUOTA_CONTROLLER_ACCOUNT = 'resourcequota-controller';

/** --resource-quota-sync-period's default: every quota is recalculated this often. */
export const QUOTA_RESYNC_PERIOD_MS = 5 * 60_000;

const RESOURCE_QUOTAS: GroupVersionResource = { group: '', version: 'v1', resource: 'resourcequotas' };

export class ResourceQuotaController extends LoopController {
  /** resourcequota_priority: quotas whose status does not reflect their hard limits yet (`loop` is resourcequota_primary: recalculations). */
  readonly priority: Controller;
  private readonly quotas = this.informer<ResourceQuota>(RESOURCE_QUOTAS);
  private readonly monitor: QuotaMonitor;
  private timer: Timer | undefined;
  private stopped = false;

  /** `registry`: the API server's resources, the discovery the quota monitor works from. */
  constructor(deps: ControllerDeps, registry: ResourceRegistry) {
    super(deps, { name: 'resourcequota' });
    this.monitor = new QuotaMonitor(deps.informers, registry, deps.clock, (gr, ns, because) => this.replenish(gr, ns, because));
    this.priority = controlLoop(deps, { name: 'resourcequota-priority', workers: loopWorkers({ name: 'resourcequota' }), informers: this.informers, sync: (key, ctx) => this.sync(key, ctx) });
    this.quotas.addEventHandler({
      onAdd: (q) => this.addQuota(q),
      // Status updates are this controller's own (or admission's): only new hard limits matter.
      onUpdate: (old, q) => {
        if (!sameHardLimits(old.spec?.hard, q.spec?.hard)) this.addQuota(q);
      },
      onDelete: (q) => this.loop.enqueueObject(q),
    });
  }

  override async run(): Promise<void> {
    const loops = Promise.all([super.run(), this.priority.run()]);
    await this.quotas.whenSynced();
    if (!this.stopped) this.scheduleResync(0);
    await loops;
  }

  override shutDown(): void {
    this.stopped = true;
    this.clock.clearTimer(this.timer);
    super.shutDown();
    this.priority.shutDown();
  }

  private scheduleResync(delayMs: number): void {
    this.timer = this.clock.setTimer(
      delayMs,
      () => {
        for (const key of this.quotas.indexer.keys()) this.loop.enqueue(key);
        if (!this.stopped) this.scheduleResync(QUOTA_RESYNC_PERIOD_MS);
      },
      { daemon: true, label: 'resourcequota-controller: full recalculation of every quota' },
    );
  }

  private addQuota(quota: ResourceQuota): void {
    (needsPriority(quota) ? this.priority : this.loop).enqueueObject(quota);
  }

  /** replenishQuota: the namespace's quotas that limit something the resource counts toward. */
  private replenish(gr: GroupResource, namespace: string, because: KubeObject | DeletedFinalStateUnknown): void {
    const evaluator = evaluatorFor(gr.group, gr.resource);
    for (const quota of this.quotas.indexer.listNamespace(namespace)) {
      if (Object.keys(quota.status?.hard ?? {}).some((name) => evaluator.matchesResource(name))) this.loop.enqueue(metaNamespaceKey(quota), because);
    }
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const quota = this.quotas.indexer.getByName(namespace, name);
    if (!quota) {
      ctx.observe('quota gone');
      return;
    }
    const objects = new Map<string, readonly KubeObject[]>();
    for (const gr of trackedResources(quota)) {
      const informer = this.monitor.monitor(gr);
      if (!informer) continue;
      await informer.whenSynced();
      objects.set(groupResourceKey(gr), informer.indexer.listNamespace(namespace));
    }
    const status = recalculatedStatus(quota, objects, this.clock.now());
    const needed = statusNeedsUpdate(quota, status);
    ctx.observe(`used ${Object.entries(status.used).map(([k, v]) => `${k}=${v}`).join(',') || 'nothing'}${needed ? '' : ' (unchanged)'}`);
    if (!needed) return;
    await ctx.client.resource<ResourceQuota>(RESOURCE_QUOTAS, namespace).updateStatus({ ...quota, status });
  }
}
