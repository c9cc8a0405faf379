/**
 * Records waiting for the next animation frame. Messages from the host land here as they come;
 * each frame takes chunks while its time budget lasts, so a 100,000-record sync is spread over
 * a few frames instead of freezing one.
 */
export class FrameQueue<T> {
  private chunks: (readonly T[])[] = [];
  private offset = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(items: readonly T[]): void {
    if (items.length === 0) return;
    this.chunks.push(items);
    this.count += items.length;
  }

  /** Up to `max` items, oldest first. */
  take(max: number): T[] {
    const out: T[] = [];
    while (out.length < max && this.chunks.length > 0) {
      const chunk = this.chunks[0]!;
      const n = Math.min(max - out.length, chunk.length - this.offset);
      for (let i = 0; i < n; i++) out.push(chunk[this.offset + i]!);
      this.offset += n;
      if (this.offset === chunk.length) {
        this.chunks.shift();
        this.offset = 0;
      }
    }
    this.count -= out.length;
    return out;
  }

  clear(): void {
    this.chunks = [];
    this.offset = 0;
    this.count = 0;
  }
}

/**
 * Drains a queue in chunks while `budgetMs` lasts (at least one chunk per call, so progress is
 * guaranteed); returns how many items were applied.
 */
export function drain<T>(queue: FrameQueue<T>, apply: (chunk: T[]) => void, now: () => number, budgetMs: number, chunk: number): number {
  const start = now();
  let applied = 0;
  do {
    const items = queue.take(chunk);
    if (items.length === 0) break;
    apply(items);
    applied += items.length;
  } while (queue.size > 0 && now() - start < budgetMs);
  return applied;
}
