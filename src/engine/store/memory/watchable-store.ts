import type { Clock } from '../../clock';
import { compareBytes, normalizeRangeEnd } from '../keys';
import type { KeyValue, Watch, WatchEvent, WatchListener, WatchRequest, WatchResponse } from '../types';
import { isTombstone } from './key-index';
import type { KvStore } from './kv-store';
import { Watcher, WatcherGroup } from './watcher-group';

/** etcd's --experimental-watch-progress-notify-interval default (etcd adds up to 10% jitter). */
export const PROGRESS_NOTIFY_INTERVAL_MS = 10 * 60 * 1000;
/** A replay response carries at most this many revisions (etcd's watchBatchMaxRevs). */
const MAX_REVISIONS_PER_RESPONSE = 1000;
/** Watchers caught up per sync pass (etcd's maxWatchersPerSync). */
const MAX_WATCHERS_PER_SYNC = 512;
/** The cancel reason etcd gives when a watch's range end is not after its key. */
const EMPTY_RANGE_REASON = 'mvcc: watcher range is empty';

/**
 * Watch fan-out (etcd's watchableStore): synced watchers get each revision as it commits;
 * unsynced ones (started at an old revision) are caught up from the revision log by a sync pass.
 * Every response is delivered through the clock, in the order it was produced, so the same
 * inputs always reach listeners in the same order.
 */
export class WatchableStore {
  private readonly synced: WatcherGroup;
  private readonly unsynced = new Set<Watcher>();
  private readonly all = new Set<Watcher>();
  private outbox: Array<[Watcher, WatchResponse]> = [];
  private deliveryQueued = false;
  private syncQueued = false;
  private nextId = 0;

  constructor(
    private readonly kv: KvStore,
    private readonly clock: Clock,
  ) {
    this.synced = new WatcherGroup(kv.index.compare);
  }

  /** Watchers registered and not canceled. */
  get watcherCount(): number {
    return this.all.size;
  }

  watch(request: WatchRequest, listener: WatchListener): Watch {
    const curRev = this.kv.currentRev;
    const key = request.key === '' ? '\0' : request.key;
    const end = normalizeRangeEnd(request.rangeEnd);
    const filters = request.filters ?? [];
    const w = new Watcher(
      this.nextId++,
      key,
      end,
      0,
      request.prevKv === true,
      filters.includes('noput'),
      filters.includes('nodelete'),
      listener,
    );
    const handle: Watch = {
      ready: Promise.resolve(),
      requestProgress: () => this.requestProgress(w),
      cancel: async () => this.cancel(w),
    };
    if (end !== undefined && end !== '' && compareBytes(key, end) >= 0) {
      w.state = 'closed';
      this.send(w, { header: { revision: curRev }, events: [], canceled: true, cancelReason: EMPTY_RANGE_REASON });
      return handle;
    }
    // etcd 3.4.23 takes 0 as "after the current revision" and lets negative ones through: they
    // replay nothing (or are canceled as compacted, below -1 or once a compaction happened).
    const start = request.startRevision ? request.startRevision : curRev + 1;
    w.minRev = start;
    this.all.add(w);
    if (start > curRev) {
      w.state = 'synced';
      this.synced.add(w);
    } else {
      this.unsynced.add(w);
      this.queueSync();
    }
    if (request.progressNotify) this.scheduleProgress(w);
    return handle;
  }

  /** Called by the kv store when a revision commits. */
  notify(rev: number, changes: KeyValue[]): void {
    if (this.synced.size === 0) return;
    const batches = new Map<Watcher, KeyValue[]>();
    for (const kv of changes) {
      this.synced.matching(kv.key, (w) => {
        // A watch started at a future revision waits for it.
        if (kv.modRevision < w.minRev) return;
        const batch = batches.get(w);
        if (batch) batch.push(kv);
        else batches.set(w, [kv]);
      });
    }
    for (const [w, kvs] of [...batches].sort(([a], [b]) => a.id - b.id)) {
      w.minRev = rev + 1;
      this.sendEvents(w, rev, kvs);
    }
  }

  /** After a compaction: unsynced watchers may now start below it. */
  compacted(): void {
    if (this.unsynced.size > 0) this.queueSync();
  }

  close(): void {
    for (const w of [...this.all]) this.cancel(w);
    this.outbox = [];
  }

  private cancel(w: Watcher): void {
    w.dropped = true;
    this.retire(w);
  }

  private retire(w: Watcher): void {
    w.state = 'closed';
    this.all.delete(w);
    this.synced.delete(w);
    this.unsynced.delete(w);
    this.clock.clearTimer(w.progressTimer);
  }

  /** etcd 3.4.23 answers a progress request at once with the current revision, synced or not. */
  private requestProgress(w: Watcher): void {
    if (w.state === 'closed') return;
    this.send(w, { header: { revision: this.kv.currentRev }, events: [], progressNotify: true });
  }

