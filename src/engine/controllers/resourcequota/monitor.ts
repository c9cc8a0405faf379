/**
 * The quota monitor: an informer per quotable resource (namespaced, and served with create, list,
 * watch and delete), whose deletions and relevant updates ask for a recalculation of the quotas
 * of the object's namespace. Upstream monitors every quotable resource from the start; kubesim
 * monitors a resource once a quota's hard limits name it, on the shared informers, which the
 * other controllers mostly started already.
 */
import type { ResourceRegistry } from '../../api/registry';
import type { KubeObject } from '../../api/types';
import type { Clock } from '../../clock';
import { deletedObject, type DeletedFinalStateUnknown, type SharedInformerFactory, type SharedIndexInformer } from '../../client/informer';
import { updateNeedsReplenish } from './replenish';
import { groupResourceKey, type GroupResource } from './usage';

const QUOTABLE_VERBS = ['create', 'list', 'watch', 'delete'];

/** Told that an object of a tracked resource changed in a way that may give quota back. */
export type Replenish = (gr: GroupResource, namespace: string, because: KubeObject | DeletedFinalStateUnknown) => void;

export class QuotaMonitor {
  private readonly monitors = new Map<string, SharedIndexInformer>();

  constructor(
    private readonly informers: SharedInformerFactory,
    private readonly registry: ResourceRegistry,
    private readonly clock: Clock,
    private readonly replenish: Replenish,
  ) {}

  /** The resource's informer, watched and started on first use; undefined for a resource that cannot be monitored. */
  monitor(gr: GroupResource): SharedIndexInformer | undefined {
    const key = groupResourceKey(gr);
    const existing = this.monitors.get(key);
    if (existing) return existing;
    const info = this.registry.byGroupResource(gr.group, gr.resource);
    if (!info || !info.namespaced || !QUOTABLE_VERBS.every((v) => info.verbs.includes(v))) return undefined;
    const informer = this.informers.informerFor({ group: gr.group, version: info.version, resource: gr.resource });
    informer.addEventHandler({
      onUpdate: (old, obj) => {
        if (old !== obj && updateNeedsReplenish(gr, old, obj, this.clock.now())) this.replenish(gr, obj.metadata.namespace ?? '', obj);
      },
      onDelete: (obj) => this.replenish(gr, deletedObject(obj).metadata.namespace ?? '', obj),
    });
    informer.run();
    this.monitors.set(key, informer);
    return informer;
  }
}
