/**
 * Step to next change: runs the clock's timers one at a time until one of them changes the
 * cluster (an etcd write, a reconcile that acted, a scheduling decision, a kubelet's step for a
 * pod) and stops there. Heartbeats (Lease renewals, Node status updates), Event writes, resyncs
 * and requeues that changed nothing are the clock's internal ticks, run through on the way.
 */
import type { Clock } from './clock';
import { isEvent, isHeartbeat, type Lookup } from './timeline/noise';
import type { TraceBuffer } from './trace/buffer';
import type { TraceRecord } from './trace/types';

export interface StepOptions {
  /** Virtual ms to look ahead for a change before giving up. Default: 10 minutes. */
  readonly maxMs?: number;
}

export interface StepResult {
  /** Timers run. */
  readonly timers: number;
  /** Virtual ms the clock moved. */
  readonly elapsed: number;
  /** The changes made by the timer the step stopped after, in the order they were recorded. */
  readonly changes: readonly TraceRecord[];
  /** Why it stopped: a change, nothing left to run, or no change within `maxMs`. */
  readonly stopped: 'change' | 'idle' | 'horizon';
}

const DEFAULT_MAX_MS = 10 * 60 * 1000;

/** Whether a record is a change of the cluster rather than one of its internal ticks. */
export function isChange(r: TraceRecord, lookup: Lookup): boolean {
  switch (r.type) {
    case 'store.revision':
      return !isHeartbeat(r, lookup) && !isEvent(r);
    case 'controller.reconcile':
      return (r.requests.length > 0 || r.outcome === 'error') && !isHeartbeat(r, lookup);
    case 'scheduler.attempt':
    case 'scheduler.binding':
    case 'kubelet.action':
      return true;
    default:
      return false;
  }
}

export async function stepToNextChange(clock: Clock, trace: TraceBuffer, options: StepOptions = {}): Promise<StepResult> {
  const start = clock.now();
  const horizon = start + (options.maxMs ?? DEFAULT_MAX_MS);
  const lookup: Lookup = (id) => trace.get(id);
  // Records as they are emitted: a reconcile's record comes out when it ends, under the id it
  // reserved when it began, so reading the buffer from an id onwards would miss it.
  const changes: TraceRecord[] = [];
  const unsubscribe = trace.subscribe((r) => {
    if (isChange(r, lookup)) changes.push(r);
  });
  let timers = 0;
  const done = (stopped: StepResult['stopped']): StepResult => ({ timers, elapsed: clock.now() - start, changes, stopped });
  try {
    for (;;) {
      const at = clock.nextTimerAt();
      if (at === undefined) return done('idle');
      if (at > horizon) return done('horizon');
      if (!(await clock.step())) return done('idle');
      timers++;
      if (changes.length > 0) return done('change');
    }
  } finally {
    unsubscribe();
  }
}
