/**
 * The bounded record stream (DESIGN.md invariants 2 and 6): a ring buffer that keeps the most
 * recent `capacity` records and fans each new record out to subscribers as it is emitted.
 * Older records fall off; their ids are never reused, so a cause id that points at a dropped
 * record is simply not found.
 */
import type { Clock } from '../clock';
import type { TraceDraft, TraceRecord } from './types';

export type TraceListener = (record: TraceRecord) => void;

export interface TraceBufferOptions {
  clock: Clock;
  /** How many records to keep. Default 10,000. */
  capacity?: number;
}

const DEFAULT_CAPACITY = 10_000;

export class TraceBuffer {
  readonly capacity: number;
  private readonly clock: Clock;
  private readonly ring: (TraceRecord | undefined)[];
  private nextId = 1;
  private readonly listeners = new Set<TraceListener>();

  constructor(options: TraceBufferOptions) {
    this.clock = options.clock;
    this.capacity = Math.max(1, Math.floor(options.capacity ?? DEFAULT_CAPACITY));
    this.ring = new Array<TraceRecord | undefined>(this.capacity);
  }

  /** Stamps the draft with an id and the current virtual time, stores it and notifies subscribers. */
  emit<R extends TraceRecord>(draft: TraceDraft<R>): R {
    const record = Object.freeze({ ...draft, id: this.nextId++, time: this.clock.now() }) as unknown as R;
    this.ring[(record.id - 1) % this.capacity] = record;
    for (const listener of [...this.listeners]) listener(record);
    return record;
  }

  get(id: number): TraceRecord | undefined {
    if (id < this.oldestId() || id >= this.nextId) return undefined;
    return this.ring[(id - 1) % this.capacity];
  }

  /** The records still held, oldest first. */
  records(): TraceRecord[] {
    const out: TraceRecord[] = [];
    for (let id = this.oldestId(); id < this.nextId; id++) out.push(this.ring[(id - 1) % this.capacity]!);
    return out;
  }

  get size(): number {
    return this.nextId - this.oldestId();
  }

  subscribe(listener: TraceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private oldestId(): number {
    return Math.max(1, this.nextId - this.capacity);
  }
}
