import type { KeyValue } from '../types';
import { isTombstone } from './key-index';

/**
 * The value backend (etcd's key bucket, keyed by revision): every revision's changes in the order
 * they were applied, for watchers that replay history. Revisions are dense (each one has at least
 * one change), so an array indexed by revision holds them; one change is stored bare.
 */
export class RevisionLog {
  private entries: Array<KeyValue | KeyValue[]> = [];
  /** The revision of entries[0]; revision 1 is the empty store. */
  private first = 2;

  /** The oldest revision held (what a compaction left). */
  get firstRevision(): number {
    return this.first;
  }

  /** Starts an empty log at `revision` instead of 2 (a store restored from a snapshot). */
  startAt(revision: number): void {
    if (this.entries.length > 0) throw new Error('revision log: startAt on a log that holds revisions');
    this.first = revision;
  }

  append(revision: number, changes: KeyValue[]): void {
    if (revision !== this.first + this.entries.length) {
      throw new Error(`revision log: expected revision ${this.first + this.entries.length}, got ${revision}`);
    }
    this.entries.push(changes.length === 1 ? changes[0]! : changes);
  }

  /** Visits the changes of revisions from..to in order, until `visit` returns false. */
  scan(from: number, to: number, visit: (kv: KeyValue) => boolean | void): void {
    const last = Math.min(to, this.first + this.entries.length - 1);
    for (let rev = Math.max(from, this.first); rev <= last; rev++) {
      const entry = this.entries[rev - this.first]!;
      if (!Array.isArray(entry)) {
        if (visit(entry) === false) return;
        continue;
      }
      for (const kv of entry) if (visit(kv) === false) return;
    }
  }

  /**
   * Drops revisions below `rev`. etcd 3.4.23 also drops the tombstones written at exactly `rev`
   * (its key index compaction discards a generation that ends there), so a watcher replaying from
   * the compaction revision sees that revision's puts but not its deletions.
   */
  compact(rev: number): void {
    const drop = Math.min(Math.max(0, rev - this.first), this.entries.length);
    this.entries = this.entries.slice(drop);
    this.first += drop;
    const at = this.entries[rev - this.first];
    if (at === undefined || rev !== this.first) return;
    if (!Array.isArray(at)) {
      if (isTombstone(at)) this.entries[0] = [];
      return;
    }
    this.entries[0] = at.filter((kv) => !isTombstone(kv));
  }
}
