import type * as E from 'etcd3';
import type { Clock } from '../clock';
import * as codec from './etcd-codec';
import { compareBytes } from './keys';
import { checkGrpcSize, deleteRangeSize, putSize, rangeSize, txnSize } from './limits';
import {
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
  type WatchResponse,
} from './types';

export interface EtcdStoreOptions {
  clock: Clock;
  /** Client URLs; default http://127.0.0.1:2379. */
  endpoints?: string[];
}

const revisionOf = (response: { header: ResponseHeader }): number => response.header.revision;

type WatchStream = E.IDuplexStream<E.IWatchRequest, E.IWatchResponse>;
type KeepAliveStream = E.IDuplexStream<E.ILeaseKeepAliveRequest, E.ILeaseKeepAliveResponse>;

/**
 * The store backed by a real etcd through the etcd3 client (loaded only here, so the extension
 * bundle never needs it). etcd itself decides every answer; this adapter translates, maps
 * etcd's errors to StoreErrors, holds the virtual clock while requests are in flight and
 * delivers watch responses through it. Leases run on etcd's real time, not the virtual clock.
 */
export function createEtcdStore(options: EtcdStoreOptions): Store {
  const { Etcd3 } = require('etcd3') as typeof import('etcd3');
  // No retries and no circuit breaker: a retried write could apply twice, and etcd's answers
  // (errors included) must reach the caller as etcd gave them.
  const passThrough = { execute: <T>(fn: () => T) => fn() };
  const client = new Etcd3({
    hosts: options.endpoints ?? ['http://127.0.0.1:2379'],
    faultHandling: { host: () => passThrough, global: passThrough } as unknown as E.IOptions['faultHandling'],
    // kube-apiserver lifts the client's receive limit the same way.
    grpcOptions: { 'grpc.max_receive_message_length': -1 },
  });
  return new EtcdStore(client, options.clock);
}

class EtcdStore implements Store {
  readonly backend = 'etcd' as const;
  readonly barrier: WatchBarrier;
  private readonly watches = new Set<EtcdWatch>();
  private keepAlive: KeepAliveQueue | undefined;
  /** Lease IDs this store picks, as the memory store does (see Lessor.unusedId). */
  private nextLeaseId = 1;
  private closed = false;

  constructor(
    readonly client: E.Etcd3,
    readonly clock: Clock,
  ) {
    this.barrier = new WatchBarrier(client);
  }

  range(r: RangeRequest): Promise<RangeResponse> {
    return this.request(() => {
      checkGrpcSize(rangeSize, r);
      return this.client.kv.range(codec.rangeRequest(r)).then(codec.rangeResponse);
    });
  }

  put(r: PutRequest): Promise<PutResponse> {
    return this.request(() => {
      checkGrpcSize(putSize, r);
      return this.client.kv.put(codec.putRequest(r)).then(codec.putResponse);
    }, revisionOf);
  }

  deleteRange(r: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    return this.request(() => {
      checkGrpcSize(deleteRangeSize, r);
      return this.client.kv.deleteRange(codec.deleteRangeRequest(r)).then(codec.deleteRangeResponse);
    }, revisionOf);
  }

  txn(r: TxnRequest): Promise<TxnResponse> {
    return this.request(() => {
      checkGrpcSize(txnSize, r);
      return this.client.kv.txn(codec.txnRequest(r)).then(codec.txnResponse);
    }, revisionOf);
  }

  compact(revision: number): Promise<CompactResponse> {
    return this.request(() => this.client.kv.compact({ revision }).then((r) => ({ header: codec.header(r.header) })));
  }

  watch(request: WatchRequest, listener: WatchListener): Watch {
    if (this.closed) throw new Error('kubesim: the store is closed');
    const watch = new EtcdWatch(this, request, listener);
    this.watches.add(watch);
    return watch;
  }

  forget(watch: EtcdWatch): void {
    this.watches.delete(watch);
  }

  async leaseGrant(ttlSeconds: number, id?: number): Promise<LeaseGrantResponse> {
    if (id) return this.grant(ttlSeconds, id);
    for (;;) {
      try {
        return await this.grant(ttlSeconds, this.nextLeaseId++);
      } catch (err) {
        if (!(err instanceof StoreError && err.code === 'leaseExists')) throw err;
      }
    }
  }

