/**
 * One resource's storage (k8s.io/apiserver/pkg/storage/etcd3 with the registry's key layout):
 * reads, conditional writes and lists against the Store, and the watch cache that serves
 * watches and resourceVersion="0" lists. Consistent reads go to the store; objects that the
 * cache already holds at the same revision are shared rather than decoded again. This is the one
 * place that decides between the two for the API server's own reads: get() is etcd (the cacher
 * delegates a Get without resourceVersion), suggestion() is the cache's object an update starts
 * from (the cacher's GuaranteedUpdate), and update() reports when that object was behind.
 */
import { isObject, type KubeObject } from '../../api/types';
import { alreadyExistsError, internalServerError, StatusError } from '../../api/status';
import { utf8Length } from '../../store/keys';
import { MAX_REQUEST_BYTES, prefixEnd, StoreError, StoreErrors, type KeyValue, type Store } from '../../store/types';
import { storageKey, storageListPrefix } from '../../api/registry';
import { groupResource, type ResourceInfo } from '../resources';
import { asStored, canonical, decodeFromStorage } from './codec';
import { jsonLengthBound } from './json-length';
import { WatchCache } from './watch-cache';
import type { Clock } from '../../clock';

export interface StoredObject {
  readonly object: KubeObject;
  readonly modRevision: number;
  /** The stored bytes, to recognise a write that changes nothing. */
  readonly value: string;
}

export interface WriteResult {
  readonly object: KubeObject;
  /** The store revision the write produced; undefined for dry runs and no-op updates. */
  readonly revision?: number;
}

/** An update's answer: written (or nothing to write), or lost its race to `conflict`, the key's value now (undefined: gone). */
export type UpdateOutcome = WriteResult | { readonly conflict: StoredObject | undefined };

/** kube-apiserver indexes pod watchers by the node they ask about: one kubelet per node watches its pods. */
const POD_TRIGGER_FIELD = 'spec.nodeName';

function podNodeName(pod: KubeObject): string {
  const spec = pod.spec;
  return isObject(spec) && typeof spec.nodeName === 'string' ? spec.nodeName : '';
}

/** A write of this storage the watch cache has not taken yet. */
interface Written {
  /** The object as stored (canonical, without a resourceVersion) and its bytes. */
  readonly stored: KubeObject;
  readonly value: string;
  /** Once known: the revision it was written at, and the object as read back at it. */
  revision: number | undefined;
  object: KubeObject | undefined;
}

export class ResourceStorage {
  readonly cache: WatchCache;
  /** The field whose exact value in a watch's field selector picks the watch's events by index. */
  readonly triggerField: string | undefined;
  /** The resource's key prefix: "/registry/deployments/". */
  readonly keyPrefix: string;
  private readonly storagePrefix: string;

  /**
   * What this storage is writing or wrote and the watch cache has not seen yet, by key, oldest
   * first: each object as reading it back would give it (see asStored), shared with reads and
   * with the cache's events instead of decoding the stored bytes again. A write is registered
   * before its txn is sent: with the latency model the watch event can reach the cache before
   * the txn's answer reaches the API server, and the cache then recognises it by its value.
   */
  private readonly written = new Map<string, Written[]>();
  constructor(
    readonly store: Store,
    readonly type: ResourceInfo,
    cacheCapacity?: number,
    clock?: Pick<Clock, 'setTimer' | 'clearTimer'>,
  ) {
    this.storagePrefix = type.storagePrefix ?? type.resource;
    this.keyPrefix = storageListPrefix(this.storagePrefix);
    this.triggerField = type.group === '' && type.resource === 'pods' ? POD_TRIGGER_FIELD : undefined;
    this.cache = new WatchCache(store, this.keyPrefix, cacheCapacity, (key, revision, value) => this.takeWritten(key, revision, value), this.triggerField ? podNodeName : undefined, clock);
  }

  key(namespace: string, name: string): string {
    return storageKey(this.storagePrefix, this.type.namespaced ? namespace : '', name);
  }

