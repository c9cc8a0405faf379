/**
 * The etcd tab, in the manner of RaftScope (raft.github.io): the members of the simulated etcd
 * cluster on a ring, each with its role, term, commit and applied index and state; the Raft
 * messages of the engine's message stream in the air between them at the instant drawn (each
 * at the fraction of its flight its sent and delivered records put it at); a log strip per
 * member coloured by term with its commit mark; and charts over virtual time of the bbolt
 * file's size, revisions/s, commit latency and watchers, with a cursor at the instant drawn.
 * The instant is the lens's (webview/model/etcd.ts, RaftLens): the timeline's, played on from
 * there in slow motion. Arrow keys move between members; the member's facts and its actions
 * (the sidebar's) sit under the picture.
 *
 * `hitTest` is the model layer the UI tests read: which member is drawn where, with which role,
 * term and log, and which messages are in flight.
 */
import { etcdActionsFor, raisedAlarms, type EtcdAction, type EtcdMemberView, type EtcdResultMessage, type WatchCacheResourceView } from '../../src/protocol/etcd';
import { CACHE_HEAD_H, CHART_FIELDS, chartAxis, EtcdModel, FLIGHT_WALL_MS, flightPoint, formatMicros, layoutEtcd, leaderOf, logWindow, memberStateText, RaftLens, roleText, watchCacheRows, type ChartField, type ChartSeries, type EtcdFrame, type EtcdLayout, type InFlight } from '../model/etcd';
import { formatTime } from '../model/format';
import { own } from '../../src/protocol/own';
import { fit } from './canvas-text';
import { button, iconButton } from './components';
import { h, replaceChildren } from './dom';
import { readPalette, type ColorName, type Palette } from './palette';

export interface EtcdViewHost {
  /** The virtual time the timeline shows (undefined: live). */
  replayTime(): number | undefined;
  act(action: EtcdAction, member: string): void;
  /** Asks for another animation frame (the lens was started). */
  wake(): void;
}

export interface EtcdHitTest {
  cluster: boolean;
  /** The virtual instant drawn (the lens's). */
  time: number | undefined;
  /** The status frame the members are drawn from (the newest at or before `time`). */
  frameTime: number | undefined;
  replay: boolean;
  lens: { playing: boolean; live: boolean; skippedMs: number };
  /** From this virtual time on, every Raft message recorded is held. */
  messagesFrom: number | undefined;
  leader: string | undefined;
  members: {
    name: string;
    role: string;
    state: string;
    term: number;
    commitIndex: number;
    appliedIndex: number;
    lastIndex: number;
    logLength: number;
    partitioned: boolean;
    slowDisk: boolean;
    x: number;
    y: number;
    r: number;
  }[];
  inFlight: (InFlight & { x: number; y: number })[];
  /** Each chart, and each line it draws (the watchers chart: the API server's and etcd's). */
  charts: { field: string; reported: boolean; points: number; last?: number; atCursor?: number; /** The shared time axis and where the cursor is drawn (absent: not drawn). */ axis?: { t0: number; t1: number }; cursorX?: number; lines: { key: string; label: string; points: number; last?: number; atCursor?: number }[]; x: number; y: number; w: number; h: number }[];
  /** The watch cache table as drawn (undefined: no room for it, or nothing drawn yet). */
  watchCache: WatchCacheDrawn | undefined;
  selected: string | undefined;
  /** The member drawn at a canvas point (CSS px). */
  at(x: number, y: number): string | undefined;
  pixel(x: number, y: number): string;
}

/** The watch cache table as drawn: the frame's figures, the rows shown (where) and what the cut left out. */
export interface WatchCacheDrawn {
  reported: boolean;
  resourceVersion: number;
  /** The leader's revision in the same frame. */
  etcdRevision?: number;
  resources: number;
  objects: number;
  events: number;
  watchers: number;
  /** The watches etcd serves (its members' watcher counts, summed): the caches' own. */
  etcdWatchers: number;
  rows: (WatchCacheResourceView & { x: number; y: number; w: number; h: number })[];
  hidden: { resources: number; objects: number; watchers: number };
  hiddenNames?: string[];
  /** Where the "+ n more" line is drawn. */
  more?: { x: number; y: number; w: number; h: number };
  x: number;
  y: number;
  w: number;
  h: number;
}

/** `text` cut to `maxW` and drawn at (x, y). */
function fitText(ctx: CanvasRenderingContext2D, text: string, x: number, y: number, maxW: number): void {
  ctx.fillText(fit(ctx, text, Math.max(0, maxW)), x, y);
}

/** The value of a series at virtual time `t`: the last point at or before it. */
function valueAt(pts: readonly { time: number; value: number }[], t: number): number | undefined {
  let lo = 0;
  let hi = pts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pts[mid]!.time <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : pts[lo - 1]!.value;
}

/** Term colours, cycled: term 1 blue, 2 green, 3 purple, ... */
const TERM_COLORS: readonly ColorName[] = ['blue', 'green', 'purple', 'orange', 'yellow'];
const ACTION_LABEL: Record<EtcdAction, string> = { stop: 'Stop', start: 'Start', partition: 'Partition', heal: 'Heal', slow: 'Slow disk', compact: 'Compact', defragment: 'Defragment', disarm: 'Disarm alarms' };
const PENDING_LABEL: Record<EtcdAction, string> = { stop: 'Stopping', start: 'Starting', partition: 'Partitioning', heal: 'Healing', slow: 'Slowing the disk', compact: 'Compacting', defragment: 'Defragmenting', disarm: 'Disarming' };
const RESULT_LABEL: Record<EtcdAction, string> = { stop: 'Stop', start: 'Start', partition: 'Partition', heal: 'Heal', slow: 'Slow disk', compact: 'Compact', defragment: 'Defragment', disarm: 'Disarm alarms' };
const CHART_TITLE: Record<ChartField, string> = { dbSizeBytes: 'db size (bbolt file)', revisionsPerSecond: 'revisions/s', commitLatencyMs: 'commit latency', watchers: 'watchers' };

export function termColor(term: number): ColorName {
  return TERM_COLORS[(Math.max(1, term) - 1) % TERM_COLORS.length]!;
}

