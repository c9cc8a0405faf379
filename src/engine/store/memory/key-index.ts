import type { KeyValue } from '../types';

/** A deletion record: key and revision only, exactly what a DELETE watch event carries. */
export function tombstone(key: string, revision: number): KeyValue {
  return { key, value: '', createRevision: 0, modRevision: revision, version: 0, lease: 0 };
}

export function isTombstone(kv: KeyValue): boolean {
  return kv.version === 0;
}

/**
 * One key's history (etcd's keyIndex): its records oldest first, where a tombstone closes a
 * generation and the next put opens a new one. Records are shared with the revision log and
 * handed to readers as they are, so they are never changed once written.
 */
export class KeyIndex {
  private revs: KeyValue[];

  constructor(first: KeyValue) {
    this.revs = [first];
  }

  get latest(): KeyValue {
    return this.revs[this.revs.length - 1]!;
  }

  /** More than one record: only then can a compaction drop something. */
  get hasHistory(): boolean {
    return this.revs.length > 1;
  }

  append(kv: KeyValue): void {
    this.revs.push(kv);
  }

  /** Every record held, oldest first (for snapshots). */
  records(): readonly KeyValue[] {
    return this.revs;
  }

  /** The key's value as of `rev`, or undefined if it did not exist then. */
  at(rev: number): KeyValue | undefined {
    const revs = this.revs;
    let kv = revs[revs.length - 1]!;
    if (kv.modRevision > rev) {
      // Last record written at or before rev; records of one revision keep their write order.
      let lo = 0;
      let hi = revs.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (revs[mid]!.modRevision <= rev) lo = mid + 1;
        else hi = mid;
      }
      if (lo === 0) return undefined;
      kv = revs[lo - 1]!;
    }
    return isTombstone(kv) ? undefined : kv;
  }

  /**
   * Drops what reads at or after `rev` can no longer see, as etcd 3.4.23 does: every generation
   * whose tombstone is at or below rev (so a deletion at exactly rev goes too), and in the first
   * surviving generation every record before the last one written at or below rev. Returns true
   * when nothing is left and the key should leave the index. `dropped` is told of every record
   * removed (the backend deletes it from its key bucket).
   */
  compact(rev: number, dropped?: (kv: KeyValue) => void): boolean {
    const revs = this.revs;
    const start = generationStart(revs, rev);
    if (start >= revs.length) {
      if (dropped) for (const kv of revs) dropped(kv);
      this.revs = [];
      return true;
    }
    let keep = start;
    for (let j = start + 1; j < revs.length && !isTombstone(revs[j]!) && revs[j]!.modRevision <= rev; j++) keep = j;
    if (keep > 0) {
      if (dropped) for (let j = 0; j < keep; j++) dropped(revs[j]!);
      this.revs = revs.slice(keep);
    }
    return false;
  }
}

/**
 * Where the first generation not deleted at or before `rev` begins in a key's records (oldest
 * first): just after the last tombstone at or before rev; records.length when that tombstone is
 * the last record.
 */
export function generationStart(records: readonly KeyValue[], rev: number): number {
  let start = 0;
  for (let i = 0; i < records.length; i++) {
    const kv = records[i]!;
    if (!isTombstone(kv)) continue;
    if (kv.modRevision > rev) break;
    start = i + 1;
  }
  return start;
}
