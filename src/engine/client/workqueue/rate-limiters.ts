/**
 * client-go's workqueue rate limiters: how long an item waits before it is retried. A
 * controller's requeue-on-error goes through DefaultControllerRateLimiter: per-item exponential
 * backoff (5 ms doubling to 1000 s) combined with an overall 10 qps, burst 100 token bucket.
 */
import type { Clock } from '../../clock';
import { TokenBucket } from '../flowcontrol/token-bucket';

export interface RateLimiter<T> {
  /** How long (ms) to wait before the item's next attempt; counts a failure. */
  when(item: T): number;
  /** Stops tracking the item (it succeeded): its backoff starts over. */
  forget(item: T): void;
  numRequeues(item: T): number;
}

export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    readonly baseDelayMs: number,
    readonly maxDelayMs: number,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * Math.pow(2, exp);
    return backoff > this.maxDelayMs ? this.maxDelayMs : backoff;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** An overall rate limit for all items: each retry takes a token. */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  constructor(private readonly bucket: TokenBucket) {}

  when(_item: T): number {
    return this.bucket.reserve();
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest wait any of the limiters asks for. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: readonly RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let ret = 0;
    for (const l of this.limiters) ret = Math.max(ret, l.when(item));
    return ret;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    let ret = 0;
    for (const l of this.limiters) ret = Math.max(ret, l.numRequeues(item));
    return ret;
  }
}

export function defaultControllerRateLimiter<T>(clock: Clock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(5, 1000 * 1000), new BucketRateLimiter<T>(new TokenBucket(10, 100, clock)));
}
