/**
 * The replicated log as one node sees it (etcd-io/raft's raftLog): the durable part in storage,
 * the unstable tail, and three marks: committed (known to be on a quorum), applying (handed to
 * the state machine) and applied (done). Committed never moves back; neither does applied.
 */
import { limitSize, type MemoryStorage } from './storage';
import { Unstable } from './log-unstable';
import type { Entry, Snapshot } from './types';

const NO_LIMIT = Number.MAX_SAFE_INTEGER;

export class RaftLog {
  readonly unstable: Unstable;
  committed: number;
  applying: number;
  applied: number;
  private applyingSize = 0;
  private applyingPaused = false;

  constructor(
    readonly storage: MemoryStorage,
    /** At most this many bytes of entries are being applied at once (MaxCommittedSizePerReady). */
    private readonly maxApplyingSize: number = NO_LIMIT,
  ) {
    const first = storage.firstIndex();
    this.unstable = new Unstable(storage.lastIndex() + 1);
    this.committed = first - 1;
    this.applying = first - 1;
    this.applied = first - 1;
  }

  toString(): string {
    return `committed=${this.committed}, applied=${this.applied}, applying=${this.applying}, unstable.offset=${this.unstable.offset}, unstable.offsetInProgress=${this.unstable.offsetInProgress}, len(unstable.Entries)=${this.unstable.entries.length}`;
  }

  /**
   * Appends what a leader sent after the entry (prevIndex, prevTerm) if this log has that entry;
   * entries that conflict, and everything after them, are replaced. Returns the last index of
   * the new entries, or undefined when the log does not match at prevIndex.
   */
  maybeAppend(prevIndex: number, prevTerm: number, committed: number, ents: readonly Entry[]): number | undefined {
    if (!this.matchTerm(prevIndex, prevTerm)) return undefined;
    const lastNew = prevIndex + ents.length;
    const ci = this.findConflict(ents);
    if (ci !== 0) {
      if (ci <= this.committed) throw new Error(`entry ${ci} conflict with committed entry [committed(${this.committed})]`);
      this.append(ents.slice(ci - (prevIndex + 1)));
    }
    this.commitTo(Math.min(committed, lastNew));
    return lastNew;
  }

  append(ents: readonly Entry[]): number {
    if (ents.length === 0) return this.lastIndex();
    const after = ents[0]!.index - 1;
    if (after < this.committed) throw new Error(`after(${after}) is out of range [committed(${this.committed})]`);
    this.unstable.truncateAndAppend(ents);
    return this.lastIndex();
  }

  /** The first entry whose term differs from this log's (or that it lacks); 0 if none. */
  findConflict(ents: readonly Entry[]): number {
    for (const e of ents) if (!this.matchTerm(e.index, e.term)) return e.index;
    return 0;
  }

  /**
   * The largest index <= `index` whose term is <= `term`, and that term: where the logs can
   * still agree, so a leader's probe skips a whole term of a diverging tail at once.
   */
  findConflictByTerm(index: number, term: number): [number, number] {
    for (; index > 0; index--) {
      const ours = this.term(index);
      if (ours === undefined) return [index, 0];
      if (ours <= term) return [index, ours];
    }
    return [0, 0];
  }

  nextUnstableEnts(): Entry[] {
    return this.unstable.nextEntries();
  }

  hasNextUnstableEnts(): boolean {
    return this.unstable.hasNextEntries();
  }

  hasNextOrInProgressUnstableEnts(): boolean {
    return this.unstable.entries.length > 0;
  }

  /** Committed entries not yet handed out to apply; with allowUnstable, entries not durable yet too. */
  nextCommittedEnts(allowUnstable: boolean): Entry[] {
    if (this.applyingPaused || this.hasNextOrInProgressSnapshot()) return [];
    const lo = this.applying + 1;
    const hi = this.maxAppliableIndex(allowUnstable) + 1;
    if (lo >= hi) return [];
    const ents = this.slice(lo, hi, this.maxApplyingSize - this.applyingSize);
    if (ents === 'compacted') throw new Error(`unexpected error when getting unapplied entries [${lo}, ${hi})`);
    return ents;
  }

  hasNextCommittedEnts(allowUnstable: boolean): boolean {
    if (this.applyingPaused || this.hasNextOrInProgressSnapshot()) return false;
    return this.applying + 1 < this.maxAppliableIndex(allowUnstable) + 1;
  }

  private maxAppliableIndex(allowUnstable: boolean): number {
    return allowUnstable ? this.committed : Math.min(this.committed, this.unstable.offset - 1);
  }

  nextUnstableSnapshot(): Snapshot | undefined {
    return this.unstable.nextSnapshot();
  }

  hasNextOrInProgressSnapshot(): boolean {
    return this.unstable.snapshot !== undefined;
  }

  snapshot(): Snapshot {
    return this.unstable.snapshot ?? this.storage.snapshot();
  }

