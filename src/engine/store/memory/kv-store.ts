import { StoreError, type KeyValue } from '../types';
import { isTombstone, tombstone } from './key-index';
import { RevisionLog } from './revision-log';
import { TreeIndex } from './tree-index';

export interface RangeOptions {
  /** 0: no limit. */
  limit?: number;
  /** 0 or negative: the view's revision. */
  rev?: number;
  count?: boolean;
}

export interface RangeResult {
  kvs: KeyValue[];
  /** Every match, regardless of limit. */
  count: number;
  rev: number;
}

/** Where keys attach to leases; the lessor implements it. */
export interface LeaseAttachments {
  attach(lease: number, key: string): void;
  detach(lease: number, key: string): void;
}

/** Reads at one revision, as etcd's TxnRead: `rev` is the view's current revision. */
export interface ReadView {
  readonly rev: number;
  /** Reads below this fail as compacted (etcd's compactMainRev; -1 before any compaction). */
  readonly firstRev: number;
  range(key: string, end: string | undefined, options?: RangeOptions): RangeResult;
}

/**
 * The MVCC key-value store (etcd's mvcc.store): the revision counter, the key index and the
 * revision log. Writes go through a WriteTxn; all changes of one txn share one revision.
 */
export class KvStore {
  currentRev = 1;
  compactRev = -1;
  liveKeys = 0;
  readonly index = new TreeIndex();
  readonly log = new RevisionLog();
  /** The sub-revision of each change after a txn's first (etcd's revision.sub); absent: 0. */
  private readonly subs = new WeakMap<KeyValue, number>();

  constructor(
    private readonly leases: LeaseAttachments,
    private readonly onCommit: (rev: number, changes: KeyValue[]) => void,
  ) {}

  /** A record's sub-revision: its place among the changes of its revision's txn. */
  subRevision(kv: KeyValue): number {
    return this.subs.get(kv) ?? 0;
  }

  /** Notes a txn's change after its first; the first is sub-revision 0. */
  noteSub(kv: KeyValue, sub: number): void {
    if (sub > 0) this.subs.set(kv, sub);
  }

  read(): ReadView {
    return new StoreView(this, this.currentRev);
  }

  write(): WriteTxn {
    return new WriteTxn(this, this.leases, this.onCommit);
  }

  rangeKeys(key: string, end: string | undefined, curRev: number, options: RangeOptions = {}): RangeResult {
    let rev = options.rev ?? 0;
    if (rev > curRev) throw new StoreError('futureRevision');
    if (rev <= 0) rev = curRev;
    if (rev < this.compactRev) throw new StoreError('compacted');
    if (end === undefined) {
      const kv = this.index.get(key, rev);
      return { kvs: kv && !options.count ? [kv] : [], count: kv ? 1 : 0, rev: curRev };
    }
    const limit = options.limit ?? 0;
    const kvs: KeyValue[] = [];
    let count = 0;
    this.index.range(key, end, rev, (kv) => {
      count++;
      if (!options.count && (limit <= 0 || kvs.length < limit)) kvs.push(kv);
    });
    return { kvs, count, rev: curRev };
  }

  /** Checks as etcd's updateCompactRev, then forgets history below `rev`; `dropped` gets each record removed. */
  compact(rev: number, dropped?: (kv: KeyValue) => void): void {
    if (rev <= this.compactRev) throw new StoreError('compacted');
    if (rev > this.currentRev) throw new StoreError('futureRevision');
    this.compactRev = rev;
    this.index.compact(rev, dropped);
    this.log.compact(rev);
  }
}

class StoreView implements ReadView {
  readonly firstRev: number;

  constructor(
    private readonly store: KvStore,
    readonly rev: number,
  ) {
    this.firstRev = store.compactRev;
  }

  range(key: string, end: string | undefined, options?: RangeOptions): RangeResult {
    return this.store.rangeKeys(key, end, this.rev, options);
  }
}

/**
 * One write transaction (etcd's storeTxnWrite). Changes are visible to its own reads at once,
 * at revision beginRev + 1; End publishes them as one revision, or none if nothing changed.
 */
export class WriteTxn {
  readonly beginRev: number;
  readonly changes: KeyValue[] = [];

  constructor(
    private readonly store: KvStore,
    private readonly leases: LeaseAttachments,
    private readonly onCommit: (rev: number, changes: KeyValue[]) => void,
  ) {
    this.beginRev = store.currentRev;
  }

  /** The revision this txn's reads see: its own changes count once there are any. */
  get readRev(): number {
    return this.changes.length > 0 ? this.beginRev + 1 : this.beginRev;
  }

  view(): ReadView {
    return { rev: this.readRev, firstRev: this.store.compactRev, range: (key, end, options) => this.range(key, end, options) };
  }

  range(key: string, end: string | undefined, options?: RangeOptions): RangeResult {
    return this.store.rangeKeys(key, end, this.readRev, options);
  }

  put(key: string, value: string, lease: number): number {
    // V8 keeps strings built by concatenation or JSON.stringify as ropes (about 250 bytes more
    // for a 1 KiB object); reading a character flattens one before it is kept for good.
    key.charCodeAt(0);
    value.charCodeAt(0);
    const rev = this.beginRev + 1;
    const index = this.store.index;
    const latest = index.latest(key);
    const prev = latest && !isTombstone(latest) ? latest : undefined;
    const kv: KeyValue = {
      key,
      value,
      createRevision: prev ? prev.createRevision : rev,
      modRevision: rev,
      version: prev ? prev.version + 1 : 1,
      lease,
    };
    index.append(kv);
    this.store.noteSub(kv, this.changes.length);
    this.changes.push(kv);
    if (prev) {
      if (prev.lease !== 0) this.leases.detach(prev.lease, key);
    } else {
      this.store.liveKeys++;
    }
    if (lease !== 0) this.leases.attach(lease, key);
    return rev;
  }

  /** Returns [deleted, revision] as etcd's DeleteRange. */
  deleteRange(key: string, end: string | undefined): [number, number] {
    const { kvs } = this.range(key, end);
    for (const kv of kvs) this.delete(kv);
    if (kvs.length !== 0 || this.changes.length > 0) return [kvs.length, this.beginRev + 1];
    return [0, this.beginRev];
  }

  private delete(prev: KeyValue): void {
    const kv = tombstone(prev.key, this.beginRev + 1);
    this.store.index.append(kv);
    this.store.noteSub(kv, this.changes.length);
    this.changes.push(kv);
    this.store.liveKeys--;
    if (prev.lease !== 0) this.leases.detach(prev.lease, prev.key);
  }

  /** Publishes the changes as the next revision and returns the store's revision after it. */
  end(): number {
    if (this.changes.length === 0) return this.beginRev;
    const rev = ++this.store.currentRev;
    this.store.log.append(rev, this.changes);
    this.onCommit(rev, this.changes);
    return rev;
  }
}
