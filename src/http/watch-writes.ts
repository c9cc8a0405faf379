/**
 * When the watch streams write the events they hold. A stream that receives an event holds it
 * and asks to be flushed; flushes happen on the event loop's next check phase (setImmediate), so
 * events delivered in one turn go out in one write per stream.
 *
 * While the clock runs timers (a Pacer's advance, a settle) the turns are short: the clock
 * yields to the event loop between virtual instants, and under the latency model each write
 * reaches the watch cache at its own instant (after its fsync and replication round trip). One
 * write per event per watcher then cost more than the events themselves (200 watchers at
 * 500 writes/s: 40 times the TLS records of the instant mode, which emits in the request's own
 * turn). So while the clock runs, held events wait for the run to end, at most MAX_HOLD_MS of
 * wall time (a long settle still streams). Only the wall time of the writes changes: the events,
 * their order and their virtual times are the engine's.
 */
import type { Clock } from '../engine/clock';

/** The longest a held event waits for the clock's run to end: the Pacer's tick (50 ms). */
export const MAX_HOLD_MS = 50;

export class WatchWrites {
  private readonly held = new Set<() => void>();
  private since = 0;
  private scheduled: ReturnType<typeof setImmediate> | undefined;

  constructor(
    private readonly clock: Pick<Clock, 'isRunning'>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls flush once the stream's held events should be written. */
  hold(flush: () => void): void {
    if (this.held.size === 0) this.since = this.now();
    this.held.add(flush);
    this.scheduled ??= setImmediate(this.check);
  }

  dispose(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.held.clear();
  }

  private readonly check = (): void => {
    this.scheduled = undefined;
    if (this.held.size === 0) return;
    if (this.clock.isRunning && this.now() - this.since < MAX_HOLD_MS) {
      this.scheduled = setImmediate(this.check);
      return;
    }
    const flushes = [...this.held];
    this.held.clear();
    for (const flush of flushes) flush();
  };
}
