/**
 * One resource's watch cache (k8s.io/apiserver/pkg/storage/cacher): the current objects under a
 * key prefix and a sliding window of recent events, fed by one etcd watch. Decoded objects are
 * frozen and shared by every reader and watcher. A watch may start from any revision still in
 * the window; older ones get kube-apiserver's 410 "too old resource version: X (Y)".
 *
 * When etcd cancels the cache's own watch (it moved to another member and its revision had been
 * compacted there), the cache starts again as the cacher's reflector does: a second later it
 * lists the prefix anew, ends its watchers (their clients list again) and watches from the
 * list's revision; a list that fails is tried again a second later.
 */
import type { KubeObject } from '../../api/types';
import { resourceExpiredError, type StatusError } from '../../api/status';
import type { Clock } from '../../clock';
import type { JsonObject } from '../../api/types';
import { prefixEnd, type KeyValue, type Store, type Watch, type WatchResponse } from '../../store/types';
import { decodeFromStorage, deepFreeze } from './codec';

export type CacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface CacheEvent {
  readonly type: CacheEventType;
  readonly key: string;
  /** For DELETED: the last state, with the deletion's revision as its resourceVersion. */
  readonly object: KubeObject;
  readonly prevObject?: KubeObject;
  readonly revision: number;
}

/**
 * What a watcher receives: the event as it looks through the watcher's selector, or the ERROR
 * (a Status) that ends its watch when the cache starts again.
 */
export type WatcherEvent = { readonly type: CacheEventType | 'BOOKMARK'; readonly object: KubeObject } | { readonly type: 'ERROR'; readonly object: JsonObject };

export interface CacheWatchOptions {
  /** Only keys under this prefix (a namespace, or one object's exact key). */
  keyPrefix: string;
  /** Deliver events after this revision. */
  fromRevision: number;
  /** Start with the current state as ADDED events (resourceVersion unset or "0"). */
  initialState: boolean;
  matches: (obj: KubeObject) => boolean;
  listener: (event: WatcherEvent) => void;
  bookmarks: boolean;
  /** A bookmark after the initial state, annotated k8s.io/initial-events-end (sendInitialEvents). */
  initialEventsEnd: boolean;
  /** kind and apiVersion for bookmark objects. */
  bookmarkType: { kind: string; apiVersion: string };
  /**
   * The value the watcher's field selector requires of the cache's trigger field (a kubelet's
   * spec.nodeName=<node> on pods): only events whose object, now or before, has that value are
   * looked at for this watcher (the cacher's IndexedTrigger).
   */
  trigger?: string;
}

export interface CacheWatcher {
  stop(): void;
}

interface Watcher extends CacheWatchOptions {
  stopped: boolean;
}

/**
 * One watch cache's figures, as kube-apiserver's metrics name them: apiserver_watch_cache_resource_version,
 * the objects held (apiserver_storage_objects), the events in the window and its capacity
 * (apiserver_watch_cache_capacity), the watchers it serves (apiserver_registered_watchers).
 */
export interface WatchCacheStats {
  readonly resourceVersion: number;
  readonly objects: number;
  readonly events: number;
  readonly capacity: number;
  readonly watchers: number;
}

/** The window kube-apiserver's cache keeps at most (its upper bound capacity). */
const DEFAULT_CAPACITY = 100 * 1024;

export class WatchCache {
  private readonly objects = new Map<string, KubeObject>();
  /** The stored bytes of each object (the etcd value its event carried), for GuaranteedUpdate's no-op check. */
  private readonly values = new Map<string, string>();
  /** Lists made since the objects last changed, by key prefix. */
  private readonly listed = new Map<string, readonly KubeObject[]>();
  private readonly history: CacheEvent[] = [];
  private historyStart = 0;
  private listRevision = 0;
  private removedSinceList = false;
  private revision = 0;
  private readonly watchers = new Set<Watcher>();
  /** The watchers without a trigger value, and those with one by value. */
  private readonly untriggered = new Set<Watcher>();
  private readonly byTrigger = new Map<string, Set<Watcher>>();
  private storeWatch: Watch | undefined;
  /** Counts the cache's etcd watches: a response of an earlier one is ignored. */
  private watchGeneration = 0;
  private restartTimer: ReturnType<Clock['setTimer']> | undefined;
  private stopped = false;
  /** Times the cache started again after etcd canceled its watch. */
  restarts = 0;
  private bookmarkPending = false;
  /** Told of every event as it comes out of the store (the API server's revision records). */
  observer: ((event: CacheEvent) => void) | undefined;

