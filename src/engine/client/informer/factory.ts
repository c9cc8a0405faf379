/**
 * client-go's SharedInformerFactory: the informers of one component set (kube-controller-manager,
 * kube-scheduler, a kubelet), one per resource and filter, so that the controllers of a process
 * share one cache and one watch per resource. start() runs the informers created so far (call
 * it again after creating more, as in client-go).
 */
import type { GroupVersionResource, KubeObject } from '../../api/types';
import type { Clock } from '../../clock';
import type { Random } from '../../random';
import type { Client } from '../client';
import { resourceKey } from '../resources';
import type { IndexFunc } from './indexers';
import { SharedIndexInformer } from './shared-informer';

export interface InformerFilter {
  namespace?: string;
  labelSelector?: string;
  /** "spec.nodeName=node-1": a kubelet's pods. */
  fieldSelector?: string;
}

export interface SharedInformerFactoryOptions {
  client: Client;
  clock: Clock;
  random: Random;
  /** "kube-controller-manager": names the informers' clock tasks. */
  component: string;
  /** The informers' default handler resync period (kube-controller-manager: 12 h to 24 h); 0: none. */
  defaultResyncPeriodMs?: number;
}

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer>();

  constructor(private readonly options: SharedInformerFactoryOptions) {}

  /** The shared informer of a resource (through a filter); created on first use. */
  informerFor<T extends KubeObject = KubeObject>(gvr: GroupVersionResource, filter: InformerFilter = {}, indexers?: Record<string, IndexFunc<T>>): SharedIndexInformer<T> {
    const key = [resourceKey(gvr), filter.namespace ?? '', filter.labelSelector ?? '', filter.fieldSelector ?? ''].join('|');
    let informer = this.informers.get(key) as SharedIndexInformer<T> | undefined;
    if (!informer) {
      const { client, clock, random, component } = this.options;
      const name = `${gvr.resource}${describe(filter)} (${component})`;
      informer = new SharedIndexInformer<T>({
        name,
        resource: client.resource<T>(gvr, filter.namespace),
        labelSelector: filter.labelSelector,
        fieldSelector: filter.fieldSelector,
        clock,
        random: random.fork(`informer ${key}`),
        defaultResyncPeriodMs: this.options.defaultResyncPeriodMs,
      });
      this.informers.set(key, informer as unknown as SharedIndexInformer);
    }
    if (indexers) {
      const fresh = Object.entries(indexers).filter(([name]) => !informer!.indexer.hasIndex(name));
      if (fresh.length > 0) informer.addIndexers(Object.fromEntries(fresh));
    }
    return informer;
  }

  start(): void {
    for (const informer of this.informers.values()) informer.run();
  }

  /** Resolves once every started informer has filled its cache. */
  async waitForCacheSync(): Promise<void> {
    await Promise.all([...this.informers.values()].filter((i) => i.isStarted).map((i) => i.whenSynced()));
  }

  shutdown(): void {
    for (const informer of this.informers.values()) informer.stop();
  }
}

function describe(filter: InformerFilter): string {
  const parts = [filter.namespace ? `namespace=${filter.namespace}` : '', filter.labelSelector ?? '', filter.fieldSelector ?? ''].filter((p) => p !== '');
  return parts.length > 0 ? ` [${parts.join(', ')}]` : '';
}
