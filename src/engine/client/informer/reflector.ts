/**
 * client-go's Reflector: lists a resource, then watches it from the list's resourceVersion,
 * feeding every change to its sink (the informer). When the watch ends with an error (410 once
 * the history it needs is compacted away, or a refused request) it lists again after the
 * Reflector's backoff, from the last resourceVersion it saw; when that is too old as well, from
 * the newest state (resourceVersion ""), in pages of 500 as client-go's pager asks for them.
 */
import { StatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import type { Clock, Timer } from '../../clock';
import type { Random } from '../../random';
import type { WatchEvent, WatchHandle } from '../../apiserver/request';
import type { ObjectList, ResourceClient } from '../client';
import { isExpired, isResourceExpired, isTooLargeResourceVersion, watchEventError } from '../errors';
import { ExponentialBackoff, REFLECTOR_BACKOFF } from '../flowcontrol/backoff';

/** What the reflector tells the informer. */
export interface ReflectorSink<T extends KubeObject> {
  replace(items: readonly T[], resourceVersion: string): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
}

export interface ReflectorOptions<T extends KubeObject> {
  /** Labels the reflector's clock tasks: "pods (kube-scheduler)". */
  name: string;
  resource: ResourceClient<T>;
  labelSelector?: string;
  fieldSelector?: string;
  clock: Clock;
  random: Random;
  sink: ReflectorSink<T>;
}

/** client-go's pager.PageSize default. */
const PAGE_SIZE = 500;

/** The Reflector's minWatchTimeout: each watch asks to end after 5 to 10 minutes. */
const MIN_WATCH_TIMEOUT_MS = 5 * 60 * 1000;

export class Reflector<T extends KubeObject> {
  private lastSyncResourceVersion = '';
  private lastSyncUnavailable = false;
  /** Incremented whenever a list-and-watch cycle ends: events of an older cycle are ignored. */
  private cycle = 0;
  private handle: WatchHandle | undefined;
  private timer: Timer | undefined;
  private stopped = true;
  private readonly backoff: ExponentialBackoff;
  private error: StatusError | undefined;

  constructor(private readonly options: ReflectorOptions<T>) {
    this.backoff = new ExponentialBackoff(REFLECTOR_BACKOFF, options.clock, options.random);
  }

  get resourceVersion(): string {
    return this.lastSyncResourceVersion;
  }

  /** The error that ended the last list or watch, until a list succeeds again. */
  get lastError(): StatusError | undefined {
    return this.error;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = this.options.clock.queueTask(() => this.listAndWatch(), { label: `reflector ${this.options.name}: list` });
  }

  stop(): void {
    this.stopped = true;
    this.endCycle();
  }

  private async listAndWatch(): Promise<void> {
    this.timer = undefined;
    if (this.stopped) return;
    const cycle = this.cycle;
    try {
      await this.list();
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if (cycle === this.cycle && !this.stopped) this.retry(err);
      return;
    }
    if (cycle === this.cycle && !this.stopped) await this.watch();
  }

  /**
   * Watches from the last resourceVersion seen. Like the watch requests of client-go, which ask
   * the server to end them after 5 to 10 minutes, it is ended and started again after that long.
   */
  private async watch(): Promise<void> {
    const cycle = this.cycle;
    let handle: WatchHandle;
    try {
      handle = await this.options.resource.watch(
        {
          resourceVersion: this.lastSyncResourceVersion,
          allowWatchBookmarks: true,
          labelSelector: this.options.labelSelector,
          fieldSelector: this.options.fieldSelector,
        },
        (event) => this.onEvent(cycle, event),
      );
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if (cycle === this.cycle && !this.stopped) this.retry(err);
      return;
    }
    if (cycle !== this.cycle || this.stopped) {
      handle.stop();
      return;
    }
    this.handle = handle;
    const timeout = MIN_WATCH_TIMEOUT_MS * (this.options.random.next() + 1);
    this.timer = this.options.clock.setTimer(
      timeout,
      () => {
        this.timer = undefined;
        this.endCycle();
        return this.watch();
      },
      { daemon: true, label: `reflector ${this.options.name}: watch timeout` },
    );
  }

  private relistResourceVersion(): string {
    if (this.lastSyncUnavailable) return '';
    return this.lastSyncResourceVersion === '' ? '0' : this.lastSyncResourceVersion;
  }

  private async list(): Promise<void> {
    let result: ObjectList<T>;
    try {
      result = await this.listPages(this.relistResourceVersion());
    } catch (err) {
      if (!isExpired(err) && !isTooLargeResourceVersion(err)) throw err;
      this.lastSyncUnavailable = true;
      result = await this.listPages(this.relistResourceVersion());
    }
    this.lastSyncUnavailable = false;
    this.error = undefined;
    const rv = result.metadata.resourceVersion ?? '';
    this.options.sink.replace(result.items, rv);
    this.lastSyncResourceVersion = rv;
  }

  /**
   * pager.List: pages of 500 unless listing from a known resourceVersion (served whole, from the
   * watch cache); a continue token that expired mid-way falls back to one unpaged list.
   */
  private async listPages(resourceVersion: string): Promise<ObjectList<T>> {
    const { resource, labelSelector, fieldSelector } = this.options;
    const limit = resourceVersion === '' || resourceVersion === '0' ? PAGE_SIZE : undefined;
    const first = await resource.list({ resourceVersion, limit, labelSelector, fieldSelector });
    const items = [...first.items];
    let page = first;
    while (page.metadata.continue) {
      try {
        page = await resource.list({ continue: page.metadata.continue, limit, labelSelector, fieldSelector });
      } catch (err) {
        if (!isResourceExpired(err)) throw err;
        return resource.list({ resourceVersion, labelSelector, fieldSelector });
      }
      items.push(...page.items);
    }
    return { ...page, items };
  }

  private onEvent(cycle: number, event: WatchEvent): void {
    if (cycle !== this.cycle || this.stopped) return;
    const obj = event.object as unknown as T;
    switch (event.type) {
      case 'ADDED':
        this.options.sink.add(obj);
        break;
      case 'MODIFIED':
        this.options.sink.update(obj);
        break;
      case 'DELETED':
        this.options.sink.delete(obj);
        break;
      case 'BOOKMARK':
        break;
      case 'ERROR':
        this.retry(watchEventError(event.object));
        return;
    }
    this.lastSyncResourceVersion = obj.metadata.resourceVersion ?? this.lastSyncResourceVersion;
  }

  /** Ends the cycle and lists again after the backoff (wait.BackoffUntil's sliding wait). */
  private retry(err: StatusError): void {
    this.error = err;
    this.endCycle();
    this.timer = this.options.clock.setTimer(this.backoff.next(), () => this.listAndWatch(), { label: `reflector ${this.options.name}: relist` });
  }

  private endCycle(): void {
    this.cycle++;
    this.handle?.stop();
    this.handle = undefined;
    this.options.clock.clearTimer(this.timer);
    this.timer = undefined;
  }
}