  constructor(
    private readonly store: Store,
    readonly prefix: string,
    private readonly capacity = DEFAULT_CAPACITY,
    /** The object a write through the API server left for this key and revision, if it has it (else the bytes are decoded). */
    private readonly written: (key: string, revision: number, value: string) => KubeObject | undefined = () => undefined,
    /** The trigger field's value of an object (spec.nodeName for pods), for watchers that give one. */
    private readonly triggerOf?: (obj: KubeObject) => string,
    /** For the second the cache waits before it starts again (none: at once, and no retry). */
    private readonly clock?: Pick<Clock, 'setTimer' | 'clearTimer'>,
  ) {}

  async start(): Promise<void> {
    const res = await this.store.range({ key: this.prefix, rangeEnd: prefixEnd(this.prefix) });
    for (const kv of res.kvs) {
      this.objects.set(kv.key, decodeFromStorage(kv));
      this.values.set(kv.key, kv.value);
    }
    this.listed.clear();
    this.listRevision = res.header.revision;
    this.revision = res.header.revision;
    await this.watchFrom(res.header.revision + 1);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clock?.clearTimer(this.restartTimer);
    this.restartTimer = undefined;
    for (const w of this.watchers) w.stopped = true;
    this.watchers.clear();
    this.untriggered.clear();
    this.byTrigger.clear();
    await this.storeWatch?.cancel();
  }

  private async watchFrom(revision: number): Promise<void> {
    const generation = ++this.watchGeneration;
    this.storeWatch = this.store.watch({ key: this.prefix, rangeEnd: prefixEnd(this.prefix), startRevision: revision, prevKv: true, progressNotify: true }, (r) => {
      if (generation === this.watchGeneration) this.onStoreResponse(r);
    });
    await this.storeWatch.ready;
  }

  /** etcd canceled the cache's watch: start again in a second (the cacher's wait.Until period). */
  private scheduleRestart(): void {
    if (this.stopped || this.restartTimer) return;
    this.storeWatch = undefined;
    this.watchGeneration++;
    if (!this.clock) {
      void this.restart();
      return;
    }
    this.restartTimer = this.clock.setTimer(1000, () => void this.restart(), { label: `watch cache ${this.prefix}: relist` });
  }

  /**
   * Lists the prefix anew and watches from the list's revision; the watchers are ended with
   * 410 Expired (a client lists again): their events between the canceled watch and the list
   * are gone with the compacted history.
   */
  private async restart(): Promise<void> {
    this.restartTimer = undefined;
    if (this.stopped) return;
    let res: Awaited<ReturnType<Store['range']>>;
    try {
      res = await this.store.range({ key: this.prefix, rangeEnd: prefixEnd(this.prefix) });
    } catch {
      if (this.clock && !this.stopped) this.restartTimer = this.clock.setTimer(1000, () => void this.restart(), { label: `watch cache ${this.prefix}: relist` });
      return;
    }
    if (this.stopped) return;
    this.restarts++;
    this.objects.clear();
    for (const kv of res.kvs) this.objects.set(kv.key, decodeFromStorage(kv));
    this.listed.clear();
    this.history.length = 0;
    this.historyStart = 0;
    this.removedSinceList = false;
    this.listRevision = res.header.revision;
    this.revision = Math.max(this.revision, res.header.revision);
    const ended = [...this.watchers];
    this.watchers.clear();
    this.untriggered.clear();
    this.byTrigger.clear();
    const status = resourceExpiredError('The resourceVersion for the provided watch is too old.').status as unknown as JsonObject;
    for (const w of ended) {
      if (w.stopped) continue;
      w.stopped = true;
      w.listener({ type: 'ERROR', object: status });
    }
    await this.watchFrom(res.header.revision + 1);
  }

