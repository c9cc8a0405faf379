/**
 * The bounded record stream (docs/architecture.md, invariants 2 and 6): a ring buffer that keeps the most
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
  /** Start from a saved trace (a restored cluster): its newest records, ids going on from `next`. */
  restore?: SavedTrace;
}

/** A trace buffer's content as saved with the cluster: its records, oldest first, and the id the next one gets. */
export interface SavedTrace {
  readonly next: number;
  readonly records: readonly TraceRecord[];
}

const DEFAULT_CAPACITY = 10_000;

export class TraceBuffer {
  readonly capacity: number;
  private readonly clock: Clock;
  private readonly ring: (TraceRecord | undefined)[];
  private nextId = 1;
  private readonly listeners = new Set<TraceListener>();
  /** When each reserved id was taken: a record reserved at its start carries that time. */
  private readonly reservedAt = new Map<number, number>();

  constructor(options: TraceBufferOptions) {
    this.clock = options.clock;
    this.capacity = Math.max(1, Math.floor(options.capacity ?? DEFAULT_CAPACITY));
    this.ring = new Array<TraceRecord | undefined>(this.capacity);
    if (options.restore) this.restore(options.restore);
  }

  private restore(saved: SavedTrace): void {
    this.nextId = Math.max(1, Math.floor(saved.next));
    const oldest = this.oldestId();
    for (const record of saved.records) {
      if (Number.isInteger(record.id) && record.id >= oldest && record.id < this.nextId) this.ring[(record.id - 1) % this.capacity] = Object.freeze(record);
    }
  }

  /**
   * Stamps the draft with an id and the virtual time, stores it and notifies subscribers.
   * `reserved` is an id from `reserve()`: the record a chain of requests names as its cause
   * before the record itself is complete (a reconcile lists the requests it sent). A reserved
   * record carries the time it was reserved, when its work began, so records stay in time order.
   */
  emit<R extends TraceRecord>(draft: TraceDraft<R>, reserved?: number): R {
    return this.emitOwned<R>({ ...draft }, reserved);
  }

  /**
   * `emit` for a draft the caller hands over and never touches again (a Raft message's record,
   * built fresh for each message): it is stamped and frozen in place instead of copied.
   */
  emitOwned<R extends TraceRecord>(draft: TraceDraft<R>, reserved?: number): R {
    const id = reserved ?? this.nextId++;
    let time = this.clock.now();
    if (reserved !== undefined) {
      time = this.reservedAt.get(reserved) ?? time;
      this.reservedAt.delete(reserved);
    }
    const stamped = draft as { id?: number; time?: number };
    stamped.id = id;
    stamped.time = time;
    const record = Object.freeze(draft) as unknown as R;
    if (id >= this.oldestId()) this.ring[(id - 1) % this.capacity] = record;
    // Listeners subscribed or unsubscribed by a listener take effect from the next record.
    if (this.listeners.size === 1) this.listeners.values().next().value!(record);
    else if (this.listeners.size > 1) for (const listener of [...this.listeners]) listener(record);
    return record;
  }

  /** Takes the next id now for a record emitted later with `emit(draft, id)`. */
  reserve(): number {
    const id = this.nextId++;
    this.ring[(id - 1) % this.capacity] = undefined;
    this.reservedAt.set(id, this.clock.now());
    return id;
  }

  /** The id the next record will get: pass it to `since` to read what happens from now on. */
  get next(): number {
    return this.nextId;
  }

  get(id: number): TraceRecord | undefined {
    if (id < this.oldestId() || id >= this.nextId) return undefined;
    return this.ring[(id - 1) % this.capacity];
  }

  /** The records still held, oldest first (a reserved id whose record is not emitted yet is skipped). */
  records(): TraceRecord[] {
    return this.since(this.oldestId());
  }

  /** The records with id >= `firstId` still held, in id order. */
  since(firstId: number): TraceRecord[] {
    const out: TraceRecord[] = [];
    for (let id = Math.max(firstId, this.oldestId()); id < this.nextId; id++) {
      const r = this.ring[(id - 1) % this.capacity];
      if (r) out.push(r);
    }
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
