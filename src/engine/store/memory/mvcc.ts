/**
 * One etcd member's state machine (etcd's mvcc store with its lessor and watchable store): the
 * revisions, the key index and revision log, the leases and the watchers. The replicated log
 * is applied to it entry by entry, in order, on every member (apply*), so all members reach the
 * same revisions; reads (range) and watches are served from it by the member a client talks to.
 * The checks etcd's gRPC layer makes happen before a request is proposed (see validate.ts); the
 * checks etcd's applier makes (leases that must exist, compare and range revisions) happen here.
 */
import type { Clock } from '../../clock';
import {
  StoreError,
  type CompactResponse,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type KeyValue,
  type PutRequest,
  type PutResponse,
  type RangeRequest,
  type RangeResponse,
  type StoreStatus,
  type TxnRequest,
  type TxnResponse,
  type Watch,
  type WatchListener,
  type WatchRequest,
} from '../types';
import { BoltFile, type BoltStats } from './bolt';
import { KvStore, type WriteTxn } from './kv-store';
import { Lessor } from './lessor';
import { applyRange } from './range';
import type { StoreSnapshot } from '../snapshot';
import { restoreSnapshot, takeSnapshot } from './snapshot';
import { applyDeleteRange, applyPut, applyTxn } from './txn';
import { WatchableStore } from './watchable-store';

export interface MvccOptions {
  clock: Clock;
  /** A lease of the primary lessor expired: the member proposes its revoke. */
  onLeaseExpired: (id: number) => void;
  /** Whether this member's lessor starts primary (a member that is not leader: false). */
  primaryLessor: boolean;
  restore?: StoreSnapshot;
}

export class Mvcc {
  readonly kv: KvStore;
  readonly watchable: WatchableStore;
  readonly lessor: Lessor;
  /** The raft index of the last entry applied here (etcd's consistent index). */
  consistentIndex = 0;
  /** The member's bbolt file: its pages, as etcd's backend reports Size and SizeInUse. */
  readonly bolt = new BoltFile();
  private readonly clock: Clock;
  private closed = false;

  constructor(options: MvccOptions) {
    this.clock = options.clock;
    this.lessor = new Lessor(options.clock, (keys) => this.deleteKeys(keys), options.onLeaseExpired, options.primaryLessor);
    this.kv = new KvStore(this.lessor, (rev, changes) => {
      const now = this.clock.now();
      for (const kv of changes) this.bolt.append(kv, now);
      this.watchable.notify(rev, changes);
    });
    this.watchable = new WatchableStore(this.kv, options.clock);
    if (options.restore) {
      restoreSnapshot(this.kv, this.lessor, options.restore);
      // A restored member's file is written afresh from the snapshot's records and leases.
      for (let i = 0; i < options.restore.leases.length; i++) this.bolt.lease(1, this.clock.now());
      this.bolt.defragment(this.records());
    }
  }

  /** Virtual time now (the backend's batch clock). */
  now(): number {
    return this.clock.now();
  }

  get revision(): number {
    return this.kv.currentRev;
  }

  range(r: RangeRequest): RangeResponse {
    return applyRange(this.kv.read(), r);
  }

  applyPut(r: PutRequest): PutResponse {
    if (r.lease && !this.lessor.has(r.lease)) throw new StoreError('leaseNotFound');
    return this.inWriteTxn((txn) => applyPut(txn, r));
  }

  applyDeleteRange(r: DeleteRangeRequest): DeleteRangeResponse {
    return this.inWriteTxn((txn) => applyDeleteRange(txn, r));
  }

  /** `apply` in one write transaction, ended however apply ends (what it changed is published as the next revision). */
  private inWriteTxn<R>(apply: (txn: WriteTxn) => R): R {
    const txn = this.kv.write();
    try {
      return apply(txn);
    } finally {
      txn.end();
    }
  }

  /** A txn; read-only ones are served here too, without raft. */
  applyTxn(r: TxnRequest): TxnResponse {
    return applyTxn(this.kv, (id) => this.lessor.has(id), r);
  }

  applyCompaction(revision: number): CompactResponse {
    const now = this.clock.now();
    this.kv.compact(revision, (kv) => this.bolt.remove(kv, now));
    // scheduledCompactRev and finishedCompactRev in the meta bucket.
    this.bolt.meta(now);
    this.watchable.compacted();
    return { header: { revision: this.kv.currentRev } };
  }

  applyLeaseGrant(id: number, ttlSeconds: number): { id: number; ttl: number } {
    const granted = this.lessor.grant(id, ttlSeconds);
    this.bolt.lease(1, this.clock.now());
    return granted;
  }

  applyLeaseRevoke(id: number): void {
    this.lessor.revoke(id);
    this.bolt.lease(-1, this.clock.now());
  }

  watch(request: WatchRequest, listener: WatchListener): Watch {
    return this.watchable.watch(request, listener);
  }

  /** etcd's backend Size(): the bbolt file's allocated pages (see bolt.ts). */
  get dbSizeBytes(): number {
    return this.bolt.sizeBytes(this.clock.now());
  }

  /** etcd's backend SizeInUse(): Size less the free pages inside the file. */
  get dbSizeInUseBytes(): number {
    return this.bolt.stats(this.clock.now()).sizeInUseBytes;
  }

  boltStats(): BoltStats {
    return this.bolt.stats(this.clock.now());
  }

  /** Watchers on this store (etcd_debugging_mvcc_watcher_total). */
  get watchers(): number {
    return this.watchable.watcherCount;
  }

  /** etcd's Defrag: the file rewritten with only what the key and lease buckets hold. */
  defragment(): void {
    this.bolt.defragment(this.records());
  }

  /** Every record the key bucket holds: each key's history since the last compaction. */
  private records(): KeyValue[] {
    const out: KeyValue[] = [];
    this.kv.index.forEachRecord((kv) => out.push(kv));
    return out;
  }

  status(): StoreStatus {
    return {
      revision: this.kv.currentRev,
      // Reads fail below the compaction revision; compacting at 0 or 1 makes none fail.
      compactRevision: this.kv.compactRev > 1 ? this.kv.compactRev : 0,
      keys: this.kv.liveKeys,
    };
  }

  snapshot(now: number): StoreSnapshot {
    return takeSnapshot(this.kv, this.lessor, now);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.watchable.close();
    this.lessor.close();
  }

  /** Lease revocation: the keys go in one write txn, so one revision (none if none were left). */
  private deleteKeys(keys: string[]): void {
    const txn = this.kv.write();
    for (const key of keys) txn.deleteRange(key, undefined);
    txn.end();
  }
}