  /** The latest revision this cache has seen (events or progress notifications). */
  get resourceVersion(): number {
    return this.revision;
  }

  stats(): WatchCacheStats {
    return { resourceVersion: this.revision, objects: this.objects.size, events: this.history.length - this.historyStart, capacity: this.capacity, watchers: this.watchers.size };
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  /** The cached object for a key with its stored bytes and revision. */
  stored(key: string): { object: KubeObject; value: string; modRevision: number } | undefined {
    const object = this.objects.get(key);
    const value = this.values.get(key);
    return object && value !== undefined ? { object, value, modRevision: Number(object.metadata.resourceVersion) } : undefined;
  }

  /** The cached object for a key if it is exactly this revision: lets store reads share it. */
  sharedAt(key: string, modRevision: number): KubeObject | undefined {
    const obj = this.objects.get(key);
    return obj && obj.metadata.resourceVersion === String(modRevision) ? obj : undefined;
  }

  /**
   * Objects under a key prefix, in key order. The list is shared until the cache changes: the
   * authorizers ask for the same RBAC objects on every request.
   */
  list(keyPrefix: string = this.prefix): readonly KubeObject[] {
    let listed = this.listed.get(keyPrefix);
    if (!listed) {
      const keys: string[] = [];
      for (const k of this.objects.keys()) if (k.startsWith(keyPrefix)) keys.push(k);
      keys.sort();
      listed = Object.freeze(keys.map((k) => this.objects.get(k)!));
      this.listed.set(keyPrefix, listed);
    }
    return listed;
  }

  /** Drops events at or below `revision` from the window (after etcd compaction). */
  compact(revision: number): void {
    let drop = 0;
    while (this.historyStart + drop < this.history.length && this.history[this.historyStart + drop]!.revision <= revision) drop++;
    if (drop === 0) return;
    this.historyStart += drop;
    this.removedSinceList = true;
    this.trimHistory();
  }

  watch(options: CacheWatchOptions): CacheWatcher | StatusError {
    const w: Watcher = { ...options, stopped: false };
    if (options.initialState) {
      for (const obj of this.list(options.keyPrefix)) if (options.matches(obj)) w.listener({ type: 'ADDED', object: obj });
      w.fromRevision = this.revision;
    } else {
      const oldest = this.oldestDeliverable();
      if (options.fromRevision < oldest - 1) {
        return resourceExpiredError(`too old resource version: ${options.fromRevision} (${oldest - 1})`);
      }
      for (let i = this.historyStart; i < this.history.length; i++) {
        const e = this.history[i]!;
        if (e.revision > options.fromRevision) this.deliver(w, e);
      }
    }
    if (options.initialEventsEnd) this.sendBookmark(w, { 'k8s.io/initial-events-end': 'true' });
    this.watchers.add(w);
    const trigger = this.triggerOf && options.trigger !== undefined ? options.trigger : undefined;
    let group = this.untriggered;
    if (trigger !== undefined) {
      group = this.byTrigger.get(trigger) ?? new Set<Watcher>();
      this.byTrigger.set(trigger, group);
    }
    group.add(w);
    return {
      stop: () => {
        w.stopped = true;
        this.watchers.delete(w);
        group.delete(w);
        if (trigger !== undefined && group.size === 0 && this.byTrigger.get(trigger) === group) this.byTrigger.delete(trigger);
      },
    };
  }

  /**
   * Sends every watcher that asked for bookmarks one with the store's current revision, once
   * etcd's progress notification has told the cache what that revision is.
   */
  bookmark(): void {
    if (![...this.watchers].some((w) => w.bookmarks)) return;
    this.bookmarkPending = true;
    this.storeWatch?.requestProgress();
  }

  private oldestDeliverable(): number {
    if (!this.removedSinceList) return this.listRevision + 1;
    const first = this.history[this.historyStart];
    return first ? first.revision : this.revision + 1;
  }

  private onStoreResponse(r: WatchResponse): void {
    if (r.canceled) {
      this.scheduleRestart();
      return;
    }
    for (const ev of r.events) this.apply(ev.type, ev.kv, ev.prevKv);
    if (r.events.length > 0) return;
    if (r.header.revision > this.revision) this.revision = r.header.revision;
    if (this.bookmarkPending) {
      this.bookmarkPending = false;
      for (const w of this.watchers) if (w.bookmarks) this.sendBookmark(w);
    }
  }

  private apply(type: 'PUT' | 'DELETE', kv: KeyValue, prevKv: KeyValue | undefined): void {
    const prev = this.objects.get(kv.key) ?? (prevKv ? decodeFromStorage(prevKv) : undefined);
    this.listed.clear();
    let event: CacheEvent;
    if (type === 'PUT') {
      const obj = this.written(kv.key, kv.modRevision, kv.value) ?? decodeFromStorage(kv);
      this.objects.set(kv.key, obj);
      this.values.set(kv.key, kv.value);
      event = prev
        ? { type: 'MODIFIED', key: kv.key, object: obj, prevObject: prev, revision: kv.modRevision }
        : { type: 'ADDED', key: kv.key, object: obj, revision: kv.modRevision };
    } else {
      this.objects.delete(kv.key);
      this.values.delete(kv.key);
      if (!prev) return;
      const last = deepFreeze({ ...prev, metadata: { ...prev.metadata, resourceVersion: String(kv.modRevision) } });
      event = { type: 'DELETED', key: kv.key, object: last, prevObject: prev, revision: kv.modRevision };
    }
    this.revision = Math.max(this.revision, kv.modRevision);
    this.history.push(event);
    if (this.history.length - this.historyStart > this.capacity) {
      this.historyStart++;
      this.removedSinceList = true;
    }
    this.trimHistory();
    this.observer?.(event);
    for (const w of this.untriggered) this.deliver(w, event);
    if (this.byTrigger.size > 0 && this.triggerOf) {
      const now = event.type === 'DELETED' ? undefined : this.triggerOf(event.object);
      const before = event.prevObject ? this.triggerOf(event.prevObject) : undefined;
      if (now !== undefined) for (const w of this.byTrigger.get(now) ?? []) this.deliver(w, event);
      if (before !== undefined && before !== now) for (const w of this.byTrigger.get(before) ?? []) this.deliver(w, event);
    }
  }

  // Reclaims the array space of dropped events once they make up half of it.
  private trimHistory(): void {
    if (this.historyStart > 1024 && this.historyStart * 2 > this.history.length) {
      this.history.splice(0, this.historyStart);
      this.historyStart = 0;
    }
  }

  /** The event as the watcher sees it: selector transitions become ADDED or DELETED. */
  private deliver(w: Watcher, e: CacheEvent): void {
    if (w.stopped || e.revision <= w.fromRevision || !e.key.startsWith(w.keyPrefix)) return;
    const cur = e.type !== 'DELETED' && w.matches(e.object);
    const prev = e.prevObject !== undefined && w.matches(e.prevObject);
    if (e.type === 'DELETED') {
      if (prev) w.listener({ type: 'DELETED', object: e.object });
    } else if (cur && prev) w.listener({ type: 'MODIFIED', object: e.object });
    else if (cur) w.listener({ type: 'ADDED', object: e.object });
    else if (prev) w.listener({ type: 'DELETED', object: e.object });
  }

  private sendBookmark(w: Watcher, annotations?: Record<string, string>): void {
    if (w.stopped) return;
    const metadata: KubeObject['metadata'] = { resourceVersion: String(this.revision) };
    if (annotations) metadata.annotations = annotations;
    w.listener({ type: 'BOOKMARK', object: deepFreeze({ ...w.bookmarkType, metadata }) });
  }
}