  leaseRevoke(id: number): Promise<ResponseHeader> {
    return this.request(() => this.client.leaseClient.leaseRevoke({ ID: id }).then((r) => codec.header(r.header)), (h) => h.revision);
  }

  leaseKeepAlive(id: number): Promise<LeaseKeepAliveResponse> {
    return this.request(async () => {
      this.keepAlive ??= new KeepAliveQueue(await this.client.leaseClient.leaseKeepAlive(), () => (this.keepAlive = undefined));
      const r = await this.keepAlive.send(id);
      return { header: codec.header(r.header), id: Number(r.ID), ttl: Number(r.TTL) };
    });
  }

  leaseTimeToLive(id: number, keys = false): Promise<LeaseTimeToLiveResponse> {
    return this.request(async () => {
      const r = await this.client.leaseClient.leaseTimeToLive({ ID: id, ...(keys ? { keys } : {}) });
      return {
        header: codec.header(r.header),
        id: Number(r.ID),
        ttl: Number(r.TTL),
        grantedTtl: Number(r.grantedTTL),
        // etcd lists them in map order; sorted, they compare across backends.
        keys: (r.keys ?? []).map((k) => k.toString('utf8')).sort(compareBytes),
      };
    });
  }

  /** The compaction revision is not exposed by etcd: it is the lowest revision still readable. */
  status(): Promise<StoreStatus> {
    return this.request(async () => {
      const all = (revision?: number): Promise<E.IRangeResponse> =>
        this.client.kv.range({ key: Buffer.from([0]), range_end: Buffer.from([0]), count_only: true, ...(revision ? { revision } : {}) });
      const now = await all();
      const revision = Number(now.header.revision);
      let lo = 1;
      let hi = revision;
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        const readable = await all(mid).then(
          () => true,
          (err: unknown) => {
            if (codec.storeError(err) instanceof StoreError) return false;
            throw err;
          },
        );
        if (readable) hi = mid;
        else lo = mid + 1;
      }
      return { revision, compactRevision: lo > 1 ? lo : 0, keys: Number(now.count) };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.watches].map((w) => w.cancel()));
    this.keepAlive?.close();
    this.barrier.close();
    this.client.close();
  }

  /**
   * Runs one call while holding the clock, so that Clock.settle waits for it. After a write the
   * hold lasts until etcd's watch streams carry the write's revision (see WatchBarrier).
   */
  async request<T>(send: () => Promise<T>, writeRevision?: (response: T) => number): Promise<T> {
    if (this.closed) throw new Error('kubesim: the store is closed');
    const release = this.clock.hold();
    let response: T;
    try {
      response = await send();
    } catch (err) {
      release();
      throw codec.storeError(err);
    }
    if (writeRevision) void this.barrier.reached(writeRevision(response)).then(release);
    else release();
    return response;
  }

  private grant(ttl: number, id: number): Promise<LeaseGrantResponse> {
    return this.request(() =>
      this.client.leaseClient.leaseGrant({ TTL: ttl, ID: id }).then((r) => ({ header: codec.header(r.header), id: Number(r.ID), ttl: Number(r.TTL) })),
    );
  }
}

/**
 * One watch, on its own gRPC stream (as kube-apiserver's watches each get one), so that a
 * progress request concerns this watch alone. Responses reach the listener through the clock.
 */
class EtcdWatch implements Watch {
  readonly ready: Promise<void>;
  private stream: WatchStream | undefined;
  private progressWanted = false;
  /** Canceled by its owner or by etcd: only a cancellation is still delivered. */
  private closing = false;
  private closed = false;

  constructor(
    private readonly store: EtcdStore,
    request: WatchRequest,
    private readonly listener: WatchListener,
  ) {
    store.barrier.join();
    this.ready = this.open(request);
  }

  requestProgress(): void {
    if (this.stream) this.stream.write({ progress_request: {} });
    else this.progressWanted = true;
  }

  async cancel(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.close();
  }

