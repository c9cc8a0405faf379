/**
 * The namespace controller (pkg/controller/namespace): a namespace marked for deletion is queued
 * five seconds after its event (so late writes into it are seen), then emptied and finalized by
 * the deleter. While content is still going away it looks again after half the deleter's
 * estimate plus a second; other failures are retried with backoff (5 ms doubling to 60 s).
 * Namespaces are resynced every five minutes (--namespace-sync-period).
 *
 * Runs as system:serviceaccount:kube-system:namespace-controller.
 */
import type { ResourceRegistry } from '../../api/registry';
import { requeueAfter, type ReconcileContext, type SyncResult } from '../../client/controller';
import { deletedObject, deletionHandlingKey, splitMetaNamespaceKey, type DeletedFinalStateUnknown } from '../../client/informer';
import { NAMESPACES } from '../../client/resources';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from '../../client/workqueue';
import { TokenBucket } from '../../client/flowcontrol/token-bucket';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { NamespacedResourcesDeleter, ResourcesRemainingError } from './deleter';
import { requeueDelayMs } from './estimate';
import type { Namespace } from '../util/types/namespace';

export const NAMESPACE_CONTROLLER_ACCOUNT = 'namespace-controller';

/** namespaceDeletionGracePeriod. */
const DELETION_GRACE_PERIOD_MS = 5000;
const NAMESPACE_SYNC_PERIOD_MS = 5 * 60 * 1000;

export class NamespaceController extends LoopController {
  private readonly namespaces = this.informer<Namespace>(NAMESPACES);
  private readonly deleter: NamespacedResourcesDeleter;

  /** `registry`: the API server's resources, the controller's discovery. */
  constructor(deps: ControllerDeps, registry: ResourceRegistry) {
    super(deps, {
      name: 'namespace',
      rateLimiter: new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter<string>(5, 60_000), new BucketRateLimiter<string>(new TokenBucket(10, 100, deps.clock))),
    });
    this.deleter = new NamespacedResourcesDeleter(registry, deps.clock);
    const enqueue = (obj: Namespace | DeletedFinalStateUnknown<Namespace>): void => {
      const ns = deletedObject(obj);
      if (ns.metadata.deletionTimestamp) this.loop.enqueueAfter(deletionHandlingKey(obj), DELETION_GRACE_PERIOD_MS);
    };
    this.namespaces.addEventHandler({ onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) }, { resyncPeriodMs: NAMESPACE_SYNC_PERIOD_MS });
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<SyncResult> {
    const { name } = splitMetaNamespaceKey(key);
    if (!this.namespaces.indexer.getByName('', name)) {
      ctx.observe('namespace gone');
      return;
    }
    try {
      await this.deleter.delete(ctx.client, name);
      ctx.observe('content deleted, namespace finalized');
    } catch (err) {
      if (!(err instanceof ResourcesRemainingError)) throw err;
      ctx.observe(err.message);
      return requeueAfter(requeueDelayMs(err.estimate));
    }
  }
}
