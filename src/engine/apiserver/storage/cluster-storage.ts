/**
 * Every served resource's storage, keyed by group and resource, and the ObjectReader over them.
 * Resources that cohabit with another (events.k8s.io Events) are views of its storage.
 */
import type { KubeObject } from '../../api/types';
import type { Clock } from '../../clock';
import type { Store } from '../../store/types';
import { cohabitationOf, versionConversionOf, type Conversion } from '../conversion';
import type { ResourceInfo } from '../resources';
import { ConvertedStorage } from './converted-storage';
import type { CachedEvent, GroupResource, ObjectReader } from './reader';
import { ResourceStorage } from './resource-storage';
import type { ServedStorage } from './served';
import type { WatchCacheStats } from './watch-cache';

/** The API server's watch caches at one instant (src/protocol/etcd.ts's WatchCacheView is this shape). */
export interface WatchCacheStatus {
  /** The newest revision any cache has seen. */
  readonly resourceVersion: number;
  readonly objects: number;
  readonly events: number;
  readonly watchers: number;
  readonly resources: readonly (WatchCacheStats & { readonly resource: string })[];
}

export class ClusterStorage implements ObjectReader {
  private readonly byResource = new Map<string, ServedStorage>();
  /** Version-specific views: a custom resource's versions, each converted from its storage version. */
  private readonly byVersion = new Map<string, ServedStorage>();
  /** The storages that own etcd key spaces (and watch caches). */
  private readonly owners: ResourceStorage[] = [];

  constructor(
    readonly store: Store,
    types: readonly ResourceInfo[],
    private readonly cacheCapacity?: number,
    /** For a watch cache's restart after etcd cancels its watch (watch-cache.ts). */
    private readonly clock?: Pick<Clock, 'setTimer' | 'clearTimer'>,
  ) {
    const stored = types.filter((t) => t.storagePrefix !== undefined);
    for (const t of stored) if (!cohabitationOf(t) && !versionConversionOf(t)) this.own(t);
    // A version kept in another version's storage (autoscaling/v1 HPAs as v2): a converting view.
    for (const t of stored) {
      const c = versionConversionOf(t);
      const owner = c && this.byResource.get(`${t.group}/${t.resource}`);
      if (c && owner) this.byVersion.set(`${t.group}/${t.version}/${t.resource}`, new ConvertedStorage(owner, t, c));
    }
    for (const t of stored) {
      const c = cohabitationOf(t);
      const target = c && this.for(c.storedAs);
      if (c && target && !this.for(t)) this.byResource.set(`${t.group}/${t.resource}`, new ConvertedStorage(target, t, c.conversion));
    }
  }

  // One storage per resource even when several versions are served (one etcd key space).
  private own(t: ResourceInfo): void {
    const id = `${t.group}/${t.resource}`;
    if (this.byResource.has(id)) return;
    const s = new ResourceStorage(this.store, t, this.cacheCapacity, this.clock);
    this.byResource.set(id, s);
    this.owners.push(s);
  }

  async start(): Promise<void> {
    for (const s of this.owners) await s.cache.start();
  }

  async stop(): Promise<void> {
    for (const s of this.owners) await s.cache.stop();
  }

  /** The watch caches' figures, per resource (group/resource, the core group without one) and summed. */
  watchCacheStatus(): WatchCacheStatus {
    const resources = this.owners
      .map((s) => ({ resource: s.type.group === '' ? s.type.resource : `${s.type.group}/${s.type.resource}`, ...s.cache.stats() }))
      .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
    let resourceVersion = 0;
    let objects = 0;
    let events = 0;
    let watchers = 0;
    for (const r of resources) {
      resourceVersion = Math.max(resourceVersion, r.resourceVersion);
      objects += r.objects;
      events += r.events;
      watchers += r.watchers;
    }
    return { resourceVersion, objects, events, watchers, resources };
  }

  /** The storages that own their keys, one per etcd key space. */
  all(): ResourceStorage[] {
    return [...this.owners];
  }

  /** The storage serving a resource; in a given version where versions are converted (custom resources). */
  for(r: GroupResource & { version?: string }): ServedStorage | undefined {
    return (r.version !== undefined ? this.byVersion.get(`${r.group}/${r.version}/${r.resource}`) : undefined) ?? this.byResource.get(`${r.group}/${r.resource}`);
  }

