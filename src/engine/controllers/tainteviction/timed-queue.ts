/**
 * TimedWorkerQueue: one scheduled deletion per pod, fired on the virtual clock when its
 * toleration runs out. A deletion that went through stays recorded (without a timer) so the pod
 * is not deleted twice; cancelling it then reports that nothing was pending.
 */
import type { Clock, Timer } from '../../clock';

interface Work {
  createdAt: number;
  fireAt: number;
  timer: Timer;
}

export class TimedWorkerQueue {
  private readonly works = new Map<string, Work | null>();

  constructor(
    private readonly clock: Clock,
    private readonly work: (key: string, fireAt: number) => Promise<boolean>,
  ) {}

  /** Schedules the key's work unless it already has some (or had it done). */
  add(key: string, createdAt: number, fireAt: number): void {
    if (this.works.has(key)) return;
    const timer = this.clock.setTimer(Math.max(0, fireAt - this.clock.now()), () => this.fire(key, fireAt), { label: `taint-eviction-controller: evict ${key}` });
    this.works.set(key, { createdAt, fireAt, timer });
  }

  /** True when pending work was cancelled. */
  cancel(key: string): boolean {
    if (!this.works.has(key)) return false;
    const work = this.works.get(key);
    this.works.delete(key);
    if (!work) return false;
    this.clock.clearTimer(work.timer);
    return true;
  }

  /** The pending work of the key; null when it was done, undefined when there is none. */
  get(key: string): Work | null | undefined {
    return this.works.get(key);
  }

  private async fire(key: string, fireAt: number): Promise<void> {
    const ok = await this.work(key, fireAt);
    if (!this.works.has(key)) return;
    if (ok) this.works.set(key, null);
    else this.works.delete(key);
  }
}