  private async open(request: WatchRequest): Promise<void> {
    const release = this.store.clock.hold();
    try {
      const stream = await this.store.client.watchClient.watch();
      if (this.closing) {
        stream.end();
        stream.cancel();
        return;
      }
      this.stream = stream;
      await new Promise<void>((created) => {
        stream.on('data', (r) => {
          if (r.created) created();
          this.receive(r);
        });
        stream.on('error', (err) => {
          created();
          if (this.closing) return;
          this.deliver({ header: { revision: 0 }, events: [], canceled: true, cancelReason: codec.storeError(err).message });
          this.close();
        });
        stream.on('end', () => created());
        stream.write({ create_request: codec.watchCreateRequest(request) });
      });
      if (this.progressWanted) this.requestProgress();
    } catch (err) {
      this.deliver({ header: { revision: 0 }, events: [], canceled: true, cancelReason: codec.storeError(err).message });
      this.close();
    } finally {
      release();
    }
  }

  private receive(r: E.IWatchResponse): void {
    if (this.closing) return;
    const header = codec.header(r.header);
    if (r.canceled) {
      const compactRevision = Number(r.compact_revision);
      const response: WatchResponse = { header, events: [], canceled: true };
      if (compactRevision !== 0) response.compactRevision = compactRevision;
      if (r.cancel_reason) response.cancelReason = r.cancel_reason;
      this.deliver(response);
      this.close();
    } else if (r.events && r.events.length > 0) {
      this.deliver({ header, events: r.events.map(codec.watchEvent) });
    } else if (!r.created) {
      this.deliver({ header, events: [], progressNotify: true });
    }
  }

  private deliver(response: WatchResponse): void {
    this.store.clock.queueTask(
      () => {
        if (!this.closing || response.canceled) this.listener(response);
      },
      { label: 'etcd watch delivery' },
    );
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.stream) {
      // Ending first keeps etcd3 from taking the cancellation for a failed connection.
      this.stream.end();
      this.stream.cancel();
      this.stream = undefined;
    }
    this.closing = true;
    this.store.forget(this);
    this.store.barrier.leave();
  }
}

/**
 * Lets Clock.settle wait for watch traffic caused by this store's writes. While any watch is
 * open, one extra stream watches every key; a write's hold on the clock lasts until that stream
 * has seen the write's revision. etcd queues a revision's watch responses on all streams before
 * it answers the write, so by then the others are on the wire too (best effort: separate
 * streams carry no ordering guarantee).
 */
class WatchBarrier {
  private users = 0;
  private stream: WatchStream | undefined;
  private seen = 0;
  private waiters: Array<{ revision: number; resolve: () => void }> = [];

  constructor(private readonly client: E.Etcd3) {}

  join(): void {
    if (this.users++ === 0) void this.open();
  }

  leave(): void {
    if (--this.users === 0) this.close();
  }

  reached(revision: number): Promise<void> {
    if (this.users === 0 || revision <= this.seen) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ revision, resolve }));
  }

  close(): void {
    this.stream?.end();
    this.stream?.cancel();
    this.stream = undefined;
    this.seen = 0;
    this.release(Number.POSITIVE_INFINITY);
  }

  private async open(): Promise<void> {
    try {
      const stream = await this.client.watchClient.watch();
      if (this.users === 0) {
        stream.end();
        stream.cancel();
        return;
      }
      this.stream = stream;
      stream.on('data', (r) => {
        this.seen = Math.max(this.seen, Number(r.header?.revision ?? 0));
        this.release(this.seen);
      });
      stream.on('error', () => this.release(Number.POSITIVE_INFINITY));
      stream.on('end', () => this.release(Number.POSITIVE_INFINITY));
      stream.write({ create_request: { key: Buffer.from([0]), range_end: Buffer.from([0]) } });
    } catch {
      this.release(Number.POSITIVE_INFINITY);
    }
  }

  private release(upTo: number): void {
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.revision <= upTo) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }
}

/** Keep-alives on one stream: etcd answers them in order. */
class KeepAliveQueue {
  private pending: Array<{ resolve: (r: E.ILeaseKeepAliveResponse) => void; reject: (err: Error) => void }> = [];

  constructor(
    private readonly stream: KeepAliveStream,
    private readonly onClose: () => void,
  ) {
    stream.on('data', (r) => this.pending.shift()?.resolve(r));
    stream.on('error', (err) => this.fail(err));
    stream.on('end', () => this.fail(new Error('etcd closed the lease keep-alive stream')));
  }

  send(id: number): Promise<E.ILeaseKeepAliveResponse> {
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.stream.write({ ID: id });
    });
  }

  close(): void {
    this.stream.end();
    this.stream.cancel();
  }

  private fail(err: Error): void {
    this.onClose();
    for (const p of this.pending.splice(0)) p.reject(err);
  }
}
