/**
 * client-go's SharedIndexInformer: one reflector keeps an indexed cache of a resource, and every
 * registered handler hears each change in order (add, update, delete; a delete the informer
 * missed while disconnected arrives as a DeletedFinalStateUnknown tombstone). Handlers may ask
 * for a periodic resync: an update(obj, obj) for every cached object, on the virtual clock.
 *
 * Cached objects are the API server's deep-frozen objects, shared by every handler and lister:
 * copy before changing. Handlers run synchronously as each watch event arrives; they should
 * only enqueue work.
 */
import type { KubeObject } from '../../api/types';
import type { Clock, Timer } from '../../clock';
import { Indexer } from './indexer';
import { NAMESPACE_INDEX, namespaceIndexFunc, type IndexFunc } from './indexers';
import { DeletedFinalStateUnknown, metaNamespaceKey } from './keys';
import { Reflector, type ReflectorOptions, type ReflectorSink } from './reflector';

export interface EventHandler<T extends KubeObject = KubeObject> {
  onAdd?(obj: T, isInInitialList: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

export interface HandlerRegistration {
  /** True once the handler has heard about every object of the informer's initial list. */
  hasSynced(): boolean;
  remove(): void;
}

/** What its reflector lists and watches (the informer is the reflector's sink), and: */
export interface SharedInformerOptions<T extends KubeObject> extends Omit<ReflectorOptions<T>, 'sink'> {
  /** The resync period of handlers that do not choose one; 0 (default): no resync. */
  defaultResyncPeriodMs?: number;
  indexers?: Record<string, IndexFunc<T>>;
}

/** client-go's minimumResyncPeriod. */
const MINIMUM_RESYNC_PERIOD_MS = 1000;

interface Listener<T extends KubeObject> {
  readonly handler: EventHandler<T>;
  resyncPeriod: number;
  nextResync: number;
  synced: boolean;
  removed: boolean;
  /** Notifications held back until a late handler has heard the cache's objects. */
  held?: (() => void)[];
}

export class SharedIndexInformer<T extends KubeObject = KubeObject> implements ReflectorSink<T> {
  readonly name: string;
  readonly indexer: Indexer<T>;
  private readonly clock: Clock;
  private readonly reflector: Reflector<T>;
  private readonly defaultResyncPeriod: number;
  private resyncCheckPeriod: number;
  private readonly listeners: Listener<T>[] = [];
  private synced = false;
  private syncWaiters: (() => void)[] = [];
  private started = false;
  private stopped = false;
  private resyncTimer: Timer | undefined;

  constructor(options: SharedInformerOptions<T>) {
    this.name = options.name;
    this.clock = options.clock;
    this.indexer = new Indexer<T>(options.indexers ?? { [NAMESPACE_INDEX]: namespaceIndexFunc as IndexFunc<T> });
    this.defaultResyncPeriod = options.defaultResyncPeriodMs ?? 0;
    this.resyncCheckPeriod = this.defaultResyncPeriod;
    this.reflector = new Reflector<T>({ ...options, sink: this });
  }

  /** Handlers hear every change; a handler added after the start first hears the cache's objects as adds. */
  addEventHandler(handler: EventHandler<T>, options: { resyncPeriodMs?: number } = {}): HandlerRegistration {
    if (this.stopped) throw new Error(`handler was not added to shared informer ${this.name} because it has stopped already`);
    let period = options.resyncPeriodMs ?? this.defaultResyncPeriod;
    if (period > 0) {
      period = Math.max(period, MINIMUM_RESYNC_PERIOD_MS);
      if (period < this.resyncCheckPeriod || this.resyncCheckPeriod === 0) {
        if (this.started && this.resyncCheckPeriod > 0) period = this.resyncCheckPeriod;
        else this.resyncCheckPeriod = period;
      }
    }
    const listener: Listener<T> = { handler, resyncPeriod: period, nextResync: this.clock.now() + period, synced: false, removed: false };
    this.listeners.push(listener);
    if (this.started) {
      const existing = this.indexer.list();
      listener.held = [];
      this.clock.queueTask(
        () => {
          const held = listener.held ?? [];
          listener.held = undefined;
          if (listener.removed) return;
          for (const obj of existing) this.call(() => handler.onAdd?.(obj, true));
          for (const notify of held) this.call(notify);
          listener.synced = this.synced;
        },
        { label: `informer ${this.name}: new handler` },
      );
      if (this.resyncCheckPeriod > 0 && !this.resyncTimer) this.scheduleResync();
    }
    return {
      hasSynced: () => listener.synced,
      remove: () => {
        listener.removed = true;
        const i = this.listeners.indexOf(listener);
        if (i >= 0) this.listeners.splice(i, 1);
      },
    };
  }

  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    this.indexer.addIndexers(indexers);
  }

  run(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.reflector.start();
    if (this.resyncCheckPeriod > 0) this.scheduleResync();
  }

  stop(): void {
    this.stopped = true;
    this.reflector.stop();
    this.clock.clearTimer(this.resyncTimer);
    this.resyncTimer = undefined;
  }

  get isStarted(): boolean {
    return this.started;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list has filled the cache. */
  whenSynced(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  lastSyncResourceVersion(): string {
    return this.reflector.resourceVersion;
  }

  /** Why the cache may be stale: the error that ended the last list or watch. */
  lastError(): Error | undefined {
    return this.reflector.lastError;
  }

  // The reflector's sink: processDeltas.

  replace(items: readonly T[], _resourceVersion: string): void {
    const initial = !this.synced;
    const keys = new Set(items.map(metaNamespaceKey));
    for (const key of this.indexer.keys()) {
      if (keys.has(key)) continue;
      const old = this.indexer.delete(key)!;
      const tombstone = new DeletedFinalStateUnknown(key, old);
      this.distribute((h) => h.onDelete?.(tombstone));
    }
    for (const obj of items) {
      const old = this.indexer.set(obj);
      if (!old) this.distribute((h) => h.onAdd?.(obj, initial));
      else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.distribute((h) => h.onUpdate?.(old, obj));
    }
    if (!initial) return;
    this.synced = true;
    for (const l of this.listeners) l.synced = true;
    for (const resolve of this.syncWaiters.splice(0)) resolve();
  }

  add(obj: T): void {
    this.update(obj);
  }

  update(obj: T): void {
    const old = this.indexer.set(obj);
    if (old) this.distribute((h) => h.onUpdate?.(old, obj));
    else this.distribute((h) => h.onAdd?.(obj, false));
  }

  delete(obj: T): void {
    this.indexer.delete(metaNamespaceKey(obj));
    this.distribute((h) => h.onDelete?.(obj));
  }

  private distribute(notify: (h: EventHandler<T>) => void): void {
    for (const l of this.listeners) {
      if (l.held) l.held.push(() => notify(l.handler));
      else this.call(() => notify(l.handler));
    }
  }

  /** A handler that throws is a bug: the clock reports it to whoever drives time. */
  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.clock.queueTask(() => {
        throw err;
      }, { label: `informer ${this.name}: handler failed` });
    }
  }

  private scheduleResync(): void {
    this.resyncTimer = this.clock.setTimer(
      this.resyncCheckPeriod,
      () => {
        this.resync();
        this.scheduleResync();
      },
      { daemon: true, label: `informer ${this.name}: resync` },
    );
  }

  /** The listeners whose resync period has passed hear update(obj, obj) for every cached object. */
  private resync(): void {
    const now = this.clock.now();
    const due = this.listeners.filter((l) => l.resyncPeriod > 0 && now >= l.nextResync);
    if (due.length === 0 || !this.synced) return;
    for (const l of due) l.nextResync = now + l.resyncPeriod;
    for (const obj of this.indexer.list()) {
      for (const l of due) this.call(() => l.handler.onUpdate?.(obj, obj));
    }
  }
}
