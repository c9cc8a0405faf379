/**
 * golang.org/x/time/rate's Limiter on virtual time, the token bucket behind client-go's
 * BucketRateLimiter (workqueue) and TokenBucketPassiveRateLimiter (the event spam filter).
 * The bucket starts full; tokens refill continuously at `qps` up to `burst`.
 */
import type { Clock } from '../../clock';

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly clock: Clock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  private available(now: number): number {
    const elapsed = Math.max(0, now - Math.min(this.last, now));
    return Math.min(this.tokens + (elapsed / 1000) * this.qps, this.burst);
  }

  /** Limiter.Reserve().Delay(): takes a token now, possibly on credit; the ms until it is there. */
  reserve(): number {
    const now = this.clock.now();
    const tokens = this.available(now) - 1;
    this.tokens = tokens;
    this.last = now;
    return tokens < 0 ? (-tokens / this.qps) * 1000 : 0;
  }

  /** Limiter.Allow(): takes a token if one is there now. */
  tryAccept(): boolean {
    const now = this.clock.now();
    const tokens = this.available(now);
    if (tokens < 1) return false;
    this.tokens = tokens - 1;
    this.last = now;
    return true;
  }
}
