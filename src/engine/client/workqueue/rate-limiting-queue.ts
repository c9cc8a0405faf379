/**
 * client-go's rate-limiting queue: a delaying queue whose addRateLimited waits as long as the
 * rate limiter says (per-item backoff); forget(item) after a success resets the item's backoff.
 */
import type { Clock } from '../../clock';
import { DelayingQueue } from './delaying-queue';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters';

export interface RateLimitingQueueOptions<T> {
  name: string;
  clock: Clock;
  /** Default: DefaultControllerRateLimiter. */
  rateLimiter?: RateLimiter<T>;
}

export class RateLimitingQueue<T extends NonNullable<unknown>> extends DelayingQueue<T> {
  readonly rateLimiter: RateLimiter<T>;

  constructor(options: RateLimitingQueueOptions<T>) {
    super(options);
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(options.clock);
  }

  /** Queues the item after the rate limiter's delay; returns that delay (ms). */
  addRateLimited(item: T): number {
    const delay = this.rateLimiter.when(item);
    this.addAfter(item, delay);
    return delay;
  }

  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}
