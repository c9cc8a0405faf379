/**
 * Every served resource's storage, keyed by group and resource, and the ObjectReader over them.
 */
import type { KubeObject } from '../../api/types';
import type { Store } from '../../store/types';
import type { ResourceInfo } from '../resources';
import type { CachedEvent, GroupResource, ObjectReader } from './reader';
import { ResourceStorage } from './resource-storage';

export class ClusterStorage implements ObjectReader {
  private readonly byResource = new Map<string, ResourceStorage>();

  constructor(
    readonly store: Store,
    types: readonly ResourceInfo[],
    cacheCapacity?: number,
  ) {
    for (const t of types) {
      if (t.storagePrefix === undefined) continue;
      const id = `${t.group}/${t.resource}`;
      // One storage per resource even when several versions are served (one etcd key space).
      if (!this.byResource.has(id)) this.byResource.set(id, new ResourceStorage(store, t, cacheCapacity));
    }
  }

  async start(): Promise<void> {
    for (const s of this.byResource.values()) await s.cache.start();
  }

  async stop(): Promise<void> {
    for (const s of this.byResource.values()) await s.cache.stop();
  }

  all(): ResourceStorage[] {
    return [...this.byResource.values()];
  }

  for(r: GroupResource): ResourceStorage | undefined {
    return this.byResource.get(`${r.group}/${r.resource}`);
  }

  private must(r: GroupResource): ResourceStorage {
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

  follow(r: GroupResource, listener: (event: CachedEvent) => void): () => void {
    const s = this.must(r);
    const watcher = s.cache.watch({
      keyPrefix: s.keyPrefix,
      fromRevision: s.cache.resourceVersion,
      initialState: true,
      matches: () => true,
      listener: (e) => {
        if (e.type !== 'BOOKMARK') listener({ type: e.type, object: e.object });
      },
      bookmarks: false,
      initialEventsEnd: false,
      bookmarkType: { kind: s.type.kind, apiVersion: '' },
    });
    return 'stop' in watcher ? () => watcher.stop() : () => undefined;
  }
}
