/**
 * The etcd view's model: the frames the host sends (every member's status at a virtual instant,
 * src/protocol/etcd.ts) kept in order for the charts and for replay, and the Raft messages of
 * the cluster's message stream paired up (a 'sent' record with the 'delivered' or 'dropped'
 * record that names it as its cause). Nothing here is computed from what happened but the
 * pairing: a role, a term, a log entry, a message and its fate are what the engine recorded.
 *
 * Messages between members take a fraction of a millisecond of virtual time (half the modelled
 * round trip), far too short to see; the view therefore plays each recorded message in slow
 * motion: its flight is drawn over FLIGHT_MS of wall time from when the webview received it, in
 * the order recorded, ending where the record says (at the receiver, or dropped midway).
 */
import type { EtcdFrameMessage, EtcdMemberView, EtcdMessageView, EtcdSettingsView } from '../../src/protocol/etcd';

/** Wall ms a message's flight is drawn over. */
export const FLIGHT_MS = 900;
/** Messages held for pairing and animation. */
const MESSAGE_CAPACITY = 4000;
/** Messages drawn in flight at most (the newest). */
export const MAX_IN_FLIGHT = 60;

export interface EtcdFrame {
  readonly time: number;
  readonly members: readonly EtcdMemberView[];
}

export interface RaftMessage {
  readonly sent: EtcdMessageView;
  /** The delivered or dropped record, once recorded. */
  outcome?: EtcdMessageView;
  /** Wall ms (performance.now) the webview received the 'sent' record. */
  readonly receivedAt: number;
}

export interface InFlight {
  readonly id: number;
  readonly msgType: string;
  readonly from: string;
  readonly to: string;
  readonly term: number;
  readonly entries: number;
  readonly reject: boolean;
  /** 0 at the sender, 1 at the receiver. */
  readonly progress: number;
  /** The record says it was dropped (the drawing stops at the middle and marks it). */
  readonly dropped: boolean;
  readonly reason?: string;
  /** The 'sent' record's virtual time. */
  readonly time: number;
}

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
  private readonly messages = new Map<number, RaftMessage>();
  private order: number[] = [];
  settings: EtcdSettingsView | undefined;
  droppedMessages = 0;
  /** Changes on every frame (the view redraws its still parts only then). */
  generation = 0;

  reset(cluster: boolean, capacity: number): void {
    this.cluster = cluster;
    this.capacity = Math.max(10, capacity);
    this.frames = [];
    this.messages.clear();
    this.order = [];
    this.droppedMessages = 0;
    this.settings = undefined;
    this.generation++;
  }

  /** One frame from the host; `wallNow` stamps its new messages for the slow-motion flight. */
  add(frame: EtcdFrameMessage, wallNow: number): void {
    this.cluster = true;
    this.settings = frame.settings;
    this.droppedMessages += frame.droppedMessages;
    const last = this.frames[this.frames.length - 1];
    if (last && frame.time < last.time) this.frames = this.frames.filter((f) => f.time <= frame.time);
    if (last && last.time === frame.time) this.frames[this.frames.length - 1] = { time: frame.time, members: frame.members };
    else this.frames.push({ time: frame.time, members: frame.members });
    if (this.frames.length > this.capacity) this.frames.splice(0, this.frames.length - this.capacity);
    // Messages of one frame leave one after another, in the order they were recorded.
    const sent = frame.messages.filter((m) => m.event === 'sent').length;
    const step = sent > 1 ? Math.min(40, 200 / sent) : 0;
    let k = 0;
    for (const m of frame.messages) {
      if (m.event === 'sent') {
        this.messages.set(m.id, { sent: m, receivedAt: wallNow + step * k++ });
        this.order.push(m.id);
      } else if (m.cause !== undefined) {
        const msg = this.messages.get(m.cause);
        if (msg) msg.outcome = m;
      }
    }
    if (this.order.length > MESSAGE_CAPACITY) {
      for (const id of this.order.splice(0, this.order.length - MESSAGE_CAPACITY)) this.messages.delete(id);
    }
    this.generation++;
  }

  get frameCount(): number {
    return this.frames.length;
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

  /** The messages drawn in flight at wall time `wallNow` (the newest MAX_IN_FLIGHT). */
  inFlight(wallNow: number): InFlight[] {
    const out: InFlight[] = [];
    for (let i = this.order.length - 1; i >= 0 && out.length < MAX_IN_FLIGHT; i--) {
      const m = this.messages.get(this.order[i]!)!;
      const age = wallNow - m.receivedAt;
      if (age > FLIGHT_MS) break;
      if (age < 0) continue;
      const dropped = m.outcome?.event === 'dropped';
      // A message dropped at once (its receiver stopped or cut off) is drawn leaving and stopped midway.
      const progress = dropped ? Math.min(0.5, age / FLIGHT_MS) : age / FLIGHT_MS;
      out.push({
        id: m.sent.id,
        msgType: m.sent.msgType,
        from: m.sent.from,
        to: m.sent.to,
        term: m.sent.term,
        entries: m.sent.entries,
        reject: m.sent.reject,
        progress,
        dropped,
        ...(m.outcome?.reason ? { reason: m.outcome.reason } : {}),
        time: m.sent.time,
      });
    }
    return out.reverse();
  }

  /** Whether any message is still being drawn (the view keeps animating while one is). */
  animating(wallNow: number): boolean {
    const id = this.order[this.order.length - 1];
    const m = id === undefined ? undefined : this.messages.get(id);
    return m !== undefined && wallNow - m.receivedAt <= FLIGHT_MS;
  }

  /** Message counts by type over the messages held (for the legend). */
  messageCounts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const id of this.order) {
      const t = this.messages.get(id)!.sent.msgType;
      out.set(t, (out.get(t) ?? 0) + 1);
    }
    return out;
  }

  /**
   * A chart's series over the frames up to `until` (virtual ms): the leader's figure at each
   * frame (the member a client's writes go through), else the highest a running member reports.
   */
  series(field: 'dbSizeBytes' | 'revisionsPerSecond' | 'commitLatencyMs', until?: number): ChartSeries {
    const points: ChartPoint[] = [];
    let reported = false;
    for (const f of this.frames) {
      if (until !== undefined && f.time > until) break;
      const lead = f.members.find((m) => m.role === 'leader' && m.state === 'running');
      const pick = (m: EtcdMemberView): number | undefined => {
        const v = m[field];
        return typeof v === 'number' ? v : undefined;
      };
      let v = lead ? pick(lead) : undefined;
      if (v === undefined) {
        for (const m of f.members) {
          const x = m.state === 'running' ? pick(m) : undefined;
          if (x !== undefined && (v === undefined || x > v)) v = x;
        }
      }
      if (f.members.some((m) => m[field] !== undefined)) reported = true;
      if (v !== undefined) points.push({ time: f.time, value: v });
    }
    return reported ? { reported: true, points } : { reported: false };
  }
}

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

