/**
 * apimachinery's ExponentialBackoffManager as the Reflector configures it: 800 ms doubling to
 * 30 s, each wait jittered up to twice its length (so it levels off at [30 s, 60 s)), starting
 * over once two minutes pass without a backoff.
 */
import type { Clock } from '../../clock';
import type { Random } from '../../random';

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  resetAfterMs: number;
  factor: number;
  jitter: number;
}

export const REFLECTOR_BACKOFF: BackoffOptions = { initialMs: 800, maxMs: 30_000, resetAfterMs: 120_000, factor: 2, jitter: 1 };

export class ExponentialBackoff {
  private durationMs: number;
  private capped = false;
  private lastStart: number;

  constructor(
    private readonly options: BackoffOptions,
    private readonly clock: Clock,
    private readonly random: Random,
  ) {
    this.durationMs = options.initialMs;
    this.lastStart = clock.now();
  }

  /** The next wait (ms). */
  next(): number {
    const now = this.clock.now();
    if (now - this.lastStart > this.options.resetAfterMs) {
      this.durationMs = this.options.initialMs;
      this.capped = false;
    }
    this.lastStart = now;
    const current = this.durationMs;
    if (!this.capped) {
      const grown = current * this.options.factor;
      if (grown > this.options.maxMs) {
        this.durationMs = this.options.maxMs;
        this.capped = true;
      } else {
        this.durationMs = grown;
      }
    }
    return this.options.jitter > 0 ? current + this.random.next() * this.options.jitter * current : current;
  }
}
