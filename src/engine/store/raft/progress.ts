/**
 * What a leader knows about each follower's log (etcd-io/raft's tracker.Progress): Match, the
 * highest index known to be replicated there, and Next, the next index to send. A follower is
 * probed (one append at a time until the logs are found to match), then replicated to
 * optimistically (appends pipelined up to MaxInflightMsgs), or sent a snapshot when the entries
 * it needs are compacted away.
 */

export type ProgressState = 'StateProbe' | 'StateReplicate' | 'StateSnapshot';

/** A bounded window of append messages in flight to one follower, by last index and size. */
export class Inflights {
  private readonly buffer: Array<{ index: number; bytes: number }> = [];
  private start = 0;
  count = 0;
  bytes = 0;

  constructor(
    readonly size: number,
    readonly maxBytes: number = 0,
  ) {}

  add(index: number, bytes: number): void {
    if (this.full()) throw new Error('cannot add into a Full inflights');
    let next = this.start + this.count;
    if (next >= this.size) next -= this.size;
    if (next >= this.buffer.length) this.buffer.push({ index, bytes });
    else this.buffer[next] = { index, bytes };
    this.count++;
    this.bytes += bytes;
  }

  /** Frees the messages whose last index is <= `to` (acknowledged). */
  freeLE(to: number): void {
    if (this.count === 0 || to < this.buffer[this.start]!.index) return;
    let idx = this.start;
    let i = 0;
    let bytes = 0;
    for (; i < this.count; i++) {
      const e = this.buffer[idx]!;
      if (to < e.index) break;
      bytes += e.bytes;
      if (++idx >= this.size) idx -= this.size;
    }
    this.count -= i;
    this.bytes -= bytes;
    this.start = this.count === 0 ? 0 : idx;
  }

  full(): boolean {
    return this.count === this.size || (this.maxBytes !== 0 && this.bytes >= this.maxBytes);
  }

  reset(): void {
    this.start = 0;
    this.count = 0;
    this.bytes = 0;
  }
}

export class Progress {
  match: number;
  next: number;
  /** The highest commit index sent to this follower (so an idle follower learns commits). */
  sentCommit = 0;
  state: ProgressState = 'StateProbe';
  /** The snapshot index sent while in StateSnapshot. */
  pendingSnapshot = 0;
  /** Heard from since the last check-quorum round. */
  recentActive = false;
  /** In StateProbe: an append is outstanding; in StateReplicate: the window is full. */
  msgAppFlowPaused = false;
  readonly inflights: Inflights;

  constructor(match: number, next: number, maxInflight: number, maxInflightBytes: number) {
    this.match = match;
    this.next = next;
    this.inflights = new Inflights(maxInflight, maxInflightBytes);
  }

  private resetState(state: ProgressState): void {
    this.msgAppFlowPaused = false;
    this.pendingSnapshot = 0;
    this.state = state;
    this.inflights.reset();
  }

  becomeProbe(): void {
    if (this.state === 'StateSnapshot') {
      const pending = this.pendingSnapshot;
      this.resetState('StateProbe');
      this.next = Math.max(this.match + 1, pending + 1);
    } else {
      this.resetState('StateProbe');
      this.next = this.match + 1;
    }
    this.sentCommit = Math.min(this.sentCommit, this.next - 1);
  }

  becomeReplicate(): void {
    this.resetState('StateReplicate');
    this.next = this.match + 1;
  }

  becomeSnapshot(snapshotIndex: number): void {
    this.resetState('StateSnapshot');
    this.pendingSnapshot = snapshotIndex;
    this.next = snapshotIndex + 1;
    this.sentCommit = snapshotIndex;
  }

  /** An append of `entries` entries and `bytes` bytes went out. */
  sentEntries(entries: number, bytes: number): void {
    if (this.state === 'StateReplicate') {
      if (entries > 0) {
        this.next += entries;
        this.inflights.add(this.next - 1, bytes);
      }
      this.msgAppFlowPaused = this.inflights.full();
    } else if (this.state === 'StateProbe') {
      if (entries > 0) this.msgAppFlowPaused = true;
    } else {
      throw new Error(`sending append in unhandled state ${this.state}`);
    }
  }

  canBumpCommit(index: number): boolean {
    return index > this.sentCommit && this.sentCommit < this.next - 1;
  }

  /** The follower acknowledged index n: returns whether Match moved. */
  maybeUpdate(n: number): boolean {
    if (n <= this.match) return false;
    this.match = n;
    this.next = Math.max(this.next, n + 1);
    this.msgAppFlowPaused = false;
    return true;
  }

  /**
   * The follower rejected an append after index `rejected`, hinting that its log may match up to
   * `matchHint`: Next moves back. Returns false for a stale rejection.
   */
  maybeDecrTo(rejected: number, matchHint: number): boolean {
    if (this.state === 'StateReplicate') {
      if (rejected <= this.match) return false;
      this.next = this.match + 1;
      this.sentCommit = Math.min(this.sentCommit, this.next - 1);
      return true;
    }
    if (this.next - 1 !== rejected) return false;
    this.next = Math.max(Math.min(rejected, matchHint + 1), this.match + 1);
    this.sentCommit = Math.min(this.sentCommit, this.next - 1);
    this.msgAppFlowPaused = false;
    return true;
  }

  isPaused(): boolean {
    return this.state === 'StateSnapshot' ? true : this.msgAppFlowPaused;
  }

  toString(): string {
    let s = `${this.state} match=${this.match} next=${this.next}`;
    if (this.isPaused()) s += ' paused';
    if (this.pendingSnapshot > 0) s += ` pendingSnap=${this.pendingSnapshot}`;
    if (!this.recentActive) s += ' inactive';
    if (this.inflights.count > 0) s += ` inflight=${this.inflights.count}${this.inflights.full() ? '[full]' : ''}`;
    return s;
  }
}
