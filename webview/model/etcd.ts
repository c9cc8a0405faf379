/**
 * The etcd view's model: the frames the host sends (every member's status at a virtual instant,
 * src/protocol/etcd.ts) kept in order for the charts and for replay, and the Raft messages of
 * the cluster's message stream (the engine's etcd.message records) paired up: a 'sent' record
 * with the 'delivered' or 'dropped' record that names it as its cause. Nothing here is computed
 * from what happened but the pairing: a role, a term, a log entry, a message and its fate are
 * what the engine recorded.
 *
 * Messages are drawn as RaftScope draws them (raft.github.io): at a virtual instant t, a message
 * sent at s and delivered at d (s <= t < d) is a dot (t - s) / (d - s) of the way from its sender
 * to its receiver. The instant is the view's (see RaftLens): the timeline's, or a slow-motion
 * clock the view runs from it, so that a flight of a fraction of a millisecond can be watched.
 */
import type { EtcdFrameMessage, EtcdMemberView, EtcdMessageView, EtcdSettingsView, WatchCacheResourceView, WatchCacheView } from '../../src/protocol/etcd';

/** Messages held for pairing and replay (about four minutes of a quiet 3-member cluster's heartbeats). */
export const MESSAGE_CAPACITY = 20_000;
/** Messages drawn at one instant at most (the newest). */
export const MAX_IN_FLIGHT = 80;

export interface EtcdFrame {
  readonly time: number;
  readonly members: readonly EtcdMemberView[];
  /** The API server's watch caches read at the same instant (absent: the host has none to read). */
  readonly watchCache?: WatchCacheView;
}

interface HeldMessage {
  readonly sent: EtcdMessageView;
  /** The delivered or dropped record, once recorded. */
  outcome?: EtcdMessageView;
}

/**
 * A message as drawn at an instant: 'flying' between sent and its outcome; 'dropped' for a
 * while after the record says it was dropped (the ✕ stays up for one one-way delay of virtual
 * time, or the instant, so that a drop can be seen); 'instant' when it was sent and delivered
 * within the same virtual instant (the instant latency model): drawn as an arrow at that instant.
 */
export interface InFlight {
  readonly id: number;
  readonly msgType: string;
  readonly from: string;
  readonly to: string;
  readonly term: number;
  readonly index: number;
  readonly commit: number;
  readonly entries: number;
  readonly reject: boolean;
  /** 0 at the sender, 1 at the receiver. */
  readonly progress: number;
  readonly state: 'flying' | 'dropped' | 'instant';
  /** For a drop: the sender or receiver was stopped, or cut off by a partition. */
  readonly reason?: string;
  /** The 'sent' record's virtual time. */
  readonly sentAt: number;
  /** The delivered or dropped record's virtual time (absent: not recorded yet, still on its way). */
  readonly endAt?: number;
}

/** Where a dropped message's ✕ is drawn along its line: near the sender if dropped as it left. */
const DROP_AT_SEND = 0.18;

export interface ChartPoint {
  readonly time: number;
  readonly value: number;
}

export type ChartSeries = { readonly reported: true; readonly points: readonly ChartPoint[] } | { readonly reported: false };

export class EtcdModel {
  /** The store is the simulated cluster (false: a real etcd, or nothing synced yet). */
  cluster = false;
  private frames: EtcdFrame[] = [];
  private capacity = 6000;
  /** In the order recorded (sent time never decreases). */
  private held: HeldMessage[] = [];
  private readonly byId = new Map<number, HeldMessage>();
  /** The longest flight recorded (virtual ms): how far back a search for messages in the air looks. */
  private longest = 0;
  /** From this virtual time on, every message the stream recorded is held (undefined: none held yet). */
  messagesFrom: number | undefined;
  settings: EtcdSettingsView | undefined;
  droppedMessages = 0;
  /** Changes on every frame (the view redraws its still parts only then). */
  generation = 0;

