/**
 * client-go's delaying queue: addAfter puts an item on the queue once a delay has passed on the
 * virtual clock. An item already waiting keeps the earlier of its two ready times.
 */
import type { Timer } from '../../clock';
import { WorkQueue } from './queue';

interface Waiting {
  readyAt: number;
  timer: Timer;
}

export class DelayingQueue<T extends NonNullable<unknown>> extends WorkQueue<T> {
  private readonly waiting = new Map<T, Waiting>();

  addAfter(item: T, delayMs: number): void {
    if (this.isShuttingDown) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const readyAt = this.clock.now() + delayMs;
    const existing = this.waiting.get(item);
    if (existing && existing.readyAt <= readyAt) return;
    if (existing) this.clock.clearTimer(existing.timer);
    const timer = this.clock.setTimer(
      delayMs,
      () => {
        this.waiting.delete(item);
        this.add(item);
      },
      { label: `workqueue ${this.name}: ${String(item)} after ${delayMs} ms` },
    );
    this.waiting.set(item, { readyAt, timer });
  }

  /** Items waiting for their delay to pass. */
  waitingCount(): number {
    return this.waiting.size;
  }

  override shutDown(): void {
    for (const w of this.waiting.values()) this.clock.clearTimer(w.timer);
    this.waiting.clear();
    super.shutDown();
  }
}