  /** The prefix of every key in a namespace, or of the whole resource. */
  prefix(namespace: string): string {
    return storageListPrefix(this.storagePrefix, this.type.namespaced ? namespace : '');
  }

  decode(kv: KeyValue): KubeObject {
    return this.cache.sharedAt(kv.key, kv.modRevision) ?? this.writtenAt(kv.key, kv.modRevision) ?? decodeFromStorage(kv);
  }

  private writtenAt(key: string, revision: number): KubeObject | undefined {
    const w = this.written.get(key)?.find((e) => e.revision === revision);
    return w?.object;
  }

  /** The cache's event for this revision: it takes the object, and whatever was written before it is past. */
  private takeWritten(key: string, revision: number, value: string): KubeObject | undefined {
    const entries = this.written.get(key);
    if (!entries) return undefined;
    const at = entries.findIndex((e) => e.revision === revision || (e.revision === undefined && e.value === value));
    if (at < 0) {
      // Not a write of this storage (a delete, another writer): what was written before it is past.
      const later = entries.filter((e) => e.revision === undefined || e.revision > revision);
      if (later.length === 0) this.written.delete(key);
      else this.written.set(key, later);
      return undefined;
    }
    const w = entries[at]!;
    w.revision = revision;
    w.object ??= asStored(w.stored, revision);
    if (at === entries.length - 1) this.written.delete(key);
    else entries.splice(0, at + 1);
    return w.object;
  }

  /** A write about to be sent: the cache may see it before its answer comes. */
  private writing(key: string, stored: KubeObject, value: string): Written {
    const w: Written = { stored, value, revision: undefined, object: undefined };
    const entries = this.written.get(key);
    if (entries) entries.push(w);
    else this.written.set(key, [w]);
    return w;
  }

  /** A registered write failed or lost its race: the cache will not see it. */
  private abandoned(key: string, w: Written): void {
    const entries = this.written.get(key);
    const at = entries ? entries.indexOf(w) : -1;
    if (at < 0) return;
    entries!.splice(at, 1);
    if (entries!.length === 0) this.written.delete(key);
  }

  private wrote(w: Written, revision: number): WriteResult {
    w.revision = revision;
    w.object ??= asStored(w.stored, revision);
    return { object: w.object, revision };
  }

  /**
   * The watch cache's object for a key, as the cacher hands it to etcd3's GuaranteedUpdate
   * (cachedExistingObject): the state an update starts from without reading etcd. It may be
   * behind etcd; update() tells when it was (see UpdateOutcome).
   */
  suggestion(key: string): StoredObject | undefined {
    return this.cache.stored(key);
  }

  async get(key: string, revision?: number): Promise<StoredObject | undefined> {
    const res = await this.store.range(revision ? { key, revision } : { key });
    const kv = res.kvs[0];
    return kv ? { object: this.decode(kv), modRevision: kv.modRevision, value: kv.value } : undefined;
  }

  /** Creates the key if it does not exist (etcd txn: create_revision == 0). */
  async create(key: string, obj: KubeObject, dryRun: boolean): Promise<WriteResult> {
    const name = obj.metadata.name ?? '';
    if (obj.metadata.resourceVersion) throw internalServerError('resourceVersion should not be set on objects to be created');
    const stored = canonical(obj);
    if (dryRun) {
      checkObjectSize(key, stored);
      if (await this.get(key)) throw alreadyExistsError(groupResource(this.type), name);
      return { object: obj };
    }
    const value = JSON.stringify(stored);
    const w = this.writing(key, stored, value);
    const res = await this.write(
      () =>
        this.store.txn({
          compare: [{ key, target: 'create', result: '=', value: 0 }],
          success: [{ put: { key, value } }],
          failure: [],
        }),
      () => this.abandoned(key, w),
    );
    if (!res.succeeded) {
      this.abandoned(key, w);
      throw alreadyExistsError(groupResource(this.type), name);
    }
    return this.wrote(w, res.header.revision);
  }

