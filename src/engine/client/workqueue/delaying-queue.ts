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

export interface AddAfterOptions {
  /**
   * A check that should not keep the clock's settle() from returning (a progress deadline):
   * a daemon timer. An item also waiting for ordinary work keeps an ordinary timer.
   */
  background?: boolean;
}

export class DelayingQueue<T extends NonNullable<unknown>> extends WorkQueue<T> {
  private readonly waiting = new Map<T, Waiting>();

  addAfter(item: T, delayMs: number, options: AddAfterOptions = {}): void {
    if (this.isShuttingDown) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    let readyAt = this.clock.now() + delayMs;
    let daemon = options.background === true;
    const existing = this.waiting.get(item);
    if (existing) {
      if (existing.readyAt <= readyAt && (!existing.timer.daemon || daemon)) return;
      readyAt = Math.min(readyAt, existing.readyAt);
      daemon = daemon && existing.timer.daemon;
      this.clock.clearTimer(existing.timer);
    }
    const delay = readyAt - this.clock.now();
    const timer = this.clock.setTimer(
      delay,
      () => {
        this.waiting.delete(item);
        this.add(item);
      },
      { label: `workqueue ${this.name}: ${String(item)} after ${delay} ms`, daemon },
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
