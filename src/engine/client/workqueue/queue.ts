/**
 * client-go's workqueue (util/workqueue.Typed): a FIFO of keys with deduplication. An item
 * added while it waits is queued once; an item added while a worker processes it is queued
 * again only when the worker calls done, so one key is never processed by two workers at once.
 *
 * Workers wait in `get()`; handing an item to a waiting worker is a task on the virtual clock,
 * so each reconcile starts in its own step of virtual time, in a deterministic order, and
 * `clock.settle()` sees queued work as pending.
 */
import type { Clock, Timer } from '../../clock';

export interface QueueOptions {
  /** The controller's name: "deployment", "replicaset"; labels the queue's clock tasks. */
  name: string;
  clock: Clock;
}

export class WorkQueue<T extends NonNullable<unknown>> {
  readonly name: string;
  readonly clock: Clock;
  private items: T[] = [];
  private head = 0;
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly waiters: ((item: T | undefined) => void)[] = [];
  private dispatchTask: Timer | undefined;
  private shuttingDown = false;

  constructor(options: QueueOptions) {
    this.name = options.name;
    this.clock = options.clock;
  }

  add(item: T): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.items.push(item);
    this.scheduleDispatch();
  }

  /** Items waiting to be processed (not counting those being processed). */
  len(): number {
    return this.items.length - this.head;
  }

  /**
   * The next item, which the caller must hand back with done(item); undefined once the queue
   * is shut down and empty.
   */
  get(): Promise<T | undefined> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.scheduleDispatch();
    });
  }

  /** The worker finished the item; if it was added meanwhile, it is queued again. */
  done(item: T): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) {
      this.items.push(item);
      this.scheduleDispatch();
    }
  }

  /** Stops accepting items; workers drain what is queued, then get undefined. */
  shutDown(): void {
    this.shuttingDown = true;
    this.scheduleDispatch();
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  isProcessing(item: T): boolean {
    return this.processing.has(item);
  }

  private scheduleDispatch(): void {
    if (this.dispatchTask || this.waiters.length === 0 || (this.len() === 0 && !this.shuttingDown)) return;
    this.dispatchTask = this.clock.queueTask(() => this.dispatch(), { label: `workqueue ${this.name}` });
  }

  private dispatch(): void {
    this.dispatchTask = undefined;
    while (this.waiters.length > 0 && this.len() > 0) {
      const item = this.pop();
      this.processing.add(item);
      this.dirty.delete(item);
      this.waiters.shift()!(item);
    }
    if (this.shuttingDown && this.len() === 0) {
      for (const resolve of this.waiters.splice(0)) resolve(undefined);
    }
  }

  private pop(): T {
    const item = this.items[this.head]!;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
