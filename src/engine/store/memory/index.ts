import type { Clock } from '../../clock';
import { checkGrpcSize, checkRaftSize, deleteRangeSize, putSize, rangeSize, txnSize } from '../limits';
import { isReadOnlyTxn } from '../requests';
import {
  MAX_TXN_OPS,
  StoreError,
  type CompactResponse,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type LeaseGrantResponse,
  type LeaseKeepAliveResponse,
  type LeaseTimeToLiveResponse,
  type PutRequest,
  type PutResponse,
  type RangeRequest,
  type RangeResponse,
  type ResponseHeader,
  type Store,
  type StoreStatus,
  type TxnRequest,
  type TxnResponse,
  type Watch,
  type WatchListener,
  type WatchRequest,
} from '../types';
import { KvStore } from './kv-store';
import { Lessor } from './lessor';
import { applyRange } from './range';
import { applyDeleteRange, applyPut, applyTxn } from './txn';
import { restoreSnapshot, takeSnapshot, type StoreSnapshot } from './snapshot';
import { checkDeleteRange, checkPut, checkRange, checkTxn } from './validate';
import { WatchableStore } from './watchable-store';

export interface MemoryStoreOptions {
  clock: Clock;
  /** Starts from this snapshot (a restart) instead of an empty store. */
  restore?: StoreSnapshot;
}

export function createMemoryStore(options: MemoryStoreOptions): Store {
  return new MemoryStore(options.clock, options.restore);
}

/**
 * The in-process etcd: requests pass the checks etcd's gRPC layer and raft make, in etcd's
 * order, then apply synchronously to the MVCC store (the methods are async only so that a
 * refusal becomes a rejection). Watch responses and lease expiry go through the virtual clock.
 */
class MemoryStore implements Store {
  readonly backend = 'memory' as const;
  private readonly kv: KvStore;
  private readonly watchable: WatchableStore;
  private readonly lessor: Lessor;
  private closed = false;

  constructor(
    private readonly clock: Clock,
    restore: StoreSnapshot | undefined,
  ) {
    this.lessor = new Lessor(clock, (keys) => this.deleteKeys(keys));
    this.kv = new KvStore(this.lessor, (rev, changes) => this.watchable.notify(rev, changes));
    this.watchable = new WatchableStore(this.kv, clock);
    if (restore) restoreSnapshot(this.kv, this.lessor, restore);
  }

  snapshot(): StoreSnapshot {
    this.assertOpen();
    return takeSnapshot(this.kv, this.lessor, this.clock.now());
  }

  async range(r: RangeRequest): Promise<RangeResponse> {
    this.assertOpen();
    checkGrpcSize(rangeSize, r);
    checkRange(r);
    return applyRange(this.kv.read(), r);
  }

  async put(r: PutRequest): Promise<PutResponse> {
    this.assertOpen();
    checkGrpcSize(putSize, r);
    checkPut(r);
    checkRaftSize(putSize, r);
    if (r.lease && !this.lessor.has(r.lease)) throw new StoreError('leaseNotFound');
    const txn = this.kv.write();
    try {
      return applyPut(txn, r);
    } finally {
      txn.end();
    }
  }

  async deleteRange(r: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    this.assertOpen();
    checkGrpcSize(deleteRangeSize, r);
    checkDeleteRange(r);
    checkRaftSize(deleteRangeSize, r);
    const txn = this.kv.write();
    try {
      return applyDeleteRange(txn, r);
    } finally {
      txn.end();
    }
  }

  async txn(r: TxnRequest): Promise<TxnResponse> {
    this.assertOpen();
    checkGrpcSize(txnSize, r);
    checkTxn(r, MAX_TXN_OPS);
    // Read-only txns are served without raft, so only writes meet the raft entry limit.
    if (!isReadOnlyTxn(r)) checkRaftSize(txnSize, r);
    return applyTxn(this.kv, (id) => this.lessor.has(id), r);
  }

  async compact(revision: number): Promise<CompactResponse> {
    this.assertOpen();
    this.kv.compact(revision);
    this.watchable.compacted();
    return { header: this.header() };
  }

  watch(request: WatchRequest, listener: WatchListener): Watch {
    this.assertOpen();
    return this.watchable.watch(request, listener);
  }

  async leaseGrant(ttlSeconds: number, id?: number): Promise<LeaseGrantResponse> {
    this.assertOpen();
    const granted = this.lessor.grant(id ? id : this.lessor.unusedId(), ttlSeconds);
    return { header: this.header(), ...granted };
  }

  async leaseRevoke(id: number): Promise<ResponseHeader> {
    this.assertOpen();
    this.lessor.revoke(id);
    return this.header();
  }

  async leaseKeepAlive(id: number): Promise<LeaseKeepAliveResponse> {
    this.assertOpen();
    return { header: this.header(), id, ttl: this.lessor.renew(id) };
  }

  async leaseTimeToLive(id: number, keys = false): Promise<LeaseTimeToLiveResponse> {
    this.assertOpen();
    const lease = this.lessor.timeToLive(id);
    if (!lease) return { header: this.header(), id, ttl: -1, grantedTtl: 0, keys: [] };
    return { header: this.header(), id, ttl: lease.ttl, grantedTtl: lease.grantedTtl, keys: keys ? lease.keys : [] };
  }

  async status(): Promise<StoreStatus> {
    this.assertOpen();
    return {
      revision: this.kv.currentRev,
      // Reads fail below the compaction revision; compacting at 0 or 1 makes none fail.
      compactRevision: this.kv.compactRev > 1 ? this.kv.compactRev : 0,
      keys: this.kv.liveKeys,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watchable.close();
    this.lessor.close();
  }

  private header(): ResponseHeader {
    return { revision: this.kv.currentRev };
  }

  /** Lease revocation: the keys go in one write txn, so one revision (none if none were left). */
  private deleteKeys(keys: string[]): void {
    const txn = this.kv.write();
    for (const key of keys) txn.deleteRange(key, undefined);
    txn.end();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('kubesim: the store is closed');
  }
}
