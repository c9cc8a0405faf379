/**
 * The webview's copy of the trace: at most `capacity` records (the host buffer's size), in id
 * order, the oldest falling off as new ones arrive. It also counts what was lost so the panel
 * can say so: records older than the first one held, and records the host skipped because the
 * webview fell behind.
 */
import type { PanelRecord } from '../../src/protocol/panel';
import { SortedWindow } from './sorted-window';

export class RecordStore {
  readonly records = new SortedWindow<PanelRecord>();
  private readonly byId = new Map<number, PanelRecord>();
  /** cause id -> the records naming it as their cause, in id order. */
  private readonly effects = new Map<number, SortedWindow<PanelRecord>>();
  private capacity = Number.MAX_SAFE_INTEGER;
  /** Ids below this one fell off before the records held now (at the host or here). */
  private floor = 1;
  /** Records the host skipped since the last reset. */
  skipped = 0;

  reset(capacity: number, firstId: number): void {
    this.records.clear();
    this.byId.clear();
    this.effects.clear();
    this.capacity = Math.max(1, capacity);
    this.floor = Math.max(1, firstId);
    this.skipped = 0;
  }

  /**
   * Adds a batch: returns the records taken (not already held, not older than what fell off)
   * and those that fell off to make room for them (oldest first).
   */
  add(batch: readonly PanelRecord[], skipped = 0): { added: PanelRecord[]; dropped: PanelRecord[] } {
    this.skipped += skipped;
    const added: PanelRecord[] = [];
    for (const r of batch) {
      if (r.id < this.floor || this.byId.has(r.id)) continue;
      added.push(r);
      this.records.insert(r);
      this.byId.set(r.id, r);
      if (r.cause === undefined) continue;
      let list = this.effects.get(r.cause);
      if (!list) this.effects.set(r.cause, (list = new SortedWindow()));
      list.insert(r);
    }
    const excess = this.records.length - this.capacity;
    if (excess <= 0) return { added, dropped: [] };
    const dropped = this.records.dropFirst(excess);
    for (const r of dropped) {
      this.byId.delete(r.id);
      this.effects.delete(r.id);
      // The oldest record is the first effect of its cause.
      const siblings = r.cause === undefined ? undefined : this.effects.get(r.cause);
      siblings?.dropBelow(r.id + 1);
      if (siblings && siblings.length === 0) this.effects.delete(r.cause!);
    }
    this.floor = dropped[dropped.length - 1]!.id + 1;
    return { added, dropped };
  }

  get(id: number): PanelRecord | undefined {
    return this.byId.get(id);
  }

  /** The records caused by `id`, in id order. */
  effectsOf(id: number): readonly PanelRecord[] {
    const list = this.effects.get(id);
    return list ? [...list] : [];
  }

  /** The cause index as buildFlow reads it. */
  get causes(): ReadonlyMap<number, Iterable<PanelRecord>> {
    return this.effects;
  }

  /** The most records held at once. */
  get capacityLimit(): number {
    return this.capacity;
  }

  get size(): number {
    return this.records.length;
  }

  /** The smallest id still held or still to come: every record below it fell off. */
  get firstId(): number {
    return this.floor;
  }

  /** How many records fell off before the oldest one held (ids are consecutive from 1). */
  get fellOff(): number {
    return this.floor - 1;
  }
}
