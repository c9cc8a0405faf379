/**
 * Coalesces the engine's record stream into batches for the webview (docs/architecture.md, invariant 8):
 * a burst of records becomes at most `maxBatch` records per message, one message per interval,
 * so posting never holds the shared extension host for long. The queue is bounded: when the
 * webview cannot keep up, the oldest queued records are dropped and the next batch says how many.
 */
export interface BatcherOptions {
  /** Records per message at most. */
  readonly maxBatch: number;
  /** Milliseconds between messages (and from the first queued record to the first message). */
  readonly intervalMs: number;
  /** Records queued at most. */
  readonly capacity: number;
  /**
   * Whether the sink can take a batch now (default: always). While it cannot, records wait (and
   * the oldest are dropped past `capacity`): a consumer that falls behind is not flooded.
   */
  readonly ready?: () => boolean;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export type BatchSink<T> = (batch: T[], dropped: number) => void;

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class RecordBatcher<T> {
  private queue: T[] = [];
  private head = 0;
  private dropped = 0;
  private timer: unknown;

  constructor(
    private readonly sink: BatchSink<T>,
    private readonly options: BatcherOptions,
    private readonly timers: Timers = realTimers,
  ) {}

  get pending(): number {
    return this.queue.length - this.head;
  }

  push(item: T): void {
    this.queue.push(item);
    if (this.pending > this.options.capacity) {
      this.head++;
      this.dropped++;
    }
    this.schedule();
  }

  pushAll(items: readonly T[]): void {
    for (const item of items) this.push(item);
  }

  /** Forgets everything queued (the webview is gone or about to re-sync). */
  clear(): void {
    this.queue = [];
    this.head = 0;
    this.dropped = 0;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer === undefined) this.timer = this.timers.setTimeout(() => this.flush(), this.options.intervalMs);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.options.ready && !this.options.ready()) return this.schedule();
    const end = Math.min(this.queue.length, this.head + this.options.maxBatch);
    const batch = this.queue.slice(this.head, end);
    const dropped = this.dropped;
    this.head = end;
    this.dropped = 0;
    // Reclaim the consumed prefix once it dominates the array.
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.pending > 0) this.schedule();
    if (batch.length > 0 || dropped > 0) this.sink(batch, dropped);
  }
}