  /**
   * A custom resource's storage: one key space in `owner`'s (storage) version, its watch cache
   * started, and a converting view per served version. Version-less reads see the storage version.
   */
  async addCustom(owner: ResourceInfo, served: readonly { info: ResourceInfo; conversion: Conversion }[]): Promise<ResourceStorage> {
    const s = new ResourceStorage(this.store, owner, this.cacheCapacity, this.clock);
    await s.cache.start();
    this.owners.push(s);
    this.byResource.set(`${owner.group}/${owner.resource}`, new ConvertedStorage(s, owner, apiVersionOnly(owner)));
    for (const { info, conversion } of served) this.byVersion.set(`${info.group}/${info.version}/${info.resource}`, new ConvertedStorage(s, info, conversion));
    return s;
  }

  async removeCustom(group: string, resource: string): Promise<void> {
    const id = `${group}/${resource}`;
    const view = this.byResource.get(id);
    this.byResource.delete(id);
    for (const k of [...this.byVersion.keys()]) if (k.startsWith(`${group}/`) && k.endsWith(`/${resource}`)) this.byVersion.delete(k);
    const owner = view instanceof ConvertedStorage ? view.stored : undefined;
    const at = this.owners.findIndex((o) => o === owner);
    if (at >= 0) this.owners.splice(at, 1);
    if (owner instanceof ResourceStorage) await owner.cache.stop();
  }

  private must(r: GroupResource): ServedStorage {
    const s = this.for(r);
    if (!s) throw new Error(`no storage for ${r.resource}.${r.group}`);
    return s;
  }

  async get(r: GroupResource, namespace: string, name: string): Promise<KubeObject | undefined> {
    const s = this.must(r);
    return (await s.get(s.key(namespace, name)))?.object;
  }

  async list(r: GroupResource, namespace = ''): Promise<KubeObject[]> {
    const s = this.must(r);
    const prefix = s.prefix(namespace);
    const res = await s.range(prefix, s.rangeEndOf(prefix), 0, 0);
    return res.kvs.map((kv) => s.decode(kv));
  }

  cached(r: GroupResource, namespace = ''): readonly KubeObject[] {
    const s = this.must(r);
    return s.cache.list(s.prefix(namespace));
  }

  /**
   * Every change of a resource, after its current objects as ADDED. When the cache starts again
   * (its watch ends with an ERROR), the follower is brought up to date as an informer's relist
   * does: ADDED or MODIFIED for what the cache holds now, DELETED for what it no longer holds.
   */
  follow(r: GroupResource, listener: (event: CachedEvent) => void): () => void {
    const s = this.must(r);
    const known = new Map<string, KubeObject>();
    let watcher: ReturnType<typeof s.cache.watch> | undefined;
    let ended = false;
    const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
    const subscribe = (relist: boolean): void => {
      const before = relist ? new Map(known) : undefined;
      watcher = s.cache.watch({
        keyPrefix: s.keyPrefix,
        fromRevision: s.cache.resourceVersion,
        initialState: true,
        matches: () => true,
        listener: (e) => {
          if (ended || e.type === 'BOOKMARK') return;
          if (e.type === 'ERROR') {
            queueMicrotask(() => {
              if (!ended) subscribe(true);
            });
            return;
          }
          const key = keyOf(e.object);
          let type = e.type;
          if (before && type === 'ADDED' && before.delete(key)) type = 'MODIFIED';
          if (type === 'DELETED') known.delete(key);
          else known.set(key, e.object);
          listener({ type, object: e.object });
        },
        bookmarks: false,
        initialEventsEnd: false,
        bookmarkType: { kind: s.type.kind, apiVersion: '' },
      });
      // What the follower knew and the new list does not hold was deleted meanwhile.
      for (const [key, obj] of before ?? []) {
        known.delete(key);
        listener({ type: 'DELETED', object: obj });
      }
    };
    subscribe(false);
    return () => {
      ended = true;
      if (watcher && 'stop' in watcher) watcher.stop();
    };
  }
}

/** Objects read without a version come in the storage version (whatever version they were stored in). */
function apiVersionOnly(owner: ResourceInfo): Conversion {
  const apiVersion = `${owner.group}/${owner.version}`;
  return { storageApiVersion: apiVersion, servedApiVersion: apiVersion, toStorage: (obj) => obj, fromStorage: (obj) => ({ ...obj, apiVersion }) };
}
