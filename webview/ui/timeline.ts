/**
 * The timeline under every view: virtual time from where the panel's history begins to now,
 * with a strip of the store's writes by kind (the revision log the pictures are drawn from),
 * markers where a user applied or deleted something (the trace's API requests), and the
 * scrubber. Dragging it, the arrow keys or Step move the pictures to a revision; Play replays
 * virtual time at x0.25 to x100; Live follows the cluster again. Nothing here recomputes what
 * happened: every revision shown is read from the history (StateHistory.at).
 */
import type { ApiRequestRecord } from '../../src/protocol/trace-records';
import type { StateHistory, LogMark } from '../model/history';
import { formatTime } from '../model/format';
import { timelineStatus, type StoreHead } from '../model/head';
import { button, dropdown, iconButton, type Dropdown } from './components';
import { h } from './dom';
import { readPalette, type Palette } from './palette';

export interface TimelineHost {
  readonly history: StateHistory;
  /** The store's newest revision (the trace's), which the history of drawn kinds may lag. */
  readonly head: StoreHead;
  /** The revision shown, or undefined when live. */
  replay(): number | undefined;
  setReplay(revision: number | undefined): void;
  /** The user's writes the trace holds, oldest first. */
  applies(): readonly ApiRequestRecord[];
}

export const SPEEDS = [0.25, 0.5, 1, 2, 5, 10, 25, 50, 100] as const;