  /** Periodic progress: only to a synced watcher that was sent no events since the last tick. */
  private scheduleProgress(w: Watcher): void {
    w.progressTimer = this.clock.setTimer(
      PROGRESS_NOTIFY_INTERVAL_MS,
      () => {
        if (w.state === 'closed') return;
        if (w.idle && w.state === 'synced') this.send(w, { header: { revision: this.kv.currentRev }, events: [], progressNotify: true });
        w.idle = true;
        this.scheduleProgress(w);
      },
      { daemon: true, label: 'etcd watch progress' },
    );
  }

  private queueSync(): void {
    if (this.syncQueued) return;
    this.syncQueued = true;
    this.clock.queueTask(() => this.syncWatchers(), { label: 'etcd watch sync' });
  }

  /** etcd's syncWatchers: catch up to 512 unsynced watchers from the revision log at once. */
  private syncWatchers(): void {
    this.syncQueued = false;
    const curRev = this.kv.currentRev;
    const compactRev = this.kv.compactRev;
    const group = new WatcherGroup(this.kv.index.compare);
    let minRev = Number.POSITIVE_INFINITY;
    let n = 0;
    for (const w of this.unsynced) {
      if (n++ >= MAX_WATCHERS_PER_SYNC) break;
      if (w.minRev < compactRev) {
        this.retire(w);
        this.send(w, { header: { revision: 0 }, events: [], canceled: true, compactRevision: compactRev });
        continue;
      }
      group.add(w);
      minRev = Math.min(minRev, w.minRev);
    }
    const batches = new Map<Watcher, EventBatch>();
    // A negative start makes etcd 3.4.23 read an empty revision span for the whole pass.
    if (minRev >= 0 && group.size > 0) {
      this.kv.log.scan(minRev, curRev, (kv) => {
        group.matching(kv.key, (w) => {
          if (kv.modRevision < w.minRev) return;
          let batch = batches.get(w);
          if (!batch) batches.set(w, (batch = new EventBatch()));
          batch.add(kv);
        });
      });
    }
    for (const w of group.all()) {
      w.minRev = curRev + 1;
      const batch = batches.get(w);
      if (batch?.moreRev) w.minRev = batch.moreRev;
      if (batch) this.sendEvents(w, curRev, batch.kvs);
      if (!batch?.moreRev) {
        this.unsynced.delete(w);
        w.state = 'synced';
        this.synced.add(w);
      }
    }
    if (this.unsynced.size > 0) this.queueSync();
  }

  private sendEvents(w: Watcher, revision: number, kvs: KeyValue[]): void {
    const events: WatchEvent[] = [];
    for (const kv of kvs) {
      const deleted = isTombstone(kv);
      if (deleted ? w.noDelete : w.noPut) continue;
      const event: WatchEvent = { type: deleted ? 'DELETE' : 'PUT', kv };
      if (w.prevKv && (deleted || kv.createRevision !== kv.modRevision)) {
        const prev = this.previous(kv);
        if (prev) event.prevKv = prev;
      }
      events.push(event);
    }
    if (events.length === 0) return;
    w.idle = false;
    this.send(w, { header: { revision }, events });
  }

  /** The key's value just before the event, unless that revision has been compacted. */
  private previous(kv: KeyValue): KeyValue | undefined {
    const rev = kv.modRevision - 1;
    return rev < this.kv.compactRev ? undefined : this.kv.index.get(kv.key, rev);
  }

  private send(w: Watcher, response: WatchResponse): void {
    this.outbox.push([w, response]);
    if (this.deliveryQueued) return;
    this.deliveryQueued = true;
    this.clock.queueTask(() => this.deliver(), { label: 'etcd watch delivery' });
  }

  private deliver(): void {
    this.deliveryQueued = false;
    const batch = this.outbox;
    this.outbox = [];
    for (let i = 0; i < batch.length; i++) {
      const [w, response] = batch[i]!;
      if (w.dropped) continue;
      try {
        w.listener(response);
      } catch (err) {
        // A failing listener is its owner's bug; the others still get their responses.
        this.outbox = batch.slice(i + 1).concat(this.outbox);
        if (this.outbox.length > 0 && !this.deliveryQueued) {
          this.deliveryQueued = true;
          this.clock.queueTask(() => this.deliver(), { label: 'etcd watch delivery' });
        }
        throw err;
      }
    }
  }
}

/** One watcher's share of a replay, capped at MAX_REVISIONS_PER_RESPONSE revisions. */
class EventBatch {
  readonly kvs: KeyValue[] = [];
  private revs = 0;
  /** The first revision left for the next response, or 0. */
  moreRev = 0;

  add(kv: KeyValue): void {
    if (this.revs > MAX_REVISIONS_PER_RESPONSE) return;
    const last = this.kvs[this.kvs.length - 1];
    if (!last) {
      this.revs = 1;
    } else if (kv.modRevision > last.modRevision) {
      this.revs++;
      if (this.revs > MAX_REVISIONS_PER_RESPONSE) {
        this.moreRev = kv.modRevision;
        return;
      }
    }
    this.kvs.push(kv);
  }
}
