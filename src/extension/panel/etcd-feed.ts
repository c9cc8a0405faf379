/**
 * The etcd view's feed (src/protocol/etcd.ts): at most every FRAME_MS of wall time while the
 * panel is live and virtual time moved or messages were recorded, one frame with every
 * member's status as EtcdCluster.status() reports it and the Raft messages the cluster's
 * message stream recorded since the previous frame (bounded: a burst keeps its newest
 * MAX_MESSAGES and says how many it left out), and the API server's watch caches as
 * ClusterStorage.watchCacheStatus() reports them at the same instant. The projection copies
 * the engine's fields; it computes nothing.
 */
import type { EtcdCluster, MemberStatus } from '../../engine/store/etcdserver';
import type { EtcdMessageRecord } from '../../engine/trace/etcd';
import type { WatchCacheStatus } from '../../engine/apiserver/storage/cluster-storage';
import type { EtcdFrameMessage, EtcdMemberView, EtcdMessageView, EtcdResetMessage, WatchCacheView } from '../../protocol/etcd';

/** Wall ms between frames. */
export const FRAME_MS = 100;
/** Raft messages per frame at most (a 3-member cluster sends about 40 a second of virtual time when idle). */
export const MAX_MESSAGES = 2000;
/** Frames the webview keeps (charts and replay): 30 minutes of frames at one per virtual second... or more often. */
export const FRAME_CAPACITY = 6000;

/** The parts of the engine's EtcdCluster the feed reads. */
export type FeedCluster = Pick<EtcdCluster, 'status' | 'messages' | 'latency' | 'timings'>;

/** Fields MemberStatus gains as the engine reports more (read when present, never invented). */
type Extra = Partial<{ dbSizeInUseBytes: number; quotaBackendBytes: number; alarms: readonly string[]; revisionsPerSecond: number; commitLatencyMs: number | null; watchers: number }>;

export function memberView(s: MemberStatus): EtcdMemberView {
  const x = s as MemberStatus & Extra;
  return {
    name: s.name,
    id: s.id,
    role: s.role,
    state: s.state,
    partitioned: s.partitioned,
    ...(s.slowFsyncMs !== undefined ? { slowFsyncMs: s.slowFsyncMs } : {}),
    term: s.term,
    ...(s.vote !== undefined ? { vote: s.vote } : {}),
    ...(s.lead !== undefined ? { lead: s.lead } : {}),
    commitIndex: s.commitIndex,
    appliedIndex: s.appliedIndex,
    firstIndex: s.firstIndex,
    lastIndex: s.lastIndex,
    revision: s.revision,
    compactRevision: s.compactRevision,
    dbSizeBytes: s.dbSizeBytes,
    ...(typeof x.dbSizeInUseBytes === 'number' ? { dbSizeInUseBytes: x.dbSizeInUseBytes } : {}),
    ...(typeof x.quotaBackendBytes === 'number' ? { quotaBackendBytes: x.quotaBackendBytes } : {}),
    ...(Array.isArray(x.alarms) ? { alarms: [...x.alarms] } : {}),
    ...(typeof x.watchers === 'number' ? { watchers: x.watchers } : {}),
    ...(typeof x.revisionsPerSecond === 'number' ? { revisionsPerSecond: x.revisionsPerSecond } : {}),
    ...(x.commitLatencyMs === null || typeof x.commitLatencyMs === 'number' ? { commitLatencyMs: x.commitLatencyMs } : {}),
    log: s.log.map((e) => ({ index: e.index, term: e.term, kind: e.kind })),
  };
}

export function messageView(r: EtcdMessageRecord): EtcdMessageView {
  return {
    id: r.id,
    time: r.time,
    event: r.event,
    ...(r.cause !== undefined ? { cause: r.cause } : {}),
    msgType: r.msgType,
    from: r.from,
    to: r.to,
    term: r.term,
    index: r.index,
    logTerm: r.logTerm,
    commit: r.commit,
    entries: r.entries,
    reject: r.reject,
    ...(r.reason ? { reason: r.reason } : {}),
  };
}

export function watchCacheView(s: WatchCacheStatus): WatchCacheView {
  return {
    resourceVersion: s.resourceVersion,
    objects: s.objects,
    events: s.events,
    watchers: s.watchers,
    resources: s.resources.map((r) => ({ resource: r.resource, resourceVersion: r.resourceVersion, objects: r.objects, events: r.events, capacity: r.capacity, watchers: r.watchers })),
  };
}

export interface FeedTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const realTimers: FeedTimers = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

export class EtcdFeed {
  private pending: EtcdMessageView[] = [];
  private dropped = 0;
  private lastTime = Number.NaN;
  private readonly timer: unknown;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly cluster: FeedCluster | undefined,
    private readonly now: () => number,
    private readonly post: (m: EtcdFrameMessage | EtcdResetMessage) => void,
    private readonly timers: FeedTimers = realTimers,
    /** The API server's watch caches (absent: no API server beside this cluster). */
    private readonly watchCache?: () => WatchCacheStatus,
  ) {
    this.unsubscribe = cluster
      ? cluster.messages.subscribe((r) => {
          if (r.type !== 'etcd.message') return;
          this.pending.push(messageView(r));
          if (this.pending.length > 2 * MAX_MESSAGES) {
            const cut = this.pending.length - MAX_MESSAGES;
            this.pending.splice(0, cut);
            this.dropped += cut;
          }
        })
      : () => undefined;
    this.timer = timers.setInterval(() => this.flush(false), FRAME_MS);
  }

  /** A (re-)sync: the reset, then a frame with every message the stream still holds (it is bounded), for replay. */
  reset(): void {
    this.post({ type: 'etcd.reset', cluster: this.cluster !== undefined, capacity: FRAME_CAPACITY });
    if (!this.cluster) return;
    const held = this.cluster.messages.records().filter((r): r is EtcdMessageRecord => r.type === 'etcd.message');
    this.pending = held.map(messageView);
    this.dropped = 0;
    this.flush(true, this.pending.length);
  }

  /** Posts a frame if virtual time moved or messages were recorded (or `force`). */
  flush(force: boolean, limit = MAX_MESSAGES): void {
    const c = this.cluster;
    if (!c) return;
    const time = this.now();
    if (!force && time === this.lastTime && this.pending.length === 0) return;
    this.lastTime = time;
    let messages = this.pending;
    let dropped = this.dropped;
    if (messages.length > limit) {
      dropped += messages.length - limit;
      messages = messages.slice(-limit);
    }
    this.pending = [];
    this.dropped = 0;
    const l = c.latency;
    const t = c.timings;
    this.post({
      type: 'etcd',
      time,
      members: c.status().map(memberView),
      messages,
      droppedMessages: dropped,
      settings: { apiserverMs: l.apiserverMs, rttMs: l.rttMs, walFsyncMs: l.walFsyncMs, tickMs: t.tickMs, electionTicks: t.electionTicks },
      ...(this.watchCache ? { watchCache: watchCacheView(this.watchCache()) } : {}),
    });
  }

  dispose(): void {
    this.timers.clearInterval(this.timer);
    this.unsubscribe();
  }
}
