/**
 * The log's tail that is not durable yet (etcd-io/raft's unstable): entries and an incoming
 * snapshot that the node has accepted but its storage has not persisted. Entries handed out in a
 * Ready are "in progress" until the write that holds them completes (stableTo).
 */
import type { Entry, Snapshot } from './types';

export class Unstable {
  snapshot: Snapshot | undefined;
  entries: Entry[] = [];
  /** The index of entries[0]. */
  offset: number;
  snapshotInProgress = false;
  /** Entries below this index are being written already. */
  offsetInProgress: number;

  constructor(offset: number) {
    this.offset = offset;
    this.offsetInProgress = offset;
  }

  maybeFirstIndex(): number | undefined {
    return this.snapshot ? this.snapshot.metadata.index + 1 : undefined;
  }

  maybeLastIndex(): number | undefined {
    if (this.entries.length > 0) return this.offset + this.entries.length - 1;
    return this.snapshot ? this.snapshot.metadata.index : undefined;
  }

  maybeTerm(i: number): number | undefined {
    if (i < this.offset) return this.snapshot && this.snapshot.metadata.index === i ? this.snapshot.metadata.term : undefined;
    const last = this.maybeLastIndex();
    if (last === undefined || i > last) return undefined;
    return this.entries[i - this.offset]!.term;
  }

  /** The entries not yet handed out for writing. */
  nextEntries(): Entry[] {
    const inProgress = this.offsetInProgress - this.offset;
    return inProgress >= this.entries.length ? [] : this.entries.slice(inProgress);
  }

  hasNextEntries(): boolean {
    return this.offsetInProgress - this.offset < this.entries.length;
  }

  nextSnapshot(): Snapshot | undefined {
    return this.snapshot && !this.snapshotInProgress ? this.snapshot : undefined;
  }

  acceptInProgress(): void {
    if (this.entries.length > 0) this.offsetInProgress = this.entries[this.entries.length - 1]!.index + 1;
    if (this.snapshot) this.snapshotInProgress = true;
  }

  /** The write of entries up to (index, term) completed; a later overwrite of that entry keeps it. */
  stableTo(index: number, term: number): void {
    const t = this.maybeTerm(index);
    if (t === undefined || index < this.offset || t !== term) return;
    const n = index + 1 - this.offset;
    this.entries = n >= this.entries.length ? [] : this.entries.slice(n);
    this.offset = index + 1;
    this.offsetInProgress = Math.max(this.offsetInProgress, this.offset);
  }

  stableSnapTo(i: number): void {
    if (this.snapshot && this.snapshot.metadata.index === i) {
      this.snapshot = undefined;
      this.snapshotInProgress = false;
    }
  }

  restore(s: Snapshot): void {
    this.offset = s.metadata.index + 1;
    this.offsetInProgress = this.offset;
    this.entries = [];
    this.snapshot = s;
    this.snapshotInProgress = false;
  }

  truncateAndAppend(ents: readonly Entry[]): void {
    const from = ents[0]!.index;
    if (from === this.offset + this.entries.length) {
      for (const e of ents) this.entries.push(e);
    } else if (from <= this.offset) {
      this.entries = [...ents];
      this.offset = from;
      this.offsetInProgress = from;
    } else {
      this.entries = this.slice(this.offset, from).concat(ents);
      this.offsetInProgress = Math.min(this.offsetInProgress, from);
    }
  }

  slice(lo: number, hi: number): Entry[] {
    const upper = this.offset + this.entries.length;
    if (lo > hi || lo < this.offset || hi > upper) throw new Error(`unstable.slice[${lo},${hi}) out of bound [${this.offset},${upper}]`);
    return this.entries.slice(lo - this.offset, hi - this.offset);
  }
}
