/**
 * Raft's stable storage (etcd-io/raft's MemoryStorage): what the node has persisted, i.e. the
 * hard state, the last snapshot and the log entries after it. etcd keeps this in memory next to
 * its WAL; entries reach it only after the WAL write (the fsync) that makes them durable, and
 * lose their prefix when the server takes a snapshot and compacts the log.
 *
 * ents[0] is a placeholder holding the snapshot's index and term, so that the term of the
 * entry just before the first one is always known.
 */
import { EMPTY_HARD_STATE, type Entry, type HardState, type NodeId, type Snapshot } from './types';

export class StorageError extends Error {}

/** The requested index is older than the first entry kept (raft.ErrCompacted). */
export const COMPACTED = 'requested index is unavailable due to compaction';
/** The requested snapshot is older than the one held (raft.ErrSnapOutOfDate). */
export const SNAP_OUT_OF_DATE = 'requested index is older than the existing snapshot';

export class MemoryStorage {
  hardState: HardState = EMPTY_HARD_STATE;
  private snap: Snapshot;
  private ents: Entry[];

  constructor(voters: readonly NodeId[] = []) {
    this.snap = { metadata: { index: 0, term: 0, voters: [...voters] } };
    this.ents = [{ term: 0, index: 0, type: 'EntryNormal', bytes: 0 }];
  }

  initialState(): { hardState: HardState; voters: readonly NodeId[] } {
    return { hardState: this.hardState, voters: this.snap.metadata.voters };
  }

  setHardState(hs: HardState): void {
    this.hardState = hs;
  }

  firstIndex(): number {
    return this.ents[0]!.index + 1;
  }

  lastIndex(): number {
    return this.ents[0]!.index + this.ents.length - 1;
  }

  /** The term of entry i; undefined when it is compacted away or not there yet. */
  term(i: number): number | undefined {
    const offset = this.ents[0]!.index;
    if (i < offset || i - offset >= this.ents.length) return undefined;
    return this.ents[i - offset]!.term;
  }

  /** Entries [lo, hi), at most maxSize bytes but always at least one; 'compacted' below the first index. */
  entries(lo: number, hi: number, maxSize: number): Entry[] | 'compacted' {
    const offset = this.ents[0]!.index;
    if (lo <= offset) return 'compacted';
    if (hi > this.lastIndex() + 1) throw new StorageError(`entries' hi(${hi}) is out of bound lastindex(${this.lastIndex()})`);
    if (lo >= hi) return [];
    // Find the end first: a follower far behind must not copy the whole log for one message.
    let end = lo - offset + 1;
    let size = this.ents[lo - offset]!.bytes;
    while (end < hi - offset) {
      size += this.ents[end]!.bytes;
      if (size > maxSize) break;
      end++;
    }
    return this.ents.slice(lo - offset, end);
  }

  snapshot(): Snapshot {
    return this.snap;
  }

  /** Replaces everything with the snapshot (a follower that was sent one). */
  applySnapshot(s: Snapshot): void {
    if (s.metadata.index <= this.snap.metadata.index) throw new StorageError(SNAP_OUT_OF_DATE);
    this.snap = s;
    this.ents = [{ term: s.metadata.term, index: s.metadata.index, type: 'EntryNormal', bytes: 0 }];
  }

  /** Records a snapshot of the state machine at applied index i (entries stay until `compact`). */
  createSnapshot(i: number, voters: readonly NodeId[], data?: unknown): Snapshot {
    if (i <= this.snap.metadata.index) throw new StorageError(SNAP_OUT_OF_DATE);
    if (i > this.lastIndex()) throw new StorageError(`snapshot ${i} is out of bound lastindex(${this.lastIndex()})`);
    const term = this.term(i)!;
    this.snap = { metadata: { index: i, term, voters: [...voters] }, data };
    return this.snap;
  }

  /** Discards the entries before index i (etcd keeps a tail after each snapshot for slow followers). */
  compact(i: number): void {
    const offset = this.ents[0]!.index;
    if (i <= offset) throw new StorageError(COMPACTED);
    if (i > this.lastIndex()) throw new StorageError(`compact ${i} is out of bound lastindex(${this.lastIndex()})`);
    const at = i - offset;
    const head = this.ents[at]!;
    this.ents = [{ term: head.term, index: head.index, type: 'EntryNormal', bytes: 0 }, ...this.ents.slice(at + 1)];
  }

  /** Appends persisted entries; a conflicting suffix (a deposed leader's entries) is replaced. */
  append(entries: readonly Entry[]): void {
    if (entries.length === 0) return;
    const first = this.firstIndex();
    const last = entries[0]!.index + entries.length - 1;
    if (last < first) return;
    // Entries already compacted into the snapshot are skipped.
    const from = first > entries[0]!.index ? entries.slice(first - entries[0]!.index) : entries;
    const offset = from[0]!.index - this.ents[0]!.index;
    if (offset > this.ents.length) throw new StorageError(`missing log entry [last: ${this.lastIndex()}, append at: ${from[0]!.index}]`);
    this.ents.length = offset;
    for (const e of from) this.ents.push(e);
  }
}

/** The longest prefix within maxSize bytes, and never less than one entry (raft's limitSize). */
export function limitSize<T extends { bytes: number }>(ents: T[], maxSize: number): T[] {
  if (ents.length <= 1) return ents;
  let size = ents[0]!.bytes;
  let n = 1;
  for (; n < ents.length; n++) {
    size += ents[n]!.bytes;
    if (size > maxSize) break;
  }
  return n < ents.length ? ents.slice(0, n) : ents;
}
