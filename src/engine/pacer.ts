/**
 * Plays virtual time against the wall clock so a person can watch the cluster work: paused,
 * single steps, or running at a speed from x0.25 to x100. The wall clock is injected by the host
 * (the extension or the CLI) so the engine itself never reads it.
 */
import type { Clock } from './clock';

export interface WallClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Calls back after about `ms` real milliseconds; returns a cancel function. */
  after(ms: number, fn: () => void): () => void;
}

export const SPEEDS: readonly number[] = [0.25, 0.5, 1, 2, 5, 10, 25, 50, 100];
/** Real milliseconds between ticks while running: small enough for smooth animation. */
const TICK_MS = 50;

export type PacerState = 'paused' | 'running';

export class Pacer {
  private state: PacerState = 'paused';
  private speed = 1;
  private cancelTick: (() => void) | undefined;
  private lastWall = 0;
  private busy: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(state: PacerState, speed: number) => void>();

  constructor(
    private readonly clock: Clock,
    private readonly wall: WallClock,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  get current(): { state: PacerState; speed: number } {
    return { state: this.state, speed: this.speed };
  }

  onChange(listener: (state: PacerState, speed: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setSpeed(speed: number): void {
    if (!(speed >= SPEEDS[0]! && speed <= SPEEDS[SPEEDS.length - 1]!)) {
      throw new RangeError(`speed must be between x${SPEEDS[0]} and x${SPEEDS[SPEEDS.length - 1]}, got ${speed}`);
    }
    this.speed = speed;
    this.emit();
  }

  resume(): void {
    if (this.state === 'running') return;
    this.state = 'running';
    this.clock.paced = true;
    this.lastWall = this.wall.now();
    this.schedule();
    this.emit();
  }

  pause(): void {
    if (this.state === 'paused') return;
    this.state = 'paused';
    this.clock.paced = false;
    this.cancelTick?.();
    this.cancelTick = undefined;
    this.emit();
  }

  /** Runs the next pending timer (while paused): one discrete event of the cluster. */
  step(): Promise<boolean> {
    return this.stepWith(() => this.clock.step());
  }

  /**
   * Runs a stepping function (stepToNextChange) after the tick in progress, so that it never
   * overlaps the pacer's own advance of the clock.
   */
  stepWith<T>(run: () => Promise<T>): Promise<T> {
    const result = this.busy.then(run);
    this.busy = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Waits for the tick in progress, if any (for tests and orderly shutdown). */
  idle(): Promise<void> {
    return this.busy;
  }

  dispose(): void {
    this.pause();
    this.listeners.clear();
  }

  private schedule(): void {
    this.cancelTick = this.wall.after(TICK_MS, () => {
      this.cancelTick = undefined;
      if (this.state !== 'running') return;
      const now = this.wall.now();
      const virtual = (now - this.lastWall) * this.speed;
      this.lastWall = now;
      this.busy = this.busy
        .then(() => this.clock.advance(virtual))
        .then(
          () => undefined,
          (err: unknown) => {
            this.pause();
            this.onError(err);
          },
        )
        .then(() => {
          if (this.state === 'running') this.schedule();
        });
    });
  }

  private emit(): void {
    for (const l of this.listeners) l(this.state, this.speed);
  }
}
