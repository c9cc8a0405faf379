/**
 * Virtual time for the whole engine. Nothing in src/engine reads the wall clock: components
 * schedule timers here, and the host (CLI, extension, tests) decides how virtual time moves:
 * `advance(ms)` for a fixed span, `settle()` until the cluster is quiescent, or a Pacer that
 * follows the wall clock at a chosen speed.
 *
 * Timers fire in (time, sequence) order, so equal inputs give equal runs. After each callback
 * the loop drains the microtask queue, because engine components talk through promises.
 */

import { rfc3339, rfc3339Micro } from './api/time';

export type TimerCallback = () => void | Promise<void>;

export interface TimerOptions {
  /** Background work (lease renewals, resyncs) that should not keep `settle()` from returning. */
  daemon?: boolean;
  /** Shown in traces and in `pending()`; helps explain why a cluster has not settled. */
  label?: string;
}

export interface Timer {
  readonly id: number;
  readonly at: number;
  readonly daemon: boolean;
  readonly label: string;
}

interface TimerEntry extends Timer {
  readonly seq: number;
  readonly fn: TimerCallback;
  cancelled: boolean;
  /** In the heap and neither run nor cancelled (what clearTimer may still cancel). */
  live: boolean;
}

const NO_OPTIONS: TimerOptions = Object.freeze({});

/** Host hooks: how to yield to the real event loop. Injected so the engine stays pure. */
export interface ClockHost {
  /** Resolves after the host's pending I/O callbacks and microtasks have run (setImmediate). */
  yieldToHost(): Promise<void>;
  /** Whether the current slice of work has run long enough that the host should get a turn. */
  shouldYield(): boolean;
}

export interface SettleOptions {
  /** Stop once virtual time would pass start + maxDuration (ms). Default: 1 hour. */
  maxDuration?: number;
  /** Stop after this many timer callbacks. Default: 10,000,000. */
  maxSteps?: number;
}

export interface SettleResult {
  settled: boolean;
  steps: number;
  /** Virtual ms that passed. */
  elapsed: number;
  /** Labels of the non-daemon timers still pending when settle gave up. */
  pending: string[];
}

const DEFAULT_SETTLE_DURATION = 60 * 60 * 1000;
const DEFAULT_MAX_STEPS = 10_000_000;

/** 2025-01-01T00:00:00Z: a fixed epoch so that timestamps are reproducible by default. */
export const DEFAULT_EPOCH_MS = 1735689600000;

export class Clock {
  private nowMs: number;
  private seq = 0;
  private nextId = 1;
  private heap: TimerEntry[] = [];
  /** Cancelled timers still in the heap (they leave it when they reach its top, or on compaction). */
  private cancelledInHeap = 0;
  private liveNonDaemon = 0;
  private inflight = 0;
  private working = 0;
  private running = false;
  private failure: Error | undefined;
  /** Work awaited by callers outside the simulation (see drive). */
  private readonly drivenWork = new Set<Promise<void>>();
  private driveLoop: Promise<void> | undefined;
  /**
   * Set while a Pacer plays the clock against the wall clock: callers outside the simulation
   * then wait for it to move time, instead of driving the clock themselves.
   */
  paced = false;

  constructor(
    startMs: number = DEFAULT_EPOCH_MS,
    private readonly host: ClockHost = defaultHost,
  ) {
    this.nowMs = startMs;
  }

  /**
   * Whether advance, step, settle or until is running timers right now. A host may hold output
   * until the run ends (the HTTP facade sends the watch events of one run together).
   */
  get isRunning(): boolean {
    return this.running;
  }

  /** Current virtual time in ms since the Unix epoch. */
  now(): number {
    return this.nowMs;
  }

  /** RFC 3339 with second precision, as Kubernetes metav1.Time serializes. */
  rfc3339(ms: number = this.nowMs): string {
    return rfc3339(ms);
  }

  /** RFC 3339 with microseconds, as metav1.MicroTime serializes (events, leases). */
  rfc3339Micro(ms: number = this.nowMs): string {
    return rfc3339Micro(ms);
  }

  setTimer(delayMs: number, fn: TimerCallback, options: TimerOptions = NO_OPTIONS): Timer {
    const at = this.nowMs + Math.max(0, delayMs);
    const entry: TimerEntry = {
      id: this.nextId++,
      at,
      seq: this.seq++,
      fn,
      daemon: options.daemon === true,
      label: options.label ?? 'timer',
      cancelled: false,
      live: true,
    };
    this.push(entry);
    if (!entry.daemon) this.liveNonDaemon++;
    return entry;
  }

  /** A zero-delay task: runs after everything already due at the current instant. */
  queueTask(fn: TimerCallback, options: TimerOptions = NO_OPTIONS): Timer {
    return this.setTimer(0, fn, options);
  }

  clearTimer(timer: Timer | number | undefined): void {
    if (timer === undefined) return;
    const entry = typeof timer === 'number' ? this.heap.find((t) => t.id === timer) : (timer as TimerEntry);
    // A timer that ran, or one already cancelled: nothing to do.
    if (!entry || !entry.live) return;
    entry.live = false;
    entry.cancelled = true;
    this.cancelledInHeap++;
    if (!entry.daemon) this.liveNonDaemon--;
  }