/** The strip's rows, top to bottom: which kinds of writes each one marks. */
const ROWS: readonly { label: string; kinds: readonly LogMark['kind'][]; color: keyof Palette['css'] }[] = [
  { label: 'Pods', kinds: ['Pod'], color: 'green' },
  { label: 'Nodes', kinds: ['Node', 'machine'], color: 'orange' },
  { label: 'Workloads', kinds: ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'], color: 'blue' },
  { label: 'Services', kinds: ['Service', 'EndpointSlice'], color: 'purple' },
];

const LABEL_W = 76;
const ROW_H = 11;
const TOP = 14;
const HEIGHT = TOP + ROWS.length * ROW_H + 18;

export class Timeline {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly label: HTMLElement;
  private readonly liveButton: HTMLElement;
  private readonly playButton: HTMLElement;
  private readonly speed: Dropdown;
  private palette: Palette | undefined;
  private drawnFor = '';
  /** The strip (marks, ticks) as last drawn, and what it was drawn for: only the cursor moves on a scrub. */
  private strip: HTMLCanvasElement | undefined;
  private stripFor = '';
  private playing = false;
  private playTime = 0;
  private lastTick = 0;
  private rate = 1;
  private scrubbing = false;
  /** Visible time window (undefined: everything held). */
  private window: { from: number; to: number } | undefined;

  constructor(private readonly host: TimelineHost) {
    this.canvas = h('canvas', { class: 'timeline-canvas', tabindex: 0, role: 'slider', 'aria-label': 'Revision shown (virtual time)', 'aria-valuemin': '0', 'aria-valuemax': '0', 'aria-valuenow': '0' });
    this.label = h('span', { class: 'timeline-label', role: 'status', 'aria-live': 'polite' });
    this.liveButton = button('timeline-live', 'Live', () => this.host.setReplay(undefined));
    this.playButton = iconButton('timeline-play', 'play', 'Play from the revision shown', () => this.togglePlay());
    this.speed = dropdown('timeline-speed', 'Speed', (v) => (this.rate = Number(v) || 1));
    this.speed.setChoices(SPEEDS.map((s) => ({ value: String(s), label: `x${s}` })), '1');
    const controls = h(
      'div',
      { class: 'timeline-controls' },
      iconButton('timeline-prev', 'debug-step-back', 'Step to the previous change (Left)', () => this.step(-1)),
      this.playButton,
      iconButton('timeline-next', 'debug-step-over', 'Step to the next change (Right)', () => this.step(1)),
      this.speed.element,
      this.liveButton,
      iconButton('timeline-fit', 'screen-full', 'Show the whole history', () => {
        this.window = undefined;
        this.drawnFor = '';
      }),
      this.label,
    );
    this.element = h('div', { class: 'timeline', role: 'group', 'aria-label': 'Replay along virtual time' }, controls, this.canvas);
    this.bind();
    const redraw = (): void => {
      this.drawnFor = '';
      requestAnimationFrame(() => this.update());
    };
    new ResizeObserver(redraw).observe(this.canvas);
    new MutationObserver(() => {
      this.palette = undefined;
      redraw();
    }).observe(document.body, { attributes: true, attributeFilter: ['class', 'style'] });
  }

  get isPlaying(): boolean {
    return this.playing;
  }

  /** Called every frame by the app. */
  update(): void {
    const history = this.host.history;
    if (this.playing) this.tick();
    const replay = this.host.replay();
    const key = `${history.generation}|${this.host.head.revision}|${replay ?? 'live'}|${this.canvas.clientWidth}|${this.window?.from ?? ''}|${this.window?.to ?? ''}|${this.host.applies().length}`;
    if (key === this.drawnFor) return;
    this.drawnFor = key;
    this.draw();
    const status = timelineStatus(history, this.host.head, replay);
    this.canvas.setAttribute('aria-valuemin', String(history.heldFrom));
    this.canvas.setAttribute('aria-valuemax', String(status.latest));
    this.canvas.setAttribute('aria-valuenow', String(status.revision));
    const text = status.text;
    this.canvas.setAttribute('aria-valuetext', text);
    this.label.textContent = `${text} · history held from revision ${history.heldFrom}${history.compacted ? ' (earlier revisions compacted)' : ''}`;
    this.liveButton.setAttribute('appearance', replay === undefined ? 'secondary' : 'primary');
    this.liveButton.textContent = replay === undefined ? 'Live' : 'Back to live';
  }

  /** Moves `n` changes from the revision shown (the Step to next change of the timeline). */
  step(n: number): void {
    const history = this.host.history;
    const from = this.host.replay() ?? history.latestRevision;
    const to = history.step(from, n);
    if (to === undefined) {
      if (n > 0) this.host.setReplay(undefined);
      return;
    }
    this.host.setReplay(to >= history.latestRevision ? undefined : to);
  }

  togglePlay(): void {
    this.playing = !this.playing;
    const history = this.host.history;
    if (this.playing) {
      const from = this.host.replay();
      // Playing from live starts over from the beginning of what is held.
      const start = from === undefined ? history.heldFrom : from;
      this.host.setReplay(start);
      this.playTime = history.timeOf(start);
      this.lastTick = performance.now();
    }
    this.playButton.replaceChildren(h('span', { class: `codicon codicon-${this.playing ? 'debug-pause' : 'play'}`, 'aria-hidden': 'true' }));
    this.playButton.setAttribute('aria-label', this.playing ? 'Pause' : 'Play from the revision shown');
    this.playButton.setAttribute('title', this.playing ? 'Pause' : 'Play from the revision shown');
  }

  private tick(): void {
    const now = performance.now();
    const history = this.host.history;
    this.playTime += (now - this.lastTick) * this.rate;
    this.lastTick = now;
    if (this.playTime >= timelineStatus(history, this.host.head, undefined).latestTime) {
      this.togglePlay();
      this.host.setReplay(undefined);
      return;
    }
    const rev = history.revisionAtTime(this.playTime);
    if (rev !== this.host.replay()) this.host.setReplay(rev);
  }

  // ---- drawing ----

  private span(): { from: number; to: number } {
    const history = this.host.history;
    if (this.window) return this.window;
    const from = history.heldFromTime;
    const to = Math.max(timelineStatus(history, this.host.head, undefined).latestTime, from + 1000);
    return { from, to: to + (to - from) * 0.01 };
  }

  private draw(): void {
    const palette = (this.palette ??= readPalette());
    const dpr = window.devicePixelRatio || 1;
    const cssW = Math.max(100, this.canvas.clientWidth);
    const w = Math.round(cssW * dpr);
    const hgt = Math.round(HEIGHT * dpr);
    if (this.canvas.width !== w || this.canvas.height !== hgt) {
      this.canvas.width = w;
      this.canvas.height = hgt;
    }
    const history = this.host.history;
    const { from, to } = this.span();
    const stripKey = `${history.generation}|${this.host.head.revision}|${w}|${from}|${to}|${this.host.applies().length}|${palette.css.background}`;
    if (stripKey !== this.stripFor || !this.strip) {
      this.strip ??= document.createElement('canvas');
      this.strip.width = w;
      this.strip.height = hgt;
      this.drawStrip(this.strip, palette, cssW, dpr);
      this.stripFor = stripKey;
    }
    const ctx = this.canvas.getContext('2d')!;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.strip, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const c = palette.css;
    const x = (t: number) => LABEL_W + ((t - from) / Math.max(1, to - from)) * (cssW - LABEL_W - 8);
    const axisY = TOP + ROWS.length * ROW_H + 2;
    // The cursor: the revision shown.
    const replay = this.host.replay();
    const cx = x(timelineStatus(history, this.host.head, replay).time);
    ctx.fillStyle = c.focus;
    ctx.fillRect(Math.round(cx) - 1, 0, 2, axisY);
    if (replay !== undefined) {
      ctx.beginPath();
      ctx.moveTo(cx - 5, 0);
      ctx.lineTo(cx + 5, 0);
      ctx.lineTo(cx, 6);
      ctx.closePath();
      ctx.fill();
    }
  }

  /** The marks, the apply markers and the time axis. */
  private drawStrip(target: HTMLCanvasElement, palette: Palette, cssW: number, dpr: number): void {
    const ctx = target.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const c = palette.css;
    ctx.fillStyle = c.zone;
    ctx.fillRect(0, 0, cssW, HEIGHT);
    const history = this.host.history;
    const { from, to } = this.span();
    const x = (t: number) => LABEL_W + ((t - from) / Math.max(1, to - from)) * (cssW - LABEL_W - 8);
    ctx.font = `10px ${palette.fontFamily}`;
    ctx.textBaseline = 'middle';
    // Row labels and the marks, aggregated per pixel column.
    const columns = Math.ceil(cssW);
    ROWS.forEach((row, i) => {
      const y = TOP + i * ROW_H;
      ctx.fillStyle = c.muted;
      ctx.fillText(row.label, 4, y + ROW_H / 2);
    });
    const counts = ROWS.map(() => new Uint32Array(columns));
    history.forEachMark(
      (m) => {
        const row = ROWS.findIndex((r) => r.kinds.includes(m.kind));
        const col = Math.floor(x(m.time));
        if (row >= 0 && col >= LABEL_W && col < columns) counts[row]![col]!++;
      },
      from,
      to,
    );
    ROWS.forEach((row, i) => {
      const y = TOP + i * ROW_H;
      const colCounts = counts[i]!;
      let max = 1;
      for (const n of colCounts) if (n > max) max = n;
      ctx.fillStyle = c[row.color];
      for (let col = LABEL_W; col < columns; col++) {
        const n = colCounts[col]!;
        if (n === 0) continue;
        ctx.globalAlpha = 0.45 + 0.55 * Math.min(1, Math.log2(n + 1) / Math.log2(max + 1));
        ctx.fillRect(col, y + 1, 1, ROW_H - 2);
      }
      ctx.globalAlpha = 1;
    });
    // Apply markers: the user's writes.
    const axisY = TOP + ROWS.length * ROW_H + 2;
    ctx.fillStyle = c.foreground;
    for (const a of this.host.applies()) {
      if (a.time < from || a.time > to) continue;
      const ax = x(a.time);
      ctx.beginPath();
      ctx.moveTo(ax - 4, 1);
      ctx.lineTo(ax + 4, 1);
      ctx.lineTo(ax, 9);
      ctx.closePath();
      ctx.fill();
    }
    // Time ticks.
    ctx.fillStyle = c.muted;
    ctx.strokeStyle = c.boxBorder;
    ctx.beginPath();
    ctx.moveTo(LABEL_W, axisY);
    ctx.lineTo(cssW - 8, axisY);
    ctx.stroke();
    const ticks = 6;
    for (let i = 0; i <= ticks; i++) {
      const t = from + ((to - from) * i) / ticks;
      const tx = x(t);
      ctx.fillRect(tx, axisY, 1, 3);
      const label = formatTime(t).slice(0, 12);
      const w = ctx.measureText(label).width;
      ctx.fillText(label, Math.min(cssW - w - 2, Math.max(LABEL_W, tx - w / 2)), axisY + 9);
    }
  }

  // ---- input ----

  private timeAt(clientX: number): number {
    const r = this.canvas.getBoundingClientRect();
    const { from, to } = this.span();
    const frac = (clientX - r.left - LABEL_W) / Math.max(1, r.width - LABEL_W - 8);
    return from + Math.max(0, Math.min(1, frac)) * (to - from);
  }

  /** Shows the revision at a virtual time (the scrubber's position). */
  scrubTo(time: number): void {
    const history = this.host.history;
    const rev = history.revisionAtTime(time);
    this.host.setReplay(rev >= history.latestRevision && time >= timelineStatus(history, this.host.head, undefined).latestTime ? undefined : rev);
  }

  private bind(): void {
    const c = this.canvas;
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      c.setPointerCapture(e.pointerId);
      this.scrubbing = true;
      if (this.playing) this.togglePlay();
      this.scrubTo(this.timeAt(e.clientX));
    });
    c.addEventListener('pointermove', (e) => {
      if (this.scrubbing) this.scrubTo(this.timeAt(e.clientX));
    });
    c.addEventListener('pointerup', () => (this.scrubbing = false));
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      const { from, to } = this.span();
      const t = this.timeAt(e.clientX);
      const f = Math.exp(e.deltaY * 0.002);
      const held = this.host.history;
      const nf = Math.max(held.heldFromTime, t - (t - from) * f);
      const nt = Math.min(held.latestTime + (to - from), t + (to - t) * f);
      this.window = nt - nf > 5 ? { from: nf, to: nt } : this.window;
      this.drawnFor = '';
    }, { passive: false });
    c.addEventListener('keydown', (e) => {
      const keys: Record<string, () => void> = {
        ArrowLeft: () => this.step(-1),
        ArrowRight: () => this.step(1),
        PageUp: () => this.step(-10),
        PageDown: () => this.step(10),
        Home: () => this.host.setReplay(this.host.history.heldFrom),
        End: () => this.host.setReplay(undefined),
        ' ': () => this.togglePlay(),
      };
      const k = Object.hasOwn(keys, e.key) ? keys[e.key] : undefined;
      if (!k) return;
      e.preventDefault();
      k();
    });
  }
}
