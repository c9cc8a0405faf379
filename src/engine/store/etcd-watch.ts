import type * as E from 'etcd3';
import type { Clock } from '../clock';
import { rangeHolds, type Change } from './etcd-effects';
import * as codec from './etcd-codec';
import { normalizeRangeEnd } from './keys';
import type { Watch, WatchListener, WatchRequest, WatchResponse } from './types';

type WatchStream = E.IDuplexStream<E.IWatchRequest, E.IWatchResponse>;

/** What an EtcdWatch needs from its store. */
export interface WatchHost {
  readonly client: E.Etcd3;
  readonly clock: Clock;
  forget(watch: EtcdWatch): void;
}

/**
 * One watch, on its own gRPC stream (as each of kube-apiserver's watches gets one), so that a
 * progress request concerns this watch alone. Responses reach the listener through the clock.
 */
export class EtcdWatch implements Watch {
  readonly ready: Promise<void>;
  private readonly key: string;
  private readonly end: string | undefined;
  private stream: WatchStream | undefined;
  private progressWanted = false;
  /** The store revision when etcd registered the watch; undefined until then. */
  private createdAt: number | undefined;
  /** The highest header revision received. */
  private seen = 0;
  private waiters: Array<{ revision: number; resolve: () => void }> = [];
  /** Canceled by its owner or by etcd: only a cancellation is still delivered. */
  private closing = false;
  private closed = false;

  constructor(
    private readonly host: WatchHost,
    private readonly request: WatchRequest,
    private readonly listener: WatchListener,
  ) {
    this.key = request.key === '' ? '\0' : request.key;
    this.end = normalizeRangeEnd(request.rangeEnd);
    this.ready = this.open();
  }

  requestProgress(): void {
    if (this.closing) return;
    if (!this.stream) {
      this.progressWanted = true;
      return;
    }
    // etcd 3.4.23 answers at once; hold the clock until it has.
    this.stream.write({ progress_request: {} });
    void this.nextResponse().then(this.host.clock.hold());
  }

  async cancel(): Promise<void> {
    this.closing = true;
    this.close();
  }

  /** Whether etcd will send this watch an event for `change` written at `revision`. */
  expects(change: Change, revision: number): boolean {
    if (this.closing || this.createdAt === undefined || revision <= this.createdAt) return false;
    if ((this.request.startRevision ?? 0) > revision) return false;
    const filters = this.request.filters ?? [];
    if (filters.includes(change.type === 'PUT' ? 'noput' : 'nodelete')) return false;
    return rangeHolds(this.key, this.end, change.key);
  }

  /** Resolves once a response stamped `revision` or later has arrived, or the watch ends. */
  reached(revision: number): Promise<void> {
    if (this.closed || this.seen >= revision) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ revision, resolve }));
  }

  /** Resolves at the next response, whatever its revision, or when the watch ends. */
  private nextResponse(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ revision: Number.NEGATIVE_INFINITY, resolve }));
  }

  private async open(): Promise<void> {
    const release = this.host.clock.hold();
    try {
      const stream = await this.host.client.watchClient.watch();
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
          this.fail(err);
        });
        stream.on('end', () => created());
        stream.write({ create_request: codec.watchCreateRequest(this.request) });
      });
      if (this.progressWanted) this.requestProgress();
    } catch (err) {
      this.fail(err);
    } finally {
      release();
    }
  }

  private receive(r: E.IWatchResponse): void {
    if (this.closing) return;
    const header = codec.header(r.header);
    this.seen = Math.max(this.seen, header.revision);
    if (r.created && !r.canceled) {
      this.createdAt = header.revision;
    } else if (r.canceled) {
      const compactRevision = Number(r.compact_revision);
      const response: WatchResponse = { header, events: [], canceled: true };
      if (compactRevision !== 0) response.compactRevision = compactRevision;
      if (r.cancel_reason) response.cancelReason = r.cancel_reason;
      this.deliver(response);
      this.close();
    } else if (r.events && r.events.length > 0) {
      this.deliver({ header, events: r.events.map(codec.watchEvent) });
    } else {
      this.deliver({ header, events: [], progressNotify: true });
    }
    this.wake();
  }

  private fail(err: unknown): void {
    if (this.closing) return;
    this.deliver({ header: { revision: 0 }, events: [], canceled: true, cancelReason: codec.storeError(err).message });
    this.close();
  }

  private deliver(response: WatchResponse): void {
    this.host.clock.queueTask(
      () => {
        if (!this.closing || response.canceled) this.listener(response);
      },
      { label: 'etcd watch delivery' },
    );
  }

  private wake(): void {
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.revision <= this.seen) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.closing = true;
    if (this.stream) {
      // Ending first keeps etcd3 from taking the cancellation for a failed connection.
      this.stream.end();
      this.stream.cancel();
      this.stream = undefined;
    }
    for (const w of this.waiters.splice(0)) w.resolve();
    this.host.forget(this);
  }
}
