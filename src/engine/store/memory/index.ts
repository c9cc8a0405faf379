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
import { checkDeleteRange, checkPut, checkRange, checkTxn } from './validate';
import { WatchableStore } from './watchable-store';

export interface MemoryStoreOptions {
  clock: Clock;
}

export function createMemoryStore(options: MemoryStoreOptions): Store {
  return new MemoryStore(options.clock);
}

/**
 * The in-process etcd: requests pass the checks etcd's gRPC layer and raft make, in etcd's
 * order, then apply synchronously to the MVCC store; answers are settled promises. Watch
 * responses and lease expiry go through the virtual clock.
 */
class MemoryStore implements Store {
  readonly backend = 'memory' as const;
  private readonly kv: KvStore;
  private readonly watchable: WatchableStore;
  private readonly lessor: Lessor;
  private closed = false;

  constructor(clock: Clock) {
    this.lessor = new Lessor(clock, (keys) => this.deleteKeys(keys));
    this.kv = new KvStore(this.lessor, (rev, changes) => this.watchable.notify(rev, changes));
    this.watchable = new WatchableStore(this.kv, clock);
  }

  range(r: RangeRequest): Promise<RangeResponse> {
    return this.run(() => {
      checkGrpcSize((len) => rangeSize(r, len));
      checkRange(r);
      return applyRange(this.kv.read(), r);
    });
  }

  put(r: PutRequest): Promise<PutResponse> {
    return this.run(() => {
      checkGrpcSize((len) => putSize(r, len));
      checkPut(r);
      checkRaftSize((len) => putSize(r, len));
      if (r.lease && !this.lessor.has(r.lease)) throw new StoreError('leaseNotFound');
      const txn = this.kv.write();
      try {
        return applyPut(txn, r);
      } finally {
        txn.end();
      }
    });
  }

  deleteRange(r: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    return this.run(() => {
      checkGrpcSize((len) => deleteRangeSize(r, len));
      checkDeleteRange(r);
      checkRaftSize((len) => deleteRangeSize(r, len));
      const txn = this.kv.write();
      try {
        return applyDeleteRange(txn, r);
      } finally {
        txn.end();
      }
    });
  }

  txn(r: TxnRequest): Promise<TxnResponse> {
    return this.run(() => {
      checkGrpcSize((len) => txnSize(r, len));
      checkTxn(r, MAX_TXN_OPS);
      // Read-only txns are served without raft, so only writes meet the raft entry limit.
      if (!isReadOnlyTxn(r)) checkRaftSize((len) => txnSize(r, len));
      return applyTxn(this.kv, (id) => this.lessor.has(id), r);
    });
  }

  compact(revision: number): Promise<CompactResponse> {
    return this.run(() => {
      this.kv.compact(revision);
      this.watchable.compacted();
      return { header: this.header() };
    });
  }

  watch(request: WatchRequest, listener: WatchListener): Watch {
    this.assertOpen();
    return this.watchable.watch(request, listener);
  }

  leaseGrant(ttlSeconds: number, id?: number): Promise<LeaseGrantResponse> {
    return this.run(() => {
      const granted = this.lessor.grant(id ? id : this.lessor.unusedId(), ttlSeconds);
      return { header: this.header(), ...granted };
    });
  }

  leaseRevoke(id: number): Promise<ResponseHeader> {
    return this.run(() => {
      this.lessor.revoke(id);
      return this.header();
    });
  }

  leaseKeepAlive(id: number): Promise<LeaseKeepAliveResponse> {
    return this.run(() => ({ header: this.header(), id, ttl: this.lessor.renew(id) }));
  }

  leaseTimeToLive(id: number, keys = false): Promise<LeaseTimeToLiveResponse> {
    return this.run(() => {
      const lease = this.lessor.timeToLive(id);
      if (!lease) return { header: this.header(), id, ttl: -1, grantedTtl: 0, keys: [] };
      return { header: this.header(), id, ttl: lease.ttl, grantedTtl: lease.grantedTtl, keys: keys ? lease.keys : [] };
    });
  }

  status(): Promise<StoreStatus> {
    return this.run(() => ({
      revision: this.kv.currentRev,
      // Reads fail below the compaction revision; compacting at 0 or 1 makes none fail.
      compactRevision: this.kv.compactRev > 1 ? this.kv.compactRev : 0,
      keys: this.kv.liveKeys,
    }));
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

  private run<T>(body: () => T): Promise<T> {
    try {
      this.assertOpen();
      return Promise.resolve(body());
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('kubesim: the store is closed');
  }
}
