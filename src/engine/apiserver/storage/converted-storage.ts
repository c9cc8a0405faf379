/**
 * A resource served from storage kept in another version or group (the storage factory's
 * cohabiting resources, a custom resource's non-storage versions): the stored objects, their
 * watch cache and etcd keys are the other resource's, and every object is converted on its way
 * in and out. Converted objects of frozen (shared) objects are frozen and shared too.
 */
import type { StatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import type { KeyValue } from '../../store/types';
import type { Conversion } from '../conversion/types';
import type { ResourceInfo } from '../resources';
import { deepFreeze } from './codec';
import type { StoredObject, UpdateOutcome, WriteResult } from './resource-storage';
import type { CacheReader, ServedStorage } from './served';
import type { CacheWatcher, CacheWatchOptions } from './watch-cache';

export class ConvertedStorage implements ServedStorage {
  readonly cache: CacheReader;
  private readonly served = new WeakMap<KubeObject, KubeObject>();
  private readonly lists = new WeakMap<readonly KubeObject[], readonly KubeObject[]>();

  constructor(
    readonly stored: ServedStorage,
    readonly type: ResourceInfo,
    private readonly conversion: Conversion,
  ) {
    const cache = stored.cache;
    this.cache = {
      get resourceVersion() {
        return cache.resourceVersion;
      },
      get: (key) => {
        const obj = cache.get(key);
        return obj && this.out(obj);
      },
      list: (keyPrefix) => this.outList(cache.list(keyPrefix)),
      watch: (options) => this.watch(options),
    };
  }

  get store() {
    return this.stored.store;
  }

  get keyPrefix(): string {
    return this.stored.keyPrefix;
  }

  get triggerField(): string | undefined {
    return this.stored.triggerField;
  }

  key(namespace: string, name: string): string {
    return this.stored.key(namespace, name);
  }

  prefix(namespace: string): string {
    return this.stored.prefix(namespace);
  }

  rangeEndOf(prefix: string): string {
    return this.stored.rangeEndOf(prefix);
  }

  range(fromKey: string, rangeEnd: string, revision: number, limit: number) {
    return this.stored.range(fromKey, rangeEnd, revision, limit);
  }

  decode(kv: KeyValue): KubeObject {
    return this.out(this.stored.decode(kv));
  }

  async get(key: string, revision?: number): Promise<StoredObject | undefined> {
    const found = await this.stored.get(key, revision);
    return found && { ...found, object: this.out(found.object) };
  }

  suggestion(key: string): StoredObject | undefined {
    const found = this.stored.suggestion(key);
    return found && { ...found, object: this.out(found.object) };
  }

  async create(key: string, obj: KubeObject, dryRun: boolean): Promise<WriteResult> {
    return this.outResult(await this.stored.create(key, this.conversion.toStorage(obj), dryRun));
  }

  async update(key: string, obj: KubeObject, expected: StoredObject, dryRun: boolean, expectedIsCurrent?: boolean): Promise<UpdateOutcome> {
    const result = await this.stored.update(key, this.conversion.toStorage(obj), expected, dryRun, expectedIsCurrent);
    if (!('conflict' in result)) return this.outResult(result);
    return { conflict: result.conflict && { ...result.conflict, object: this.out(result.conflict.object) } };
  }

  async delete(key: string, expected: StoredObject, dryRun: boolean): Promise<WriteResult | undefined> {
    const result = await this.stored.delete(key, expected, dryRun);
    return result && this.outResult(result);
  }

  /** The object in the served version; an object already in it (a no-op write's) as it is. */
  private out(obj: KubeObject): KubeObject {
    if (obj.apiVersion === this.conversion.servedApiVersion) return obj;
    if (!Object.isFrozen(obj)) return this.conversion.fromStorage(obj);
    let served = this.served.get(obj);
    if (!served) {
      served = deepFreeze(this.conversion.fromStorage(obj));
      this.served.set(obj, served);
    }
    return served;
  }

  private outList(list: readonly KubeObject[]): readonly KubeObject[] {
    let served = this.lists.get(list);
    if (!served) {
      served = Object.freeze(list.map((o) => this.out(o)));
      this.lists.set(list, served);
    }
    return served;
  }

  private outResult(result: WriteResult): WriteResult {
    return { ...result, object: this.out(result.object) };
  }

  private watch(options: CacheWatchOptions): CacheWatcher | StatusError {
    const { matches, listener } = options;
    return this.stored.cache.watch({
      ...options,
      matches: (obj) => matches(this.out(obj)),
      listener: (e) => listener(e.type === 'BOOKMARK' || e.type === 'ERROR' ? e : { type: e.type, object: this.out(e.object) }),
    });
  }
}