  /**
   * Marks asynchronous work that is not a timer (a request to a remote etcd) as in flight, so
   * that `settle()` waits for it instead of declaring quiescence. Returns the release function.
   */
  hold(): () => void {
    this.inflight++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.inflight--;
      }
    };
  }

  /**
   * Marks in-process work that runs across timers (a controller's sync whose requests take
   * virtual time) as in progress, so that `settle()` does not call the cluster quiescent
   * between its steps. Unlike `hold()`, timers keep running meanwhile: the work needs them.
   * Returns the release function.
   */
  work(): () => void {
    this.working++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.working--;
      }
    };
  }

  /** True when only daemon timers remain and no held work is in flight. */
  isQuiescent(): boolean {
    return this.liveNonDaemon === 0 && this.inflight === 0 && this.working === 0;
  }

  pending(): Timer[] {
    return this.heap.filter((t) => !t.cancelled).sort(compareEntries).map(({ id, at, daemon, label }) => ({ id, at, daemon, label }));
  }

  nextTimerAt(): number | undefined {
    this.dropCancelledTop();
    return this.heap[0]?.at;
  }

  /** Runs every timer due at or before now + ms, then leaves the clock at now + ms. */
  async advance(ms: number): Promise<number> {
    const until = this.nowMs + Math.max(0, ms);
    let steps = 0;
    await this.exclusive(async () => {
      for (;;) {
        const top = await this.nextDue();
        if (!top || top.at > until) break;
        await this.run(top);
        steps++;
      }
      this.nowMs = until;
    });
    return steps;
  }

  /** Runs the next due timer (whatever its time), for single-stepping. Returns false if none. */
  async step(): Promise<boolean> {
    let ran = false;
    await this.exclusive(async () => {
      const top = await this.nextDue();
      if (top) {
        await this.run(top);
        await this.nextDue();
        ran = true;
      }
    });
    return ran;
  }

  /**
   * Runs timers in order until only daemon timers remain (the cluster has nothing left to do),
   * passing through daemon timers that fall due on the way so time-dependent behaviour
   * (lease renewals, node monitoring) happens exactly as it would in real time.
   */
  async settle(options: SettleOptions = {}): Promise<SettleResult> {
    const start = this.nowMs;
    const deadline = start + (options.maxDuration ?? DEFAULT_SETTLE_DURATION);
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    let steps = 0;
    let settled = false;
    await this.exclusive(async () => {
      for (;;) {
        const top = await this.nextDue();
        if (this.isQuiescent()) {
          // A timer just run at this instant may still be on its way to its next timer (nextDue
          // hands out same-instant timers without yielding): let its chain go on first.
          await this.host.yieldToHost();
          if (!this.isQuiescent()) continue;
          settled = true;
          break;
        }
        if (!top) {
          // Only held I/O remains: give the host a turn until it completes.
          await this.host.yieldToHost();
          continue;
        }
        if (top.at > deadline || steps >= maxSteps) break;
        await this.run(top);
        steps++;
      }
    });
    return {
      settled,
      steps,
      elapsed: this.nowMs - start,
      pending: settled ? [] : this.pending().filter((t) => !t.daemon).map((t) => t.label),
    };
  }

  /**
   * Runs timers in order until `work` settles, then returns what it gave: for a caller that
   * awaits requests which take virtual time (a write through etcd's Raft) while nothing else
   * moves the clock. Work that needs no time returns without a timer run. Throws when nothing is
   * left to run and the work is still not done.
   */
  async until<T>(work: Promise<T>, options: SettleOptions = {}): Promise<T> {
    let done = false;
    const observed = work.finally(() => {
      done = true;
    });
    observed.catch(() => undefined);
    const deadline = this.nowMs + (options.maxDuration ?? DEFAULT_SETTLE_DURATION);
    await this.exclusive(async () => {
      for (;;) {
        await this.host.yieldToHost();
        if (done) return;
        const top = await this.nextDue();
        if (done) return;
        if (!top) {
          if (this.inflight > 0 || this.working > 0) continue;
          throw new Error('clock: the work waits for something, but no timer is left to run');
        }
        if (top.at > deadline) throw new Error(`clock: the work did not finish within ${(options.maxDuration ?? DEFAULT_SETTLE_DURATION) / 1000}s of virtual time`);
        await this.run(top);
      }
    });
    return observed;
  }

  /**
   * Awaits work of a caller outside the simulation (the CLI, a test, the editor while nothing
   * plays the clock) that takes virtual time, such as a request whose etcd write must be
   * replicated: unless something already moves the clock (settle, advance, a running Pacer),
   * timers run until every such work is done. Work started while the clock runs for someone
   * else is simply awaited.
   */
  drive<T>(work: Promise<T>): Promise<T> {
    if (this.paced || (this.running && !this.driveLoop)) return work;
    const entry = work.then(
      () => undefined,
      () => undefined,
    );
    this.drivenWork.add(entry);
    void entry.then(() => this.drivenWork.delete(entry));
    this.driveLoop ??= this.runDriven();
    const loop = this.driveLoop;
    // A timer that failed while driving fails the work too.
    return Promise.race([work, loop.then(() => work)]);
  }

  private async runDriven(): Promise<void> {
    try {
      while (this.drivenWork.size > 0) await this.until(Promise.all([...this.drivenWork]));
    } finally {
      this.driveLoop = undefined;
    }
  }

  private async exclusive(body: () => Promise<void>): Promise<void> {
    // Work driven for a caller outside the simulation finishes first.
    while (this.running && this.driveLoop) await this.driveLoop.catch(() => undefined);
    if (this.running) throw new Error('clock: advance/step/settle called while the clock is already running');
    this.running = true;
    try {
      await body();
    } finally {
      this.running = false;
    }
  }

  /**
   * The next timer to run. Timers due at the current instant run back to back (their promise
   * chains interleave, as concurrent work does); before virtual time moves on, every chain
   * started so far is allowed to finish, so that work never observes a later time than the
   * instant that caused it.
   */
  private async nextDue(): Promise<TimerEntry | undefined> {
    this.dropCancelledTop();
    let top = this.heap[0];
    if (top && top.at <= this.nowMs && !this.host.shouldYield()) return top;
    do {
      await this.host.yieldToHost();
    } while (this.inflight > 0);
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
    this.dropCancelledTop();
    top = this.heap[0];
    return top;
  }

  private async run(entry: TimerEntry): Promise<void> {
    this.remove(entry);
    entry.live = false;
    if (!entry.daemon) this.liveNonDaemon--;
    if (entry.at > this.nowMs) this.nowMs = entry.at;
    try {
      const result = entry.fn();
      if (result) result.catch((err: unknown) => this.fail(entry, err));
    } catch (err) {
      this.fail(entry, err);
    }
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }

  /** A timer callback that throws is a bug in a component: surface it to whoever drives time. */
  private fail(entry: TimerEntry, err: unknown): void {
    if (this.failure) return;
    const detail = err instanceof Error ? err.stack ?? err.message : String(err);
    this.failure = new Error(`clock: timer "${entry.label}" failed: ${detail}`);
  }

  /**
   * Removes the cancelled timers at the top of the heap, or all of them once they are half of it:
   * a request's timeout (etcd's 7 s) is set for every proposal and almost always cancelled
   * within milliseconds, so without compaction the heap would mostly hold dead timers.
   * Compaction keeps the order: timers are ordered by (time, sequence), which never tie.
   */
  private dropCancelledTop(): void {
    const h = this.heap;
    if (this.cancelledInHeap > 32 && this.cancelledInHeap * 2 > h.length) {
      this.heap = h.filter((t) => !t.cancelled);
      this.cancelledInHeap = 0;
      for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
      return;
    }
    while (h.length > 0 && h[0]!.cancelled) {
      this.pop();
      this.cancelledInHeap--;
    }
  }

  private push(entry: TimerEntry): void {
    this.heap.push(entry);
    this.siftUp(this.heap.length - 1);
  }

  /** Moves the entry at `start` up by moving parents down into the hole, then places it once. */
  private siftUp(start: number): void {
    const h = this.heap;
    const entry = h[start]!;
    let i = start;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p]!;
      if (compareEntries(entry, parent) >= 0) break;
      h[i] = parent;
      i = p;
    }
    h[i] = entry;
  }

  /**
   * Takes a picked timer out of the heap. It is the top unless work that ran between the pick and
   * the run changed the heap (set an earlier timer, or cancelled this one and compacted); then the
   * last entry fills its place and moves up or down from there, as a heap's delete does (which
   * timer runs next depends only on the (time, sequence) order, never on the heap's layout).
   */
  private remove(entry: TimerEntry): void {
    const h = this.heap;
    if (h[0] === entry) this.pop();
    else {
      const i = h.indexOf(entry);
      if (i < 0) return;
      const last = h.pop()!;
      if (i < h.length) {
        h[i] = last;
        if (i > 0 && compareEntries(last, h[(i - 1) >> 1]!) < 0) this.siftUp(i);
        else this.siftDown(i);
      }
    }
    if (entry.cancelled) this.cancelledInHeap--;
  }

  private pop(): TimerEntry | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(start: number): void {
    const h = this.heap;
    const n = h.length;
    if (start >= n) return;
    const entry = h[start]!;
    let i = start;
    // Move the smaller child up into the hole until the entry fits, then place it once.
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      let child = h[l]!;
      if (r < n) {
        const right = h[r]!;
        if (compareEntries(right, child) < 0) {
          c = r;
          child = right;
        }
      }
      if (compareEntries(child, entry) >= 0) break;
      h[i] = child;
      i = c;
    }
    h[i] = entry;
  }
}

function compareEntries(a: TimerEntry, b: TimerEntry): number {
  return a.at - b.at || a.seq - b.seq;
}

/** Drains microtasks only; never consults the wall clock. Hosts with I/O pass their own. */
const defaultHost: ClockHost = {
  yieldToHost: () => new Promise<void>((resolve) => setImmediate(resolve)),
  shouldYield: () => false,
};