  reset(cluster: boolean, capacity: number): void {
    this.cluster = cluster;
    this.capacity = Math.max(10, capacity);
    this.frames = [];
    this.held = [];
    this.byId.clear();
    this.longest = 0;
    this.messagesFrom = undefined;
    this.droppedMessages = 0;
    this.settings = undefined;
    this.generation++;
  }

  /** One frame from the host. */
  add(frame: EtcdFrameMessage): void {
    this.cluster = true;
    this.settings = frame.settings;
    this.droppedMessages += frame.droppedMessages;
    const last = this.frames[this.frames.length - 1];
    if (last && frame.time < last.time) this.frames = this.frames.filter((f) => f.time <= frame.time);
    const kept: EtcdFrame = { time: frame.time, members: frame.members, ...(frame.watchCache ? { watchCache: frame.watchCache } : {}) };
    if (last && last.time === frame.time) this.frames[this.frames.length - 1] = kept;
    else this.frames.push(kept);
    if (this.frames.length > this.capacity) this.frames.splice(0, this.frames.length - this.capacity);
    // The host keeps the newest messages of a burst: what came before them has a hole.
    const first = frame.messages[0];
    if (first && (this.messagesFrom === undefined || frame.droppedMessages > 0)) this.messagesFrom = first.time;
    for (const m of frame.messages) {
      if (m.event === 'sent') {
        const h: HeldMessage = { sent: m };
        this.held.push(h);
        this.byId.set(m.id, h);
      } else if (m.cause !== undefined) {
        const h = this.byId.get(m.cause);
        if (h) {
          h.outcome = m;
          this.longest = Math.max(this.longest, m.time - h.sent.time);
        }
      }
    }
    if (this.held.length > MESSAGE_CAPACITY * 1.1) {
      for (const h of this.held.splice(0, this.held.length - MESSAGE_CAPACITY)) this.byId.delete(h.sent.id);
      this.messagesFrom = Math.max(this.messagesFrom ?? -Infinity, this.held[0]!.sent.time);
    }
    this.generation++;
  }

  get frameCount(): number {
    return this.frames.length;
  }

  get messageCount(): number {
    return this.held.length;
  }

  latest(): EtcdFrame | undefined {
    return this.frames[this.frames.length - 1];
  }