  /**
   * Writes the object if the key is still at `expected` (etcd txn: mod_revision == expected; on
   * failure the txn reads the key, as etcd3's OptimisticPut with GetOnFailure). An update that
   * lost its race answers the key's value as that read found it, for the caller's next round.
   * `expected` may come from the watch cache (suggestion(), not current): an update that would
   * change nothing against it is checked against etcd before it is called a no-op, as etcd3's
   * GuaranteedUpdate refreshes a state it did not read itself before skipping the write.
   */
  async update(key: string, obj: KubeObject, expected: StoredObject, dryRun: boolean, expectedIsCurrent = true): Promise<UpdateOutcome> {
    const stored = canonical(obj);
    const value = JSON.stringify(stored);
    if (value === expected.value) {
      if (expectedIsCurrent) return { object: expected.object };
      const live = await this.get(key);
      if (live?.value === value) return { object: live.object };
      return { conflict: live };
    }
    if (dryRun) {
      checkSize(key, value);
      return { object: { ...obj, metadata: { ...obj.metadata, resourceVersion: String(expected.modRevision) } } };
    }
    const w = this.writing(key, stored, value);
    const res = await this.write(
      () =>
        this.store.txn({
          compare: [{ key, target: 'mod', result: '=', value: expected.modRevision }],
          success: [{ put: { key, value } }],
          failure: [{ range: { key } }],
        }),
      () => this.abandoned(key, w),
    );
    if (!res.succeeded) {
      this.abandoned(key, w);
      const read = res.responses[0];
      const kv = read && 'range' in read ? read.range.kvs[0] : undefined;
      return { conflict: kv ? { object: this.decode(kv), modRevision: kv.modRevision, value: kv.value } : undefined };
    }
    return this.wrote(w, res.header.revision);
  }

  /** Deletes the key if it is still at `expected`; undefined when it changed meanwhile. */
  async delete(key: string, expected: StoredObject, dryRun: boolean): Promise<WriteResult | undefined> {
    if (dryRun) return { object: expected.object };
    const res = await this.write(() =>
      this.store.txn({
        compare: [{ key, target: 'mod', result: '=', value: expected.modRevision }],
        success: [{ deleteRange: { key } }],
        failure: [],
      }),
    );
    if (!res.succeeded) return undefined;
    return { object: expected.object, revision: res.header.revision };
  }

  /** A consistent range over a key interval at a revision (0: current). */
  async range(fromKey: string, rangeEnd: string, revision: number, limit: number) {
    return this.store.range({ key: fromKey, rangeEnd, revision, limit });
  }

  rangeEndOf(prefix: string): string {
    return prefixEnd(prefix);
  }

  // etcd's errors reach the client as kube-apiserver passes them on: code 500, no reason.
  private async write<T>(op: () => Promise<T>, failed?: () => void): Promise<T> {
    try {
      return await op();
    } catch (err) {
      failed?.();
      if (err instanceof StoreError) throw storeStatusError(err.message);
      throw err;
    }
  }
}

function storeStatusError(message: string): StatusError {
  return new StatusError({ code: 500, reason: '', message });
}

/**
 * A dry run never reaches etcd, so it checks etcd's request size limit itself: an object that
 * the real write would fail to store is reported the same way.
 */
function checkSize(key: string, value: string): void {
  // A UTF-16 unit is at most three UTF-8 bytes: most objects are far below the limit.
  if ((key.length + value.length) * 3 <= MAX_REQUEST_BYTES) return;
  if (utf8Length(key) + utf8Length(value) > MAX_REQUEST_BYTES) throw storeStatusError(StoreErrors.requestTooLarge);
}

/** checkSize of the object's JSON, written only when its bounded length does not settle it. */
function checkObjectSize(key: string, obj: KubeObject): void {
  const under = MAX_REQUEST_BYTES / 3 - key.length;
  if (jsonLengthBound(obj, under) <= under) return;
  checkSize(key, JSON.stringify(obj));
}
