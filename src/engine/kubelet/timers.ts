/**
 * The timers of one kubelet, on the engine clock. Grouping them lets a stopped node freeze:
 * `pause()` takes every pending timer off the clock and remembers how much of its delay was
 * left; `resume()` puts them back, so a container that was 10 s from crashing when its node
 * stopped crashes 10 s after the node comes back.
 */
import type { Clock, Timer } from '../clock';

export interface TimerSpec {
  /** Background work (renewals, steady probes) that must not keep the cluster from settling. */
  daemon?: boolean;
  label: string;
}

export interface KubeletTimer {
  readonly label: string;
  /** Virtual time it fires at (while paused: the time it would have fired at). */
  readonly at: number;
}

interface Entry extends KubeletTimer {
  at: number;
  readonly fn: () => void | Promise<void>;
  readonly spec: TimerSpec;
  clockTimer: Timer | undefined;
  remaining: number;
}

export class TimerGroup {
  private readonly entries = new Set<Entry>();
  private paused = false;

  constructor(
    private readonly clock: Clock,
    private readonly prefix: string,
  ) {}

  set(delayMs: number, fn: () => void | Promise<void>, spec: TimerSpec): KubeletTimer {
    const delay = Math.max(0, delayMs);
    const entry: Entry = { label: spec.label, at: this.clock.now() + delay, fn, spec, clockTimer: undefined, remaining: delay };
    this.entries.add(entry);
    if (!this.paused) this.schedule(entry);
    return entry;
  }

  clear(timer: KubeletTimer | undefined): void {
    if (!timer) return;
    const entry = timer as Entry;
    if (!this.entries.delete(entry)) return;
    this.clock.clearTimer(entry.clockTimer);
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    const now = this.clock.now();
    for (const entry of this.entries) {
      this.clock.clearTimer(entry.clockTimer);
      entry.clockTimer = undefined;
      entry.remaining = Math.max(0, entry.at - now);
    }
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    const now = this.clock.now();
    for (const entry of [...this.entries].sort((a, b) => a.at - b.at)) {
      entry.at = now + entry.remaining;
      this.schedule(entry);
    }
  }

  private schedule(entry: Entry): void {
    entry.clockTimer = this.clock.setTimer(
      entry.at - this.clock.now(),
      () => {
        this.entries.delete(entry);
        return entry.fn();
      },
      { daemon: entry.spec.daemon === true, label: `${this.prefix}: ${entry.spec.label}` },
    );
  }
}