  /** The newest frame at or before virtual time `time` (replay), or undefined if none is held that early. */
  at(time: number | undefined): EtcdFrame | undefined {
    if (time === undefined) return this.latest();
    let lo = 0;
    let hi = this.frames.length - 1;
    let found: EtcdFrame | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = this.frames[mid]!;
      if (f.time <= time) {
        found = f;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** The virtual time of the oldest frame held. */
  get heldFrom(): number | undefined {
    return this.frames[0]?.time;
  }

  /** One way of a message in the latency model (ms). */
  private get oneWay(): number {
    return (this.settings?.rttMs ?? 0) / 2;
  }

  /** How long a drop stays drawn (virtual ms): one one-way delay (0 with the instant model: that instant only). */
  get dropShownMs(): number {
    return this.oneWay;
  }

  /** The first held message sent at or after `time`. */
  private lowerBound(time: number): number {
    let lo = 0;
    let hi = this.held.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.held[mid]!.sent.time < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The messages in the air at virtual time `t`, as the records place them (the newest MAX_IN_FLIGHT). */
  messagesAt(t: number): InFlight[] {
    const oneWay = this.oneWay;
    const latest = this.latest()?.time ?? -Infinity;
    const back = Math.max(this.longest, oneWay) * 2 + this.dropShownMs;
    const out: InFlight[] = [];
    for (let i = this.upperBound(t) - 1; i >= 0 && out.length < MAX_IN_FLIGHT; i--) {
      const h = this.held[i]!;
      const s = h.sent.time;
      if (s < t - back) break;
      const o = h.outcome;
      let state: InFlight['state'];
      let progress: number;
      if (!o) {
        // Not delivered nor dropped by the newest frame: on its way (a frame later says where it went).
        if (t > latest || oneWay === 0) continue;
        state = 'flying';
        progress = Math.min(0.95, (t - s) / oneWay);
      } else if (o.event === 'delivered') {
        if (o.time > t) {
          state = 'flying';
          progress = (t - s) / (o.time - s);
        } else if (o.time === s && s === t) {
          state = 'instant';
          progress = 1;
        } else continue;
      } else {
        if (o.time > t) {
          state = 'flying';
          progress = oneWay > 0 ? Math.min(0.95, (t - s) / Math.max(oneWay, o.time - s)) : 0.5;
        } else if (t - o.time <= this.dropShownMs) {
          state = 'dropped';
          progress = o.time === s ? DROP_AT_SEND : Math.min(0.95, (o.time - s) / Math.max(oneWay, o.time - s));
        } else continue;
      }
      const m = h.sent;
      out.push({
        id: m.id,
        msgType: m.msgType,
        from: m.from,
        to: m.to,
        term: m.term,
        index: m.index,
        commit: m.commit,
        entries: m.entries,
        reject: m.reject,
        progress,
        state,
        ...(o?.reason ? { reason: o.reason } : {}),
        sentAt: s,
        ...(o ? { endAt: o.time } : {}),
      });
    }
    return out.reverse();
  }

  /** The first held message sent after `time`. */
  private upperBound(time: number): number {
    let lo = 0;
    let hi = this.held.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.held[mid]!.sent.time <= time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The virtual time of the next message record (a send, a delivery, a drop) after `t`, if one is held. */
  nextEvent(t: number): number | undefined {
    let best: number | undefined;
    const i = this.upperBound(t);
    if (i < this.held.length) best = this.held[i]!.sent.time;
    const back = Math.max(this.longest, this.oneWay) * 2;
    for (let j = i - 1; j >= 0; j--) {
      const h = this.held[j]!;
      if (h.sent.time < t - back) break;
      const e = h.outcome?.time;
      if (e !== undefined && e > t && (best === undefined || e < best)) best = e;
    }
    return best;
  }

  /** The virtual time of the last message record before `t`, if one is held. */
  prevEvent(t: number): number | undefined {
    let best: number | undefined;
    const i = this.lowerBound(t);
    if (i > 0) best = this.held[i - 1]!.sent.time;
    const back = Math.max(this.longest, this.oneWay) * 2;
    for (let j = i - 1; j >= 0; j--) {
      const h = this.held[j]!;
      if (h.sent.time < (best ?? t) - back) break;
      const e = h.outcome?.time;
      if (e !== undefined && e < t && (best === undefined || e > best)) best = e;
    }
    return best;
  }

  /** The sent time of the newest message held. */
  get newestSent(): number | undefined {
    return this.held[this.held.length - 1]?.sent.time;
  }

  /** Message counts by type over the messages held (for the legend). */
  messageCounts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const h of this.held) out.set(h.sent.msgType, (out.get(h.sent.msgType) ?? 0) + 1);
    return out;
  }

  /**
   * A chart's series over the frames held (from `from`, up to `until`, virtual ms): the
   * leader's figure at each frame (the member a client's writes go through), else the highest a
   * running member reports; for watchers, the sum over the running members (each counts the
   * watches its own clients opened, etcd_debugging_mvcc_watcher_total); for apiserverWatchers,
   * the watchers the API server's watch caches serve (apiserver_registered_watchers, summed).
   */
  series(field: ChartField | 'apiserverWatchers', until?: number): ChartSeries {
    const points: ChartPoint[] = [];
    let reported = false;
    if (field === 'apiserverWatchers') {
      for (const f of this.frames) {
        if (until !== undefined && f.time > until) break;
        if (!f.watchCache) continue;
        reported = true;
        points.push({ time: f.time, value: f.watchCache.watchers });
      }
      return reported ? { reported: true, points } : { reported: false };
    }
    const pick = (m: EtcdMemberView): number | undefined => {
      const v = m[field];
      return typeof v === 'number' ? v : undefined;
    };
    for (const f of this.frames) {
      if (until !== undefined && f.time > until) break;
      if (f.members.some((m) => m[field] !== undefined)) reported = true;
      let v: number | undefined;
      if (field === 'watchers') {
        for (const m of f.members) {
          const x = m.state === 'running' ? pick(m) : undefined;
          if (x !== undefined) v = (v ?? 0) + x;
        }
      } else {
        const lead = f.members.find((m) => m.role === 'leader' && m.state === 'running');
        v = lead ? pick(lead) : undefined;
        if (v === undefined) {
          for (const m of f.members) {
            const x = m.state === 'running' ? pick(m) : undefined;
            if (x !== undefined && (v === undefined || x > v)) v = x;
          }
        }
      }
      if (v !== undefined) points.push({ time: f.time, value: v });
    }
    return reported ? { reported: true, points } : { reported: false };
  }
}

/** The charts, left to right. */
export const CHART_FIELDS = ['dbSizeBytes', 'revisionsPerSecond', 'commitLatencyMs', 'watchers'] as const;
export type ChartField = (typeof CHART_FIELDS)[number];

/** The leader of a frame: the running member in the leader role with the highest term. */
export function leaderOf(members: readonly EtcdMemberView[]): EtcdMemberView | undefined {
  let best: EtcdMemberView | undefined;
  for (const m of members) if (m.state === 'running' && m.role === 'leader' && (!best || m.term > best.term)) best = m;
  return best;
}

/** A member's state in words, as the sidebar and the view say it. */
export function memberStateText(m: EtcdMemberView): string {
  const parts: string[] = [m.state === 'stopped' ? 'stopped' : 'running'];
  if (m.partitioned) parts.push('partitioned');
  if (m.slowFsyncMs !== undefined) parts.push(`slow disk (${m.slowFsyncMs} ms fsync)`);
  return parts.join(', ');
}

/** The role a member shows: a stopped member has none. */
export function roleText(m: EtcdMemberView): string {
  return m.state === 'stopped' ? 'stopped' : m.role;
}

/**
 * The rows of the watch cache table: resources with watchers first (most first), then those
 * with the most events in their window, then by name; at most `limit`, and what the rest hold.
 * Only the order and the cut are the view's: every figure is the engine's.
 */
export function watchCacheRows(wc: WatchCacheView, limit: number): { rows: WatchCacheResourceView[]; hidden: { resources: number; objects: number; watchers: number } } {
  const sorted = [...wc.resources].sort((a, b) => b.watchers - a.watchers || b.events - a.events || b.objects - a.objects || (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  const n = Math.max(0, limit);
  const rest = sorted.slice(n);
  let objects = 0;
  let watchers = 0;
  for (const r of rest) {
    objects += r.objects;
    watchers += r.watchers;
  }
  return { rows: sorted.slice(0, n), hidden: { resources: rest.length, objects, watchers } };
}

export interface EtcdLayout {
  readonly ring: { readonly cx: number; readonly cy: number; readonly r: number };
  readonly nodes: readonly { readonly name: string; readonly x: number; readonly y: number; readonly r: number }[];
  readonly logs: { readonly x: number; readonly y: number; readonly w: number; readonly rowH: number; readonly labelW: number; readonly cellW: number; readonly cols: number };
  /** The watch cache table, under the logs' term key: `rows` rows of `rowH` under its two header lines. */
  readonly cache: { readonly x: number; readonly y: number; readonly w: number; readonly h: number; readonly rowH: number; readonly rows: number };
  readonly charts: readonly { readonly field: ChartField; readonly x: number; readonly y: number; readonly w: number; readonly h: number }[];
}

const CHARTS_H = 140;
const PAD = 16;
/** The watch cache table's title, summary and column lines above its rows. */
export const CACHE_HEAD_H = 50;

/** Where everything goes in a canvas of w x h CSS pixels for these members (RaftScope's ring, then the logs, then the charts). */
export function layoutEtcd(names: readonly string[], w: number, h: number): EtcdLayout {
  const topH = Math.max(200, h - CHARTS_H - PAD);
  const ringW = Math.max(260, Math.min(w * 0.42, topH + 80));
  const cx = PAD + ringW / 2;
  // Room for a member's labels: three lines above a top member, four below a bottom one.
  const cy = topH / 2 + 4;
  const nodeR = Math.max(26, Math.min(44, topH / 9));
  const r = names.length === 1 ? 0 : Math.max(nodeR * 1.6, Math.min(ringW / 2, topH / 2) - nodeR - 60);
  const nodes = names.map((name, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / names.length;
    return { name, x: cx + r * Math.cos(a), y: cy + r * Math.sin(a), r: nodeR };
  });
  const lx = PAD * 2 + ringW;
  const lw = Math.max(120, w - lx - PAD);
  const labelW = 64;
  const cellW = 16;
  // The log strips leave the column's lower part to the watch cache table.
  const rowH = Math.max(22, Math.min(30, (topH - 60) / Math.max(1, names.length)));
  const cols = Math.max(1, Math.floor((lw - labelW) / cellW));
  const cacheY = 40 + names.length * rowH + 34;
  const cacheH = Math.max(0, topH - cacheY);
  const cacheRowH = 16;
  const cy0 = topH + PAD;
  const fields = CHART_FIELDS;
  const cw = (w - PAD * (fields.length + 1)) / fields.length;
  return {
    ring: { cx, cy, r },
    nodes,
    logs: { x: lx, y: 40, w: lw, rowH, labelW, cellW, cols },
    cache: { x: lx, y: cacheY, w: lw, h: cacheH, rowH: cacheRowH, rows: Math.max(0, Math.floor((cacheH - CACHE_HEAD_H) / cacheRowH)) },
    charts: fields.map((field, i) => ({ field, x: PAD + i * (cw + PAD), y: cy0, w: cw, h: CHARTS_H - 10 })),
  };
}

/** The index window the log strips show: the newest `cols` indexes of any member. */
export function logWindow(members: readonly EtcdMemberView[], cols: number): { from: number; to: number } {
  let to = 0;
  for (const m of members) to = Math.max(to, m.lastIndex);
  return { from: Math.max(1, to - cols + 1), to };
}

/** A point along the line between two members at `t` (0..1), bowed a little so that the two directions do not overlap. */
export function flightPoint(a: { x: number; y: number }, b: { x: number; y: number }, t: number, rA: number, rB: number): { x: number; y: number } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const sx = a.x + ux * rA;
  const sy = a.y + uy * rA;
  const ex = b.x - ux * rB;
  const ey = b.y - uy * rB;
  // Offset to the right of the direction of travel.
  const off = 8;
  return { x: sx + (ex - sx) * t - uy * off, y: sy + (ey - sy) * t + ux * off };
}

/** Wall ms one one-way flight takes to watch in slow motion. */
export const FLIGHT_WALL_MS = 900;
/** Wall ms an instant's messages (instant latency model) or a drop stay up before the lens moves on. */
export const HOLD_WALL_MS = 700;
/** Live, the lens lets the cluster run ahead by at most this much virtual time before it jumps to the newest messages. */
export const LIVE_LAG_MS = 250;

/**
 * The etcd view's clock: the virtual instant it draws. It sits at the timeline's instant (the
 * revision scrubbed to, or the newest frame when live) and, playing, runs from there in slow
 * motion, RaftScope's way: a flight of one one-way delay over FLIGHT_WALL_MS of wall time; when
 * nothing is in the air it skips to the next message record (a heartbeat interval has nothing
 * to watch between its rounds). Live, it plays on its own and, when the cluster has run ahead by
 * more than LIVE_LAG_MS, jumps to the newest round of messages. Every instant it stops at is a
 * virtual time of the records: the pace is the only thing it chooses.
 */
export class RaftLens {
  /** The instant drawn (undefined: nothing held yet). */
  time: number | undefined;
  playing = true;
  /** Idle virtual time skipped by the last jump (for the banner). */
  skippedMs = 0;
  private base: number | undefined;
  private hold = 0;

  /**
   * The timeline moved (a scrub, a step, back to live): the lens goes to its instant, paused in
   * replay and playing live. `base` undefined: live.
   */
  follow(base: number | undefined, model: EtcdModel): void {
    if (base === this.base && this.time !== undefined) return;
    this.base = base;
    this.skippedMs = 0;
    this.hold = 0;
    if (base === undefined) {
      this.playing = true;
      this.time = model.newestSent ?? model.latest()?.time;
    } else {
      this.playing = false;
      this.time = base;
    }
  }

  get live(): boolean {
    return this.base === undefined;
  }

  /** Advances the lens by `wallMs` of wall time; returns whether it wants another frame. */
  tick(wallMs: number, model: EtcdModel): boolean {
    if (this.time === undefined) {
      this.time = this.live ? (model.newestSent ?? model.latest()?.time) : this.base;
      return this.playing;
    }
    if (!this.playing) return false;
    const head = model.latest()?.time ?? this.time;
    const oneWay = (model.settings?.rttMs ?? 0) / 2;
    const air = model.messagesAt(this.time);
    if (air.some((m) => m.state === 'flying') && oneWay > 0) {
      this.time = Math.min(head, this.time + (wallMs * oneWay) / FLIGHT_WALL_MS);
      this.hold = 0;
      return true;
    }
    if (air.length > 0 && this.hold < HOLD_WALL_MS) {
      this.hold += wallMs;
      return true;
    }
    this.hold = 0;
    let next = model.nextEvent(this.time);
    if (this.live && model.newestSent !== undefined && (next === undefined || head - next > LIVE_LAG_MS)) {
      next = model.newestSent > this.time ? model.newestSent : next;
    }
    if (next === undefined || next > head) {
      // Caught up: live waits for the next frame, replay stops at the newest record.
      if (!this.live) this.playing = false;
      return this.live;
    }
    this.skippedMs = next - this.time;
    this.time = next;
    return true;
  }

  /** One message record on (n > 0) or back (n < 0), paused. */
  step(n: number, model: EtcdModel): void {
    if (this.time === undefined) return;
    this.playing = false;
    this.hold = 0;
    const to = n > 0 ? model.nextEvent(this.time) : model.prevEvent(this.time);
    if (to === undefined) return;
    this.skippedMs = to - this.time;
    this.time = to;
  }

  toggle(): void {
    this.playing = !this.playing;
    this.hold = 0;
  }
}

/** A virtual time to the microsecond: 00:00:12.345 678 (Raft messages take fractions of a millisecond). */
export function formatMicros(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.round((ms - whole) * 1000);
  const base = new Date(whole + (micros === 1000 ? 1 : 0)).toISOString().slice(11, 23);
  return `${base} ${String(micros === 1000 ? 0 : micros).padStart(3, '0')}`;
}

/**
 * The time axis the charts share: from the earliest report of any series to the latest report or
 * the instant drawn, whichever is later (live, the cursor is "now", past the last report). No axis
 * while fewer than two reports exist.
 */
export function chartAxis(series: readonly (readonly { time: number }[])[], cursor: number): { t0: number; t1: number } | undefined {
  let t0 = Infinity;
  let t1 = -Infinity;
  let n = 0;
  for (const pts of series) {
    if (pts.length === 0) continue;
    n += pts.length;
    t0 = Math.min(t0, pts[0]!.time);
    t1 = Math.max(t1, pts[pts.length - 1]!.time);
  }
  if (n < 2) return undefined;
  if (cursor > t1) t1 = cursor;
  return { t0, t1: Math.max(t0 + 1, t1) };
}
