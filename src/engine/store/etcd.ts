import type * as E from 'etcd3';
import type { Clock } from '../clock';
import * as codec from './etcd-codec';
import { deleteChanges, putChanges, txnChanges, type Change } from './etcd-effects';
import { EtcdWatch, type WatchHost } from './etcd-watch';
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
} from './types';

export interface EtcdStoreOptions {
  clock: Clock;
  /** Client URLs; default http://127.0.0.1:2379. */
  endpoints?: string[];
  credentials?: EtcdCredentials;
}

/** TLS to etcd, as kube-apiserver's --etcd-cafile, --etcd-certfile and --etcd-keyfile give it (PEM). */
export interface EtcdCredentials {
  /** The CA that signed etcd's serving certificates (default: the system's roots). */
  ca?: Buffer;
  /** A client certificate etcd trusts, and its key. */
  cert?: Buffer;
  key?: Buffer;
}

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
    ...(options.credentials?.ca ? { credentials: { rootCertificate: options.credentials.ca, privateKey: options.credentials.key, certChain: options.credentials.cert } } : {}),
    faultHandling: { host: () => passThrough, global: passThrough } as unknown as E.IOptions['faultHandling'],
    // kube-apiserver lifts the client's receive limit the same way.
    grpcOptions: { 'grpc.max_receive_message_length': -1 },
  });
  return new EtcdStore(client, options.clock);
}

class EtcdStore implements Store, WatchHost {
  readonly backend = 'etcd' as const;
  private readonly watches = new Set<EtcdWatch>();
  private keepAlive: Promise<KeepAliveQueue> | undefined;
  /** Lease IDs this store picks, as the memory store does (see Lessor.unusedId). */
  private nextLeaseId = 1;
  private closed = false;

  constructor(
    readonly client: E.Etcd3,
    readonly clock: Clock,
  ) {}

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
    }, () => putChanges(r));
  }

  deleteRange(r: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    return this.request(() => {
      checkGrpcSize(deleteRangeSize, r);
      return this.client.kv.deleteRange(codec.deleteRangeRequest(r)).then(codec.deleteRangeResponse);
    }, (response) => deleteChanges(r, response));
  }

  txn(r: TxnRequest): Promise<TxnResponse> {
    return this.request(() => {
      checkGrpcSize(txnSize, r);
      return this.client.kv.txn(codec.txnRequest(r)).then(codec.txnResponse);
    }, (response) => txnChanges(r, response));
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
    return this.request(() => this.client.leaseClient.leaseRevoke({ ID: id }).then((r) => codec.header(r.header)));
  }

  leaseKeepAlive(id: number): Promise<LeaseKeepAliveResponse> {
    return this.request(async () => {
      this.keepAlive ??= this.client.leaseClient.leaseKeepAlive().then((stream) => new KeepAliveQueue(stream, () => (this.keepAlive = undefined)));
      const r = await (await this.keepAlive).send(id);
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
            const refusal = codec.storeError(err);
            if (refusal instanceof StoreError && refusal.code === 'compacted') return false;
            throw refusal;
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
    (await this.keepAlive?.catch(() => undefined))?.close();
    this.client.close();
  }

  /**
   * Runs one call while holding the clock, so that Clock.settle waits for it. After a write the
   * hold lasts until every open watch that will get an event for it has received it; a range
   * delete or a lease revocation names no keys, so watches are not waited for after those.
   */
  private async request<T>(send: () => Promise<T>, changes?: (response: T) => Change[]): Promise<T> {
    if (this.closed) throw new Error('kubesim: the store is closed');
    const release = this.clock.hold();
    let response: T;
    try {
      response = await send();
    } catch (err) {
      release();
      throw codec.storeError(err);
    }
    if (changes) this.awaitWatches((response as { header: ResponseHeader }).header.revision, changes(response), release);
    else release();
    return response;
  }

  private awaitWatches(revision: number, changes: Change[], release: () => void): void {
    const waits: Array<Promise<void>> = [];
    for (const watch of this.watches) {
      if (changes.some((change) => watch.expects(change, revision))) waits.push(watch.reached(revision));
    }
    if (waits.length === 0) release();
    else void Promise.all(waits).then(release);
  }

  private grant(ttl: number, id: number): Promise<LeaseGrantResponse> {
    return this.request(() =>
      this.client.leaseClient.leaseGrant({ TTL: ttl, ID: id }).then((r) => ({ header: codec.header(r.header), id: Number(r.ID), ttl: Number(r.TTL) })),
    );
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