function bytesText(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(0)} KiB`;
  return `${n} B`;
}

function chartValue(field: ChartField, v: number): string {
  if (field === 'dbSizeBytes') return bytesText(v);
  if (field === 'revisionsPerSecond') return `${v.toFixed(v < 10 ? 1 : 0)}/s`;
  if (field === 'watchers') return String(Math.round(v));
  return `${v.toFixed(v < 10 ? 2 : 0)} ms`;
}

/** A message type as people read it: MsgHeartbeatResp -> heartbeat response. */
function messageName(t: string): string {
  const names: Record<string, string> = { MsgApp: 'append', MsgAppResp: 'append response', MsgHeartbeat: 'heartbeat', MsgHeartbeatResp: 'heartbeat response', MsgVote: 'vote request', MsgVoteResp: 'vote', MsgPreVote: 'pre-vote request', MsgPreVoteResp: 'pre-vote', MsgSnap: 'snapshot', MsgTimeoutNow: 'timeout now', MsgReadIndex: 'read index', MsgReadIndexResp: 'read index response' };
  return own(names, t) ?? t;
}

export class EtcdView {
  readonly element: HTMLElement;
  readonly model = new EtcdModel();
  readonly lens = new RaftLens();
  private readonly canvas: HTMLCanvasElement;
  private readonly stage: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly lensLabel: HTMLElement;
  private readonly playButton: HTMLElement;
  private lastWall = 0;
  private readonly facts: HTMLElement;
  private readonly alarm: HTMLElement;
  /** The action asked from this view and not answered yet, and the last answer. */
  private pending: { action: EtcdAction; member: string } | undefined;
  private result: { action: EtcdAction; ok: boolean; lines: string[] } | undefined;
  private readonly legend: HTMLElement;
  private readonly live: HTMLElement;
  private palette: Palette | undefined;
  private layout: EtcdLayout | undefined;
  private drawnMembers: EtcdHitTest['members'] = [];
  private drawnFlight: EtcdHitTest['inFlight'] = [];
  private drawnCharts: { field: ChartField; t0: number; t1: number; cursorX?: number }[] = [];
  private drawnCache: WatchCacheDrawn | undefined;
  private active = false;
  private selected: string | undefined;
  private factsFor = '';
  private lastDrawn = '';
  private size = { w: 0, h: 0, dpr: 1 };

  constructor(private readonly host: EtcdViewHost) {
    this.canvas = h('canvas', { class: 'etcd-canvas', tabindex: '0', role: 'img', 'aria-label': 'etcd members' });
    this.stage = h('div', { class: 'etcd-stage' }, this.canvas);
    this.banner = h('div', { class: 'etcd-banner', role: 'note' });
    this.facts = h('div', { class: 'etcd-facts', 'aria-label': 'Selected etcd member' });
    this.alarm = h('div', { class: 'etcd-alarm', role: 'alert' });
    this.legend = h('div', { class: 'etcd-legend' });
    this.live = h('div', { class: 'sr-only', 'aria-live': 'polite' });
    this.lensLabel = h('span', { class: 'etcd-lens-label', role: 'status' });
    this.playButton = iconButton('etcd-lens-play', 'debug-pause', 'Pause the messages', () => {
      this.lens.toggle();
      this.lastDrawn = '';
      this.host.wake();
    });
    const toolbar = h(
      'div',
      { class: 'etcd-toolbar', role: 'group', 'aria-label': 'Raft messages in slow motion' },
      iconButton('etcd-lens-prev', 'debug-step-back', 'Previous message record (a send, a delivery or a drop)', () => this.stepLens(-1)),
      this.playButton,
      iconButton('etcd-lens-next', 'debug-step-over', 'Next message record (a send, a delivery or a drop)', () => this.stepLens(1)),
      this.lensLabel,
    );
    this.element = h('div', { class: 'view etcd-view' }, this.legend, toolbar, this.alarm, this.banner, this.stage, this.facts, this.live);
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.canvas.addEventListener('click', (e) => {
      const r = this.canvas.getBoundingClientRect();
      const name = this.memberAt(e.clientX - r.left, e.clientY - r.top);
      if (name) this.select(name);
    });
    this.canvas.addEventListener('mousemove', (e) => {
      const r = this.canvas.getBoundingClientRect();
      const text = this.describeAt(e.clientX - r.left, e.clientY - r.top);
      if (this.canvas.title !== text) this.canvas.title = text;
    });
    new ResizeObserver(() => {
      this.layout = undefined;
      this.lastDrawn = '';
    }).observe(this.stage);
    new MutationObserver(() => {
      this.palette = undefined;
      this.lastDrawn = '';
    }).observe(document.body, { attributes: true, attributeFilter: ['class', 'style'] });
  }

  /** Called every frame by the app; returns true while the lens plays (it wants another frame). */
  update(active: boolean): boolean {
    this.active = active;
    const now = performance.now();
    const dt = this.lastWall === 0 ? 0 : Math.min(100, now - this.lastWall);
    if (!active) {
      this.lastWall = 0;
      return false;
    }
    this.lastWall = now;
    this.lens.follow(this.host.replayTime(), this.model);
    const wants = this.lens.tick(dt, this.model);
    const key = `${this.model.generation}|${this.lens.time ?? ''}|${this.lens.playing}|${this.host.replayTime() ?? 'live'}|${this.selected ?? ''}`;
    if (key !== this.lastDrawn) {
      this.lastDrawn = key;
      this.draw(this.lens.time);
    }
    if (!wants) this.lastWall = 0;
    return wants;
  }

  private stepLens(n: number): void {
    this.lens.step(n, this.model);
    this.lastDrawn = '';
    this.host.wake();
  }

  private frame(time: number | undefined) {
    return time === undefined ? this.model.latest() : this.model.at(time);
  }

  private members(time: number | undefined): readonly EtcdMemberView[] {
    return this.frame(time)?.members ?? [];
  }

  private ensureLayout(members: readonly EtcdMemberView[]): EtcdLayout {
    const rect = this.stage.getBoundingClientRect();
    const w = Math.max(300, Math.floor(rect.width));
    const hh = Math.max(300, Math.floor(rect.height));
    const dpr = window.devicePixelRatio || 1;
    const names = members.map((m) => m.name);
    if (!this.layout || this.size.w !== w || this.size.h !== hh || this.layout.nodes.map((n) => n.name).join() !== names.join()) {
      this.size = { w, h: hh, dpr };
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(hh * dpr);
      this.canvas.style.width = `${w}px`;
      this.canvas.style.height = `${hh}px`;
      this.layout = layoutEtcd(names, w, hh);
    }
    return this.layout;
  }

  private draw(time: number | undefined): void {
    this.palette ??= readPalette();
    const p = this.palette.css;
    const font = this.palette.fontFamily;
    const frame = this.frame(time);
    const members = frame?.members ?? [];
    const air = time === undefined ? [] : this.model.messagesAt(time);
    this.renderBanner(time, frame?.time, air);
    this.renderAlarm(members);
    this.renderLegend();
    const L = this.ensureLayout(members);
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const { w, h: H, dpr } = this.size;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, w, H);
    if (!frame) {
      ctx.fillStyle = p.muted;
      ctx.font = `13px ${font}`;
      ctx.fillText(this.model.cluster ? 'Waiting for the etcd members’ status…' : 'No simulated etcd: the cluster is stored in a real etcd.', 16, 28);
      this.drawnMembers = [];
      this.drawnFlight = [];
      this.drawnCharts = [];
      this.drawnCache = undefined;
      this.updateAria(members);
      return;
    }
    const pos = new Map(L.nodes.map((n) => [n.name, n]));

    // Links between members: solid while both ends can talk, dashed where a partition or a stop cuts them.
    ctx.lineWidth = 1;
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const a = members[i]!;
        const b = members[j]!;
        const pa = pos.get(a.name)!;
        const pb = pos.get(b.name)!;
        const cut = a.partitioned || b.partitioned || a.state === 'stopped' || b.state === 'stopped';
        ctx.strokeStyle = p.boxBorder;
        ctx.setLineDash(cut ? [3, 5] : []);
        ctx.beginPath();
        ctx.moveTo(pa.x, pa.y);
        ctx.lineTo(pb.x, pb.y);
        ctx.stroke();
      }
    }
    ctx.setLineDash([]);

    // The messages in the air at the instant drawn.
    this.drawnFlight = [];
    for (const m of air) {
      const a = pos.get(m.from);
      const b = pos.get(m.to);
      if (!a || !b) continue;
      const pt = flightPoint(a, b, m.progress, a.r, b.r);
      this.drawnFlight.push({ ...m, x: pt.x, y: pt.y });
      const color = m.state === 'dropped' ? p.red : m.msgType.startsWith('MsgHeartbeat') ? p.muted : m.msgType.includes('Vote') ? p.orange : p[termColor(m.term)];
      const resp = m.msgType.endsWith('Resp');
      ctx.fillStyle = color;
      ctx.strokeStyle = color;
      ctx.lineWidth = 2;
      if (m.state === 'instant') {
        // Sent and delivered in this very instant (instant latency model): an arrow along the lane.
        const s0 = flightPoint(a, b, 0, a.r, b.r);
        ctx.setLineDash(resp ? [4, 3] : []);
        ctx.beginPath();
        ctx.moveTo(s0.x, s0.y);
        ctx.lineTo(pt.x, pt.y);
        ctx.stroke();
        ctx.setLineDash([]);
        const ang = Math.atan2(pt.y - s0.y, pt.x - s0.x);
        ctx.beginPath();
        ctx.moveTo(pt.x, pt.y);
        ctx.lineTo(pt.x - 9 * Math.cos(ang - 0.4), pt.y - 9 * Math.sin(ang - 0.4));
        ctx.lineTo(pt.x - 9 * Math.cos(ang + 0.4), pt.y - 9 * Math.sin(ang + 0.4));
        ctx.closePath();
        ctx.fill();
        continue;
      }
      ctx.beginPath();
      if (m.entries > 0) ctx.rect(pt.x - 7, pt.y - 5, 14, 10);
      else ctx.arc(pt.x, pt.y, 5, 0, 2 * Math.PI);
      if (resp) ctx.stroke();
      else ctx.fill();
      if (m.entries > 0) {
        ctx.font = `10px ${font}`;
        ctx.fillStyle = p.foreground;
        ctx.textAlign = 'left';
        ctx.fillText(`${m.entries}`, pt.x + 9, pt.y + 4);
      }
      if (m.state === 'dropped') {
        ctx.strokeStyle = p.red;
        ctx.beginPath();
        ctx.moveTo(pt.x - 6, pt.y - 6);
        ctx.lineTo(pt.x + 6, pt.y + 6);
        ctx.moveTo(pt.x + 6, pt.y - 6);
        ctx.lineTo(pt.x - 6, pt.y + 6);
        ctx.stroke();
      }
    }

    // Members.
    this.drawnMembers = [];
    const leader = leaderOf(members);
    for (const m of members) {
      const n = pos.get(m.name)!;
      const stopped = m.state === 'stopped';
      ctx.fillStyle = stopped ? p.track : p.box;
      ctx.beginPath();
      ctx.arc(n.x, n.y, n.r, 0, 2 * Math.PI);
      ctx.fill();
      const ring = stopped ? p.muted : m.role === 'leader' ? p.focus : m.role === 'candidate' ? p.orange : m.role === 'pre-candidate' ? p.yellow : p.boxBorder;
      ctx.strokeStyle = ring;
      ctx.lineWidth = m.role === 'leader' && !stopped ? 4 : 2;
      ctx.setLineDash(m.role === 'pre-candidate' && !stopped ? [5, 4] : []);
      ctx.stroke();
      ctx.setLineDash([]);
      if (m.partitioned) {
        ctx.strokeStyle = p.red;
        ctx.lineWidth = 2;
        ctx.setLineDash([2, 4]);
        ctx.beginPath();
        ctx.arc(n.x, n.y, n.r + 7, 0, 2 * Math.PI);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      if (this.selected === m.name) {
        ctx.strokeStyle = p.focus;
        ctx.lineWidth = 1;
        ctx.strokeRect(n.x - n.r - 12, n.y - n.r - 12, 2 * n.r + 24, 2 * n.r + 24);
      }
      ctx.textAlign = 'center';
      ctx.fillStyle = stopped ? p.muted : p.foreground;
      ctx.font = `bold 13px ${font}`;
      ctx.fillText(m.name, n.x, n.y - 6);
      ctx.font = `12px ${font}`;
      ctx.fillText(`term ${m.term}`, n.x, n.y + 10);
      // Role, indexes and flags on the side away from the ring's centre (clear of the message lanes).
      const flags = [m.partitioned ? 'partitioned' : '', m.slowFsyncMs !== undefined ? `slow disk ${m.slowFsyncMs} ms` : ''].filter(Boolean).join(' · ');
      const alarms = (m.alarms ?? []).map((a) => `alarm ${a}`).join(' · ');
      const lines: { text: string; color: string; bold?: boolean }[] = [
        { text: roleText(m), color: stopped ? p.muted : p.foreground, bold: m.role === 'leader' && !stopped },
        // Two short lines, not one long one: neighbours' labels on a small ring must not run into each other.
        { text: `commit ${m.commitIndex}`, color: p.muted },
        { text: `applied ${m.appliedIndex}`, color: p.muted },
        ...(flags ? [{ text: flags, color: m.partitioned ? p.red : p.orange }] : []),
        ...(alarms ? [{ text: alarms, color: p.red, bold: true }] : []),
      ];
      const up = members.length > 1 && n.y < L.ring.cy - 1;
      lines.forEach((line, i) => {
        ctx.font = `${line.bold ? 'bold ' : ''}${i === 0 ? 12 : 11}px ${font}`;
        ctx.fillStyle = line.color;
        const y = up ? n.y - n.r - 10 - (lines.length - 1 - i) * 15 : n.y + n.r + 16 + i * 15;
        ctx.fillText(line.text, n.x, y);
      });
      ctx.textAlign = 'left';
      this.drawnMembers.push({
        name: m.name,
        role: m.role,
        state: m.state,
        term: m.term,
        commitIndex: m.commitIndex,
        appliedIndex: m.appliedIndex,
        lastIndex: m.lastIndex,
        logLength: m.lastIndex,
        partitioned: m.partitioned,
        slowDisk: m.slowFsyncMs !== undefined,
        x: n.x,
        y: n.y,
        r: n.r,
      });
    }

    this.drawLogs(ctx, L, members);
    this.drawWatchCache(ctx, L, frame);
    this.drawCharts(ctx, L, time ?? frame.time);
    this.updateAria(members, leader);
    this.renderFacts(members);
  }

  private drawLogs(ctx: CanvasRenderingContext2D, L: EtcdLayout, members: readonly EtcdMemberView[]): void {
    const p = this.palette!.css;
    const font = this.palette!.fontFamily;
    const lg = L.logs;
    const win = logWindow(members, lg.cols);
    ctx.font = `12px ${font}`;
    ctx.fillStyle = p.foreground;
    ctx.fillText('Raft log (newest entries; colour = term, ▏ = commit index)', lg.x, lg.y - 20);
    ctx.fillStyle = p.muted;
    ctx.font = `11px ${font}`;
    ctx.textAlign = 'right';
    ctx.fillText(`index ${win.from}`, lg.x + lg.labelW + 24, lg.y - 4);
    ctx.fillText(`${win.to}`, lg.x + lg.labelW + (win.to - win.from + 1) * lg.cellW, lg.y - 4);
    ctx.textAlign = 'left';
    members.forEach((m, row) => {
      const y = lg.y + row * lg.rowH;
      ctx.fillStyle = m.state === 'stopped' ? p.muted : p.foreground;
      ctx.font = `12px ${font}`;
      ctx.fillText(m.name, lg.x, y + lg.rowH / 2 + 4);
      const cellH = Math.min(18, lg.rowH - 6);
      const top = y + (lg.rowH - cellH) / 2;
      // The track: indexes the window shows that this member does not hold.
      ctx.fillStyle = p.track;
      ctx.fillRect(lg.x + lg.labelW, top, (win.to - win.from + 1) * lg.cellW - 2, cellH);
      for (const e of m.log) {
        if (e.index < win.from || e.index > win.to) continue;
        const x = lg.x + lg.labelW + (e.index - win.from) * lg.cellW;
        const committed = e.index <= m.commitIndex;
        ctx.fillStyle = this.palette!.css[termColor(e.term)];
        ctx.globalAlpha = committed || this.palette!.highContrast ? 1 : 0.45;
        ctx.fillRect(x, top, lg.cellW - 2, cellH);
        ctx.globalAlpha = 1;
        if (!committed) {
          ctx.strokeStyle = this.palette!.css[termColor(e.term)];
          ctx.lineWidth = 1;
          ctx.strokeRect(x + 0.5, top + 0.5, lg.cellW - 3, cellH - 1);
        }
      }
      // Entries before the tail the status carries (compacted into a snapshot or not sent).
      if (m.commitIndex >= win.from && m.commitIndex <= win.to) {
        const cx = lg.x + lg.labelW + (m.commitIndex - win.from + 1) * lg.cellW - 1;
        ctx.fillStyle = p.foreground;
        ctx.fillRect(cx - 1, top - 4, 2, cellH + 8);
      }
    });
    // Term key.
    const terms = new Set<number>();
    for (const m of members) for (const e of m.log) if (e.index >= win.from) terms.add(e.term);
    let x = lg.x;
    const y = lg.y + members.length * lg.rowH + 14;
    ctx.font = `11px ${font}`;
    for (const t of [...terms].sort((a, b) => a - b).slice(-8)) {
      ctx.fillStyle = this.palette!.css[termColor(t)];
      ctx.fillRect(x, y - 9, 10, 10);
      ctx.fillStyle = p.muted;
      ctx.fillText(`term ${t}`, x + 14, y);
      x += 70;
    }
    ctx.fillStyle = p.muted;
    ctx.fillText('faded: appended, not yet committed', x + 6, y);
  }

  /** A chart's lines: the field's series, and for watchers the API server's beside etcd's. */
  private chartLines(field: ChartField): { key: string; label: string; color: ColorName; series: ChartSeries }[] {
    const own = { key: field, label: field === 'watchers' ? 'etcd' : CHART_TITLE[field], color: 'blue' as ColorName, series: this.model.series(field) };
    if (field !== 'watchers') return [own];
    return [{ key: 'apiserverWatchers', label: 'API server', color: 'green', series: this.model.series('apiserverWatchers') }, own];
  }

  private drawCharts(ctx: CanvasRenderingContext2D, L: EtcdLayout, cursor: number): void {
    const p = this.palette!.css;
    const font = this.palette!.fontFamily;
    const pointsOf = (l: { series: ChartSeries }) => (l.series.reported ? l.series.points : []);
    const charted = L.charts.map((c) => ({ c, lines: this.chartLines(c.field).filter((l) => l.series.reported) }));
    // One time axis for every chart, so the cursor stands at the same x in all four and a series
    // that stopped early (commit latency: no commit since) ends where its last report is.
    const axis = chartAxis(charted.flatMap(({ lines }) => lines.map(pointsOf)), cursor);
    this.drawnCharts = [];
    for (const { c, lines } of charted) {
      ctx.strokeStyle = p.boxBorder;
      ctx.lineWidth = 1;
      ctx.strokeRect(c.x + 0.5, c.y + 0.5, c.w - 1, c.h - 1);
      ctx.font = `12px ${font}`;
      ctx.fillStyle = p.foreground;
      ctx.textAlign = 'left';
      ctx.fillText(CHART_TITLE[c.field], c.x + 8, c.y + 16);
      if (lines.length === 0) {
        ctx.fillStyle = p.muted;
        ctx.fillText('not reported by this engine yet', c.x + 8, c.y + 36);
        continue;
      }
      // The value at the cursor, each line's in its colour, right-aligned: "API server 12 · etcd 48".
      let rx = c.x + c.w - 8;
      ctx.textAlign = 'right';
      for (let i = lines.length - 1; i >= 0; i--) {
        const l = lines[i]!;
        const here = valueAt(pointsOf(l), cursor);
        const text = `${lines.length > 1 ? `${l.label} ` : ''}${here !== undefined ? chartValue(c.field, here) : '—'}`;
        ctx.fillStyle = lines.length > 1 ? p[l.color] : p.foreground;
        ctx.fillText(text, rx, c.y + 16);
        rx -= ctx.measureText(text).width + (i > 0 ? 10 : 0);
      }
      ctx.textAlign = 'left';
      if (!axis) continue;
      let max = 0;
      for (const l of lines) for (const q of pointsOf(l)) max = Math.max(max, q.value);
      if (max <= 0) max = 1;
      const { t0, t1 } = axis;
      const gx = c.x + 8;
      const gy = c.y + 34;
      const gw = c.w - 16;
      const gh = c.h - 54;
      const X = (t: number) => gx + ((t - t0) / (t1 - t0)) * gw;
      const Y = (v: number) => gy + gh - (v / max) * gh;
      // Steps, not slopes: a figure holds from one report to the next (what valueAt reads), and
      // the view draws only what was reported.
      for (const l of lines) {
        ctx.strokeStyle = p[l.color];
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        let prevY = 0;
        pointsOf(l).forEach((q, i) => {
          const y = Y(q.value);
          if (i === 0) ctx.moveTo(X(q.time), y);
          else {
            ctx.lineTo(X(q.time), prevY);
            ctx.lineTo(X(q.time), y);
          }
          prevY = y;
        });
        ctx.stroke();
      }
      // The instant drawn: a dashed rule in the text colour (never a line's colour, so it cannot be
      // read as a drop to zero), and a dot where each line stands at that instant.
      let cursorX: number | undefined;
      if (cursor >= t0 && cursor <= t1) {
        cursorX = Math.round(X(cursor)) + 0.5;
        ctx.save();
        ctx.globalAlpha = 0.7;
        ctx.strokeStyle = p.foreground;
        ctx.lineWidth = 1;
        ctx.setLineDash([3, 3]);
        ctx.beginPath();
        ctx.moveTo(cursorX, gy - 4);
        ctx.lineTo(cursorX, gy + gh + 4);
        ctx.stroke();
        ctx.restore();
        for (const l of lines) {
          const pts = pointsOf(l);
          const here = valueAt(pts, cursor);
          if (here === undefined || cursor > pts[pts.length - 1]!.time) continue;
          ctx.fillStyle = p[l.color];
          ctx.strokeStyle = p.background;
          ctx.lineWidth = 1.5;
          ctx.beginPath();
          ctx.arc(cursorX, Y(here), 3.5, 0, Math.PI * 2);
          ctx.fill();
          ctx.stroke();
        }
      }
      this.drawnCharts.push({ field: c.field, t0, t1, ...(cursorX !== undefined ? { cursorX } : {}) });
      ctx.fillStyle = p.muted;
      ctx.font = `10px ${font}`;
      ctx.fillText(formatTime(t0).slice(0, 8), gx, c.y + c.h - 6);
      ctx.textAlign = 'right';
      ctx.fillText(formatTime(t1).slice(0, 8), gx + gw, c.y + c.h - 6);
      ctx.fillText(`max ${chartValue(c.field, max)}`, gx + gw, c.y + 28);
      ctx.textAlign = 'left';
    }
  }

  /**
   * The API server's watch caches at the frame drawn: what they hold and serve, each resource's
   * cache resource version beside etcd's revision. Every figure is the engine's
   * (watchCacheStatus()); the view only orders the rows and cuts them to the room it has.
   */
  private drawWatchCache(ctx: CanvasRenderingContext2D, L: EtcdLayout, frame: EtcdFrame): void {
    const p = this.palette!.css;
    const font = this.palette!.fontFamily;
    const box = L.cache;
    this.drawnCache = undefined;
    if (box.h < 20) return;
    const wc = frame.watchCache;
    const x = box.x;
    const y = box.y + 12;
    ctx.textAlign = 'left';
    ctx.font = `12px ${font}`;
    ctx.fillStyle = p.foreground;
    const title = 'API server watch cache';
    ctx.fillText(title, x, y);
    const tx = x + ctx.measureText(title).width + 8;
    ctx.font = `11px ${font}`;
    ctx.fillStyle = p.muted;
    if (!wc) {
      ctx.fillText('not reported: the host has no API server to read', tx, y);
      return;
    }
    const leader = leaderOf(frame.members);
    const etcdRevision = leader?.revision;
    const etcdWatchers = frame.members.reduce((n, m) => n + (m.state === 'running' && typeof m.watchers === 'number' ? m.watchers : 0), 0);
    fitText(ctx, `newest resource version seen ${wc.resourceVersion}${etcdRevision !== undefined ? ` · etcd at revision ${etcdRevision}` : ''}`, tx, y, box.w - (tx - x));
    fitText(ctx, `${wc.resources.length} resources · ${wc.objects} objects · ${wc.watchers} watchers served from the caches · ${etcdWatchers} etcd watch${etcdWatchers === 1 ? '' : 'es'} feed them`, x, y + 15, box.w);
    // Rows in one or two columns, busiest first; with no room for a row, the summary alone.
    const ncol = box.w >= 620 ? 2 : 1;
    const gap = 20;
    const colW = (box.w - gap * (ncol - 1)) / ncol;
    const capacity = box.rows * ncol;
    // The last slot says what is not shown, when something is not.
    const cut = watchCacheRows(wc, wc.resources.length > capacity ? Math.max(0, capacity - 1) : capacity);
    const rows = cut.rows;
    const slots = rows.length + (cut.hidden.resources > 0 && box.rows > 0 ? 1 : 0);
    const slot = (i: number) => ({ x: x + Math.floor(i / box.rows) * (colW + gap), y: box.y + CACHE_HEAD_H + (i % box.rows) * box.rowH });
    // Columns: resource, then right-aligned RV, objects, events in the window, watchers.
    const nums = [
      { label: 'RV', w: 44 },
      { label: 'objects', w: 46 },
      { label: 'events', w: 44 },
      { label: 'watchers', w: 54 },
    ];
    const numsW = nums.reduce((n, c) => n + c.w, 0);
    const headY = box.y + CACHE_HEAD_H - 6;
    ctx.font = `10px ${font}`;
    ctx.fillStyle = p.muted;
    for (let col = 0; box.rows > 0 && col < Math.min(ncol, Math.ceil(slots / box.rows)); col++) {
      const cx = x + col * (colW + gap);
      ctx.textAlign = 'left';
      ctx.fillText('resource', cx, headY);
      ctx.textAlign = 'right';
      let nx = cx + colW - numsW;
      for (const c of nums) {
        nx += c.w;
        ctx.fillText(c.label, nx, headY);
      }
    }
    const drawnRows: WatchCacheDrawn['rows'] = [];
    let more: WatchCacheDrawn['more'];
    rows.forEach((r, i) => {
      const { x: cx, y: ry } = slot(i);
      const base = ry + box.rowH - 4;
      ctx.font = `11px ${font}`;
      ctx.textAlign = 'left';
      ctx.fillStyle = r.watchers > 0 || r.objects > 0 ? p.foreground : p.muted;
      fitText(ctx, r.resource, cx, base, colW - numsW - 6);
      ctx.textAlign = 'right';
      let nx = cx + colW - numsW;
      // A zero is muted, so that what a cache holds and serves stands out.
      [r.resourceVersion, r.objects, r.events, r.watchers].forEach((v, k) => {
        nx += nums[k]!.w;
        ctx.fillStyle = v > 0 ? p.foreground : p.muted;
        ctx.fillText(String(v), nx, base);
      });
      drawnRows.push({ ...r, x: cx, y: ry, w: colW, h: box.rowH });
    });
    if (cut.hidden.resources > 0 && box.rows > 0) {
      const { x: cx, y: ry } = slot(rows.length);
      ctx.font = `11px ${font}`;
      ctx.textAlign = 'left';
      ctx.fillStyle = p.muted;
      fitText(ctx, `+ ${cut.hidden.resources} more: ${cut.hidden.objects} objects, ${cut.hidden.watchers} watchers`, cx, ry + box.rowH - 4, colW);
      more = { x: cx, y: ry, w: colW, h: box.rowH };
    }
    ctx.textAlign = 'left';
    this.drawnCache = {
      reported: true,
      resourceVersion: wc.resourceVersion,
      ...(etcdRevision !== undefined ? { etcdRevision } : {}),
      resources: wc.resources.length,
      objects: wc.objects,
      events: wc.events,
      watchers: wc.watchers,
      etcdWatchers,
      rows: drawnRows,
      hidden: cut.hidden,
      ...(cut.hidden.resources > 0 ? { hiddenNames: watchCacheRows(wc, wc.resources.length).rows.slice(rows.length).map((r) => r.resource) } : {}),
      ...(more ? { more } : {}),
      x: box.x,
      y: box.y,
      w: box.w,
      h: box.h,
    };
  }

  private renderBanner(time: number | undefined, frameTime: number | undefined, air: readonly InFlight[]): void {
    const lens = this.lens;
    const s = this.model.settings;
    let banner = '';
    let label = '';
    if (this.model.cluster && time !== undefined) {
      const flying = air.filter((m) => m.state === 'flying').length;
      const dropped = air.filter((m) => m.state === 'dropped').length;
      const instant = air.filter((m) => m.state === 'instant').length;
      const inAir = [flying ? `${flying} in the air` : '', instant ? `${instant} sent and delivered in this instant` : '', dropped ? `${dropped} dropped` : ''].filter(Boolean).join(', ') || 'no message in the air';
      const skipped = lens.skippedMs > 0.001 ? ` · skipped ${lens.skippedMs >= 1 ? `${lens.skippedMs.toFixed(1)} ms` : `${Math.round(lens.skippedMs * 1000)} µs`} with nothing in the air` : '';
      label = `${formatMicros(time)} · ${inAir}${skipped}`;
      const pace = s && s.rttMs > 0 ? `slow motion: one hop (${s.rttMs / 2} ms, half the ${s.rttMs} ms round trip) over ${(FLIGHT_WALL_MS / 1000).toFixed(1)} s` : 'instant latency model: messages take no virtual time, each instant’s are shown as arrows';
      if (frameTime === undefined) banner = 'The etcd view holds no member status this early (it keeps what it saw since the panel opened).';
      else if (lens.live) banner = `Live, ${pace}: the newest round of messages. Pause, step, or scrub the timeline to go through every message.`;
      else banner = `${lens.playing ? 'Playing' : 'Paused'} at the timeline’s instant, ${pace}. Members as their status read at ${formatTime(frameTime)}.`;
      const from = this.model.messagesFrom;
      if (from !== undefined && time < from) banner += ` Messages before ${formatTime(from)} are not held.`;
      if (s) banner += ` Heartbeat every ${s.tickMs} ms, election timeout ${s.tickMs * s.electionTicks} ms, WAL fsync ${s.walFsyncMs} ms.`;
    }
    if (this.banner.textContent !== banner) this.banner.textContent = banner;
    if (this.lensLabel.textContent !== label) this.lensLabel.textContent = label;
    const playing = lens.playing;
    const want = playing ? 'debug-pause' : 'play';
    if (this.playButton.dataset.icon !== want) {
      this.playButton.dataset.icon = want;
      this.playButton.replaceChildren(h('span', { class: `codicon codicon-${want}`, 'aria-hidden': 'true' }));
      const title = playing ? 'Pause the messages' : 'Play the messages in slow motion from here';
      this.playButton.setAttribute('aria-label', title);
      this.playButton.setAttribute('title', title);
    }
  }

  private renderLegend(): void {
    if (this.legend.childElementCount > 0) return;
    const item = (cls: string, label: string) => h('span', { class: 'legend-item' }, h('span', { class: `etcd-swatch ${cls}` }), label);
    replaceChildren(
      this.legend,
      item('leader', 'leader'),
      item('follower', 'follower'),
      item('candidate', 'candidate'),
      item('pre-candidate', 'pre-candidate'),
      item('partitioned', 'partitioned'),
      item('msg-app', 'append (n entries)'),
      item('msg-heartbeat', 'heartbeat'),
      item('msg-vote', 'vote / pre-vote'),
      item('msg-resp', 'hollow: response'),
      h('span', { class: 'legend-item' }, h('span', { class: 'etcd-cross', 'aria-hidden': 'true' }, '✕'), 'dropped (member stopped or cut off)'),
    );
  }

  private renderFacts(members: readonly EtcdMemberView[]): void {
    const m = members.find((x) => x.name === this.selected) ?? leaderOf(members) ?? members[0];
    if (!m) {
      replaceChildren(this.facts);
      this.factsFor = '';
      return;
    }
    const replay = this.host.replayTime() !== undefined;
    const raised = raisedAlarms(members);
    const key = JSON.stringify([m, replay, raised, this.pending, this.result]);
    if (key === this.factsFor) return;
    this.factsFor = key;
    const quota = m.quotaBackendBytes !== undefined && m.quotaBackendBytes > 0 ? ` of ${bytesText(m.quotaBackendBytes)} quota` : '';
    const db = `${bytesText(m.dbSizeBytes)}${m.dbSizeInUseBytes !== undefined ? ` (in use ${bytesText(m.dbSizeInUseBytes)})` : ''}${quota}`;
    const rows: [string, string][] = [
      ['member', `${m.name} (ID ${m.id})`],
      ['role', `${roleText(m)}${m.lead ? ` · knows ${m.lead} as leader` : ' · knows no leader'}${m.vote ? ` · voted for ${m.vote}` : ''}`],
      ['state', memberStateText(m)],
      ['raft', `term ${m.term} · log ${m.firstIndex}–${m.lastIndex} · commit ${m.commitIndex} · applied ${m.appliedIndex}`],
      ['mvcc', `revision ${m.revision} · compacted at ${m.compactRevision} · db ${db}`],
    ];
    if (m.alarms && m.alarms.length > 0) rows.push(['alarms', raisedAlarms([m]).map((x) => `${x.alarm}: ${x.text}`).join('; ')]);
    const busy = this.pending !== undefined;
    const act = (a: EtcdAction, label: string, member: string) => {
      const b = button(`etcd-${a}`, this.pending?.action === a ? `${PENDING_LABEL[a]}…` : label, () => {
        if (this.pending) return;
        this.pending = { action: a, member };
        this.result = undefined;
        this.factsFor = '';
        this.renderFacts(this.members(this.lens.time));
        this.host.act(a, member);
      });
      if (busy) b.setAttribute('disabled', '');
      return b;
    };
    const running = m.state === 'running';
    const faults = replay ? [h('span', { class: 'muted' }, 'Go live on the timeline to act on members.')] : etcdActionsFor(m).map((a) => act(a, `${ACTION_LABEL[a]} ${m.name}`, m.name));
    const endpoint = leaderOf(members)?.name ?? members.find((x) => x.state === 'running')?.name;
    const maintenance = replay
      ? []
      : [
          ...(endpoint ? [act('compact', 'Compact history', endpoint)] : []),
          ...(running ? [act('defragment', `Defragment ${m.name}`, m.name)] : []),
          ...(endpoint && raised.length > 0 ? [act('disarm', 'Disarm alarms', endpoint)] : []),
        ];
    const status = this.pending
      ? h('div', { class: 'etcd-result', role: 'status' }, h('span', { class: 'codicon codicon-loading codicon-modifier-spin', 'aria-hidden': 'true' }), ` ${PENDING_LABEL[this.pending.action]} (${this.pending.member})…`)
      : this.result
        ? h('div', { class: `etcd-result ${this.result.ok ? '' : 'error'}`, role: 'status' }, h('span', { class: 'muted' }, `${RESULT_LABEL[this.result.action]}: `), this.result.lines.join('\n'))
        : h('div', { class: 'etcd-result', role: 'status' });
    replaceChildren(
      this.facts,
      h('dl', { class: 'etcd-facts-list' }, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
      h(
        'div',
        { class: 'etcd-action-groups' },
        h('div', { class: 'etcd-actions', role: 'group', 'aria-label': `Faults on ${m.name}` }, h('span', { class: 'etcd-actions-title' }, 'Break'), ...faults),
        ...(maintenance.length ? [h('div', { class: 'etcd-actions', role: 'group', 'aria-label': 'etcd maintenance' }, h('span', { class: 'etcd-actions-title' }, 'Maintain'), ...maintenance)] : []),
        status,
      ),
    );
  }

  /** The host's answer to an action asked from this view. */
  showResult(message: EtcdResultMessage): void {
    this.pending = undefined;
    this.result = { action: message.action, ok: message.ok, lines: [...message.lines] };
    this.factsFor = '';
    this.lastDrawn = '';
  }

  /** What the view's alarm banner says (etcd's text, who raised it, the way out), or '' with no alarm. */
  private renderAlarm(members: readonly EtcdMemberView[]): void {
    const raised = raisedAlarms(members);
    const text = raised
      .map((a) => `${a.alarm} raised by ${a.members.join(', ')}: “${a.text}”.${a.alarm === 'NOSPACE' ? ' The database reached its quota: the cluster takes only reads, deletes and compactions. Compact the history, defragment each member, then disarm the alarm.' : ''}`)
      .join(' ');
    if (this.alarm.textContent !== text) this.alarm.textContent = text;
  }

  private updateAria(members: readonly EtcdMemberView[], leader?: EtcdMemberView): void {
    const label =
      members.length === 0
        ? 'etcd: no member status yet'
        : `etcd cluster of ${members.length}: ${leader ? `${leader.name} leads at term ${leader.term}` : 'no leader'}. ` +
          members.map((m) => `${m.name} ${roleText(m)}, term ${m.term}, commit ${m.commitIndex}, applied ${m.appliedIndex}, ${memberStateText(m)}`).join('; ');
    if (this.canvas.getAttribute('aria-label') !== label) this.canvas.setAttribute('aria-label', label);
    const headline = leader ? `${leader.name} is leader at term ${leader.term}` : members.length ? 'etcd has no leader' : '';
    if (this.live.textContent !== headline) this.live.textContent = headline;
  }

  private onKey(e: KeyboardEvent): void {
    const members = this.members(this.lens.time);
    if (members.length === 0) return;
    const i = Math.max(0, members.findIndex((m) => m.name === this.selected));
    let next: number | undefined;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = (i + 1) % members.length;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = (i - 1 + members.length) % members.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = members.length - 1;
    if (next === undefined) return;
    e.preventDefault();
    this.select(members[next]!.name);
  }

  select(name: string): void {
    this.selected = name;
    this.lastDrawn = '';
    this.live.textContent = `${name} selected`;
  }

  /** The hover text of what is drawn at a point: a message in the air (what it carries, when it left and arrived), or a member. */
  describeAt(x: number, y: number): string {
    let best: (typeof this.drawnFlight)[number] | undefined;
    let bestD = 10;
    for (const m of this.drawnFlight) {
      const d = Math.hypot(m.x - x, m.y - y);
      if (d < bestD) {
        bestD = d;
        best = m;
      }
    }
    if (best) {
      const m = best;
      const what = `${messageName(m.msgType)} (${m.msgType}) ${m.from} → ${m.to}, term ${m.term}`;
      const carries = m.msgType === 'MsgApp' ? `, after index ${m.index}, ${m.entries} entr${m.entries === 1 ? 'y' : 'ies'}, leader commit ${m.commit}` : m.msgType === 'MsgHeartbeat' ? `, leader commit ${m.commit}` : m.msgType === 'MsgAppResp' ? `, ${m.reject ? 'rejected: log does not match at' : 'has everything up to'} index ${m.index}` : m.reject ? ', rejected' : '';
      const end = m.endAt === undefined ? 'not arrived yet' : m.state === 'dropped' || (m.reason !== undefined && m.endAt !== undefined) ? `dropped at ${formatMicros(m.endAt)} (${m.reason === 'partitioned' ? 'cut off by a partition' : 'a member is stopped'})` : `delivered at ${formatMicros(m.endAt)}`;
      return `${what}${carries}\nsent at ${formatMicros(m.sentAt)}, ${end}`;
    }
    const name = this.memberAt(x, y);
    if (name) return `${name}: click for its facts and actions`;
    return this.describeCacheAt(x, y);
  }

  /** The hover text of a watch cache row, or of the line that stands for the rows not shown. */
  private describeCacheAt(x: number, y: number): string {
    const wc = this.drawnCache;
    if (!wc) return '';
    const inside = (b: { x: number; y: number; w: number; h: number }) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;
    const row = wc.rows.find(inside);
    if (row) {
      return `${row.resource}: watch cache at resource version ${row.resourceVersion}, the last change it saw${wc.etcdRevision !== undefined ? ` (etcd at revision ${wc.etcdRevision})` : ''}\n${row.objects} objects · ${row.events} events in its window (capacity ${row.capacity}) · ${row.watchers} watchers served from the cache`;
    }
    if (wc.more && inside(wc.more)) return `Not shown (fewer watchers and events): ${(wc.hiddenNames ?? []).join(', ')}`;
    return '';
  }

  private memberAt(x: number, y: number): string | undefined {
    for (const m of this.drawnMembers) if (Math.hypot(m.x - x, m.y - y) <= m.r + 4) return m.name;
    return undefined;
  }

  hitTest(): EtcdHitTest {
    const replay = this.host.replayTime();
    const time = this.lens.time;
    const frame = this.frame(time);
    const members = frame?.members ?? [];
    const L = this.layout;
    return {
      cluster: this.model.cluster,
      time,
      frameTime: frame?.time,
      replay: replay !== undefined,
      lens: { playing: this.lens.playing, live: this.lens.live, skippedMs: this.lens.skippedMs },
      messagesFrom: this.model.messagesFrom,
      leader: leaderOf(members)?.name,
      members: this.drawnMembers.map((m) => ({ ...m })),
      inFlight: this.drawnFlight.map((m) => ({ ...m })),
      charts: CHART_FIELDS.map((field) => {
        const box = L?.charts.find((c) => c.field === field) ?? { x: 0, y: 0, w: 0, h: 0 };
        const at = { x: box.x, y: box.y, w: box.w, h: box.h };
        const lines = this.chartLines(field).map((l) => {
          const s = l.series;
          if (!s.reported) return { key: l.key, label: l.label, points: 0 };
          const here = time === undefined ? undefined : valueAt(s.points, time);
          return { key: l.key, label: l.label, points: s.points.length, ...(s.points.length ? { last: s.points[s.points.length - 1]!.value } : {}), ...(here !== undefined ? { atCursor: here } : {}) };
        });
        const own = lines.find((l) => l.key === field)!;
        const { key: _key, label: _label, ...figures } = own;
        const drawn = this.drawnCharts.find((d) => d.field === field);
        const axis = drawn ? { axis: { t0: drawn.t0, t1: drawn.t1 }, ...(drawn.cursorX !== undefined ? { cursorX: drawn.cursorX } : {}) } : {};
        return { field, reported: this.model.series(field).reported, ...figures, ...axis, lines, ...at };
      }),
      watchCache: this.drawnCache ? { ...this.drawnCache, rows: this.drawnCache.rows.map((r) => ({ ...r })) } : undefined,
      selected: this.selected,
      at: (x, y) => this.memberAt(x, y),
      pixel: (x, y) => {
        const ctx = this.canvas.getContext('2d');
        const d = ctx?.getImageData(Math.round(x * this.size.dpr), Math.round(y * this.size.dpr), 1, 1).data;
        return d ? `rgb(${d[0]}, ${d[1]}, ${d[2]})` : '';
      },
    };
  }

  get isActive(): boolean {
    return this.active;
  }
}