export interface EtcdLayout {
  readonly ring: { readonly cx: number; readonly cy: number; readonly r: number };
  readonly nodes: readonly { readonly name: string; readonly x: number; readonly y: number; readonly r: number }[];
  readonly logs: { readonly x: number; readonly y: number; readonly w: number; readonly rowH: number; readonly labelW: number; readonly cellW: number; readonly cols: number };
  readonly charts: readonly { readonly field: 'dbSizeBytes' | 'revisionsPerSecond' | 'commitLatencyMs'; readonly x: number; readonly y: number; readonly w: number; readonly h: number }[];
}

const CHARTS_H = 140;
const PAD = 16;

/** Where everything goes in a canvas of w x h CSS pixels for these members (RaftScope's ring, then the logs, then the charts). */
export function layoutEtcd(names: readonly string[], w: number, h: number): EtcdLayout {
  const topH = Math.max(200, h - CHARTS_H - PAD);
  const ringW = Math.max(260, Math.min(w * 0.42, topH + 80));
  const cx = PAD + ringW / 2;
  const cy = topH / 2 + 18;
  const nodeR = Math.max(26, Math.min(44, topH / 9));
  const r = names.length === 1 ? 0 : Math.max(nodeR * 1.6, Math.min(ringW / 2, topH / 2) - nodeR - 30);
  const nodes = names.map((name, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / names.length;
    return { name, x: cx + r * Math.cos(a), y: cy + r * Math.sin(a), r: nodeR };
  });
  const lx = PAD * 2 + ringW;
  const lw = Math.max(120, w - lx - PAD);
  const labelW = 64;
  const cellW = 16;
  const rowH = Math.max(22, Math.min(36, (topH - 60) / Math.max(1, names.length)));
  const cols = Math.max(1, Math.floor((lw - labelW) / cellW));
  const cy0 = topH + PAD;
  const cw = (w - PAD * 4) / 3;
  const fields = ['dbSizeBytes', 'revisionsPerSecond', 'commitLatencyMs'] as const;
  return {
    ring: { cx, cy, r },
    nodes,
    logs: { x: lx, y: 40, w: lw, rowH, labelW, cellW, cols },
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
