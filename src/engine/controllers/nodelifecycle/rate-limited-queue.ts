/**
 * RateLimitedTimedQueue (pkg/controller/nodelifecycle/scheduler): the nodes of one zone waiting
 * for their NoExecute taint, taken in order of when they are due, each attempt paying a token
 * from the zone's limiter (burst 1). A node stays known after it was tainted, so it is not queued
 * again until it is removed (when it is Ready again).
 */
import type { Clock } from '../../clock';
import { TokenBucket } from '../../client/flowcontrol/token-bucket';

interface TimedValue {
  value: string;
  uid: string;
  processAt: number;
  seq: number;
}

/** The result of one attempt: done, or retry after a delay (ms). */
export type TryResult = { done: true } | { done: false; retryAfterMs: number };

const BURST = 1;

export class RateLimitedTimedQueue {
  private queue: TimedValue[] = [];
  private readonly known = new Set<string>();
  private limiter: TokenBucket | undefined;
  private seq = 0;

  constructor(
    private readonly clock: Clock,
    qps: number,
  ) {
    this.limiter = qps > 0 ? new TokenBucket(qps, BURST, clock) : undefined;
  }

  get qps(): number {
    return this.limiter?.qps ?? 0;
  }

  get length(): number {
    return this.queue.length;
  }

  /** Queues the value unless it is already known; true when added. */
  add(value: string, uid: string): boolean {
    if (this.known.has(value)) return false;
    this.known.add(value);
    this.queue.push({ value, uid, processAt: this.clock.now(), seq: this.seq++ });
    return true;
  }

  /** Forgets the value entirely; true when it was known. */
  remove(value: string): boolean {
    this.queue = this.queue.filter((v) => v.value !== value);
    return this.known.delete(value);
  }

  /** Works through the due values while the limiter allows (a token per attempt, as upstream). */
  async try(fn: (value: string, uid: string) => Promise<TryResult>): Promise<void> {
    for (;;) {
      const head = this.head();
      if (!head || !this.limiter || !this.limiter.tryAccept()) return;
      const now = this.clock.now();
      if (now < head.processAt) return;
      const result = await fn(head.value, head.uid);
      this.queue = this.queue.filter((v) => v !== head);
      if (!result.done) this.queue.push({ ...head, processAt: now + result.retryAfterMs + 1, seq: this.seq++ });
    }
  }

  /** A new rate; when the old limiter has no token left the new one starts drained too. */
  swapLimiter(qps: number): void {
    if (this.qps === qps) return;
    if (qps <= 0) {
      this.limiter = undefined;
      return;
    }
    const next = new TokenBucket(qps, BURST, this.clock);
    if (!this.limiter || !this.limiter.tryAccept()) next.tryAccept();
    this.limiter = next;
  }

  private head(): TimedValue | undefined {
    let best: TimedValue | undefined;
    for (const v of this.queue) if (!best || v.processAt < best.processAt || (v.processAt === best.processAt && v.seq < best.seq)) best = v;
    return best;
  }
}