  firstIndex(): number {
    return this.unstable.maybeFirstIndex() ?? this.storage.firstIndex();
  }

  lastIndex(): number {
    return this.unstable.maybeLastIndex() ?? this.storage.lastIndex();
  }

  commitTo(toCommit: number): void {
    if (this.committed >= toCommit) return;
    if (this.lastIndex() < toCommit) throw new Error(`tocommit(${toCommit}) is out of range [lastIndex(${this.lastIndex()})]. Was the raft log corrupted, truncated, or lost?`);
    this.committed = toCommit;
  }

  appliedTo(i: number, size: number): void {
    if (this.committed < i || i < this.applied) throw new Error(`applied(${i}) is out of range [prevApplied(${this.applied}), committed(${this.committed})]`);
    this.applied = i;
    this.applying = Math.max(this.applying, i);
    this.applyingSize = this.applyingSize > size ? this.applyingSize - size : 0;
    this.applyingPaused = this.applyingSize >= this.maxApplyingSize;
  }

  acceptApplying(i: number, size: number, allowUnstable: boolean): void {
    if (this.committed < i) throw new Error(`applying(${i}) is out of range [prevApplying(${this.applying}), committed(${this.committed})]`);
    this.applying = i;
    this.applyingSize += size;
    this.applyingPaused = this.applyingSize >= this.maxApplyingSize || i < this.maxAppliableIndex(allowUnstable);
  }

  stableTo(index: number, term: number): void {
    this.unstable.stableTo(index, term);
  }

  stableSnapTo(i: number): void {
    this.unstable.stableSnapTo(i);
  }

  acceptUnstable(): void {
    this.unstable.acceptInProgress();
  }

  lastTerm(): number {
    const t = this.term(this.lastIndex());
    if (t === undefined) throw new Error(`unexpected error when getting the last term at ${this.lastIndex()}`);
    return t;
  }

  /** The term of entry i; undefined if compacted or beyond the last entry. */
  term(i: number): number | undefined {
    const t = this.unstable.maybeTerm(i);
    if (t !== undefined) return t;
    if (i + 1 < this.firstIndex() || i > this.lastIndex()) return undefined;
    return this.storage.term(i);
  }

  zeroTermOnOutOfBounds(i: number): number {
    return this.term(i) ?? 0;
  }

  /** Entries from i on, within maxSize bytes; 'compacted' when i is no longer in the log. */
  entries(i: number, maxSize: number): Entry[] | 'compacted' {
    if (i > this.lastIndex()) return [];
    return this.slice(i, this.lastIndex() + 1, maxSize);
  }

  allEntries(): Entry[] {
    const ents = this.entries(this.firstIndex(), NO_LIMIT);
    if (ents === 'compacted') throw new Error('log compacted while reading all entries');
    return ents;
  }

  /** Whether a candidate whose last entry is (index, term) is at least as up to date as this log (§5.4.1). */
  isUpToDate(index: number, term: number): boolean {
    const ourTerm = this.lastTerm();
    return term > ourTerm || (term === ourTerm && index >= this.lastIndex());
  }

  matchTerm(index: number, term: number): boolean {
    const t = this.term(index);
    return t !== undefined && t === term;
  }

  /** Commits up to (index, term) if that entry is in this log: a leader only counts its own term (§5.4.2). */
  maybeCommit(index: number, term: number): boolean {
    if (term !== 0 && index > this.committed && this.matchTerm(index, term)) {
      this.commitTo(index);
      return true;
    }
    return false;
  }

  restore(s: Snapshot): void {
    this.committed = s.metadata.index;
    this.unstable.restore(s);
  }

  /** Entries [lo, hi) from storage and the unstable tail, within maxSize bytes (at least one). */
  slice(lo: number, hi: number, maxSize: number): Entry[] | 'compacted' {
    if (lo > hi) throw new Error(`invalid slice ${lo} > ${hi}`);
    const first = this.firstIndex();
    if (lo < first) return 'compacted';
    if (hi > this.lastIndex() + 1) throw new Error(`slice[${lo},${hi}) out of bound [${first},${this.lastIndex()}]`);
    if (lo === hi) return [];
    const offset = this.unstable.offset;
    if (lo >= offset) return limitSize(this.unstable.slice(lo, hi), maxSize);
    const cut = Math.min(hi, offset);
    const stored = this.storage.entries(lo, cut, maxSize);
    if (stored === 'compacted') return stored;
    if (hi <= offset || stored.length < cut - lo) return stored;
    let size = 0;
    for (const e of stored) size += e.bytes;
    if (size >= maxSize) return stored;
    const tail = limitSize(this.unstable.slice(offset, hi), maxSize - size);
    if (tail.length === 1 && size + tail[0]!.bytes > maxSize) return stored;
    return stored.concat(tail);
  }
}
