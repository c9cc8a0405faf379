/**
 * Draws the cluster map (webview/model/map-layout.ts) on one canvas. Boxes, bars and pod
 * squares go into a pixel buffer (a Uint32Array over an ImageData, one fill per row of each
 * rectangle: tens of thousands of squares cost a few milliseconds); text and highlights go on
 * top with the 2D context, only where they are large enough to read. Only what is inside the
 * viewport is drawn.
 */
import type { MapModel, NodeBox, PodCell } from '../model/map-layout';
import { CELL, SQUARE, VERDICT_H } from '../model/map-layout';
import { POD_TONES, type PodTone } from '../model/tones';
import type { NodeVerdict, PodVerdicts } from '../model/verdicts';
import { cores, bytes } from '../model/verdicts';
import { fit, wrap } from './canvas-text';
import { TONE_COLORS, type Palette } from './palette';

export interface Camera {
  /** The world point at the viewport's top-left corner. */
  x: number;
  y: number;
  /** Screen pixels per world unit. */
  scale: number;
}

export interface Highlights {
  readonly hover?: { readonly pod?: string; readonly node?: string };
  readonly selectedPod?: string;
  readonly selectedNode?: string;
  /** The keyboard's focus: a node name, a pod key, or 'queue'. */
  readonly focus?: { readonly pod?: string; readonly node?: string; readonly queue?: boolean };
  readonly verdicts?: PodVerdicts;
}

const NODE_TEXT_MIN = 150;
/** Where the bars start inside a box (their labels sit to their left), world units. */
const BAR_X = 150;
const BARS_Y = 40;
const NAME_TEXT_MIN = 56;

export class MapRenderer {
  private image: ImageData | undefined;
  private pixels: Uint32Array | undefined;
  private width = 0;
  private height = 0;
  private readonly ctx: CanvasRenderingContext2D;
  /** Last frame's drawing time in ms (for the benchmark). */
  lastFrameMs = 0;

  constructor(readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('the map needs a 2D canvas');
    this.ctx = ctx;
  }

  /** Sizes the backing store to the element's CSS size times the device pixel ratio. */
  resize(cssWidth: number, cssHeight: number, dpr: number): void {
    const w = Math.max(1, Math.round(cssWidth * dpr));
    const h = Math.max(1, Math.round(cssHeight * dpr));
    if (w === this.width && h === this.height) return;
    this.width = w;
    this.height = h;
    this.canvas.width = w;
    this.canvas.height = h;
    this.image = this.ctx.createImageData(w, h);
    this.pixels = new Uint32Array(this.image.data.buffer);
  }

  draw(model: MapModel, cam: Camera, palette: Palette, hl: Highlights, dpr: number): void {
    const t0 = performance.now();
    const px = this.pixels;
    if (!px || !this.image) return;
    const W = this.width;
    const H = this.height;
    const s = cam.scale * dpr;
    const sx = (wx: number) => (wx - cam.x) * s;
    const sy = (wy: number) => (wy - cam.y) * s;
    const p = palette.pixel;
    px.fill(p.background);

    const fill = (x: number, y: number, w: number, h: number, color: number): void => {
      let x0 = Math.round(x);
      let y0 = Math.round(y);
      let x1 = Math.round(x + w);
      let y1 = Math.round(y + h);
      if (x1 <= x0) x1 = x0 + 1;
      if (y1 <= y0) y1 = y0 + 1;
      if (x0 < 0) x0 = 0;
      if (y0 < 0) y0 = 0;
      if (x1 > W) x1 = W;
      if (y1 > H) y1 = H;
      for (let yy = y0; yy < y1; yy++) px.fill(color, yy * W + x0, yy * W + x1);
    };
    const stroke = (x: number, y: number, w: number, h: number, color: number, dashed = false): void => {
      if (!dashed) {
        fill(x, y, w, 1, color);
        fill(x, y + h - 1, w, 1, color);
        fill(x, y, 1, h, color);
        fill(x + w - 1, y, 1, h, color);
        return;
      }
      const dash = 4 * dpr;
      for (let d = 0; d < w; d += 2 * dash) {
        fill(x + d, y, Math.min(dash, w - d), 1, color);
        fill(x + d, y + h - 1, Math.min(dash, w - d), 1, color);
      }
      for (let d = 0; d < h; d += 2 * dash) {
        fill(x, y + d, 1, Math.min(dash, h - d), color);
        fill(x + w - 1, y + d, 1, Math.min(dash, h - d), color);
      }
    };
    const visible = (x: number, y: number, w: number, h: number) => sx(x + w) >= 0 && sx(x) <= W && sy(y + h) >= 0 && sy(y) <= H;

    // Pod square colours for this frame: full, faint (filtered out), and their hollow forms.
    const toneColor = {} as Record<PodTone, number>;
    for (const t of POD_TONES) toneColor[t] = p[TONE_COLORS[t]];
    const faintOf = (c: number, under: number) => palette.mix(under, c, palette.highContrast ? 0.45 : 0.28);
    const cellPx = Math.max(1, SQUARE * s);
    const outlines = CELL * s >= 7;

    const drawCells = (cells: readonly PodCell[], cols: number, under: number): void => {
      for (let i = 0; i < cells.length; i++) {
        const c = cells[i]!;
        const x = sx(c.x);
        const y = sy(c.y);
        if (x > W || y > H || x + cellPx < 0 || y + cellPx < 0) continue;
        const color = c.matches ? toneColor[c.tone] : faintOf(toneColor[c.tone], under);
        if ((c.tone === 'pending' || c.tone === 'unknown') && cellPx >= 4) {
          stroke(x, y, cellPx, cellPx, color);
          if (c.tone === 'unknown') fill(x + cellPx / 2 - 0.5, y + 1, 1, cellPx - 2, color);
        } else {
          fill(x, y, cellPx, cellPx, color);
          // CrashLoopBackOff: a red square with a hole, told apart from Failed without colour.
          if (c.tone === 'crashloop' && cellPx >= 6) fill(x + cellPx / 3, y + cellPx / 3, cellPx / 3, cellPx / 3, under);
          if (c.tone === 'succeeded' && cellPx >= 6) fill(x + cellPx / 3, y + cellPx / 3, cellPx / 3, cellPx / 3, under);
        }
      }
      if (!outlines) return;
      // Owner groups: an outline around each run of squares of one controller.
      const gap = ((CELL - SQUARE) / 2) * s;
      const line = palette.mix(under, p.muted, 0.7);
      const cellW = CELL * s;
      const selectedGroup = hl.selectedPod === undefined ? -1 : (cells.find((o) => o.key === hl.selectedPod)?.group ?? -1);
      for (let i = 0; i < cells.length; i++) {
        const c = cells[i]!;
        const g = c.group;
        const col = i % cols;
        const x = sx(c.x) - gap;
        const y = sy(c.y) - gap;
        if (x > W || y > H || x + cellW < 0 || y + cellW < 0) continue;
        const color = g === selectedGroup ? p.focus : line;
        if (col === 0 || cells[i - 1]?.group !== g) fill(x, y, 1, cellW, color);
        if (col === cols - 1 || cells[i + 1]?.group !== g) fill(x + cellW, y, 1, cellW + 1, color);
        if (i < cols || cells[i - cols]?.group !== g) fill(x, y, cellW, 1, color);
        if (cells[i + cols]?.group !== g) fill(x, y + cellW, cellW + 1, 1, color);
      }
    };

    // The scheduling queue lane.
    const q = model.queue;
    if (visible(q.x, q.y, q.w, q.h)) {
      fill(sx(q.x), sy(q.y), q.w * s, q.h * s, p.zone);
      stroke(sx(q.x), sy(q.y), q.w * s, q.h * s, q.cells.length > 0 ? p.muted : p.boxBorder);
      drawCells(q.cells, q.cols, p.zone);
    }
    for (const z of model.zones) {
      if (!visible(z.x, z.y, z.w, z.h)) continue;
      fill(sx(z.x), sy(z.y), z.w * s, z.h * s, p.zone);
      stroke(sx(z.x), sy(z.y), z.w * s, z.h * s, p.boxBorder);
    }
    const verdicts = hl.verdicts?.byNode;
    const shown: NodeBox[] = [];
    for (const b of model.nodes) {
      if (!visible(b.x, b.y, b.w, b.h)) continue;
      shown.push(b);
      const x = sx(b.x);
      const y = sy(b.y);
      const w = b.w * s;
      const h = b.h * s;
      const v = verdicts?.get(b.name);
      let bg = b.state.stopped ? palette.mix(p.box, p.muted, 0.12) : p.box;
      if (v?.verdict === 'rejected') bg = palette.mix(bg, p.red, palette.highContrast ? 0.3 : 0.16);
      else if (v?.verdict === 'feasible' || v?.verdict === 'chosen') bg = palette.mix(bg, p.green, palette.highContrast ? 0.3 : 0.16);
      if (!b.matches) bg = palette.mix(p.zone, bg, 0.5);
      fill(x, y, w, h, bg);
      const border = b.state.health === 'notready' ? p.red : b.state.health === 'unknown' ? p.orange : p.boxBorder;
      stroke(x, y, w, h, border, b.state.cordoned);
      if (b.state.health !== 'ready') stroke(x + 1, y + 1, w - 2, h - 2, border, b.state.cordoned);
      // Bars: CPU, memory, pods requested of allocatable.
      const barX = sx(b.x + BAR_X);
      const barW = (b.w - BAR_X - 8) * s;
      const bars = [b.cpu, b.memory, b.pods];
      for (let i = 0; i < 3; i++) {
        const u = bars[i]!;
        const by = sy(b.y + BARS_Y + i * 12 + 4);
        const bh = Math.max(1, 5 * s);
        fill(barX, by, barW, bh, palette.mix(bg, p.track, 0.9));
        const ratio = u.allocatable > 0 ? u.requested / u.allocatable : u.requested > 0 ? 1 : 0;
        if (ratio > 0) fill(barX, by, Math.max(1, Math.min(1, ratio) * barW), bh, ratio > 1 ? p.red : ratio >= 0.9 ? p.orange : p.bar);
      }
      drawCells(b.cells, b.cols, bg);
    }
    this.ctx.putImageData(this.image, 0, 0);
    this.overlay(model, cam, palette, hl, dpr, shown, verdicts);
    this.lastFrameMs = performance.now() - t0;
  }

  /** Text and highlights, on top of the pixel buffer, where they are large enough to read. */
  private overlay(model: MapModel, cam: Camera, palette: Palette, hl: Highlights, dpr: number, shown: readonly NodeBox[], verdicts: ReadonlyMap<string, NodeVerdict> | undefined): void {
    const ctx = this.ctx;
    const s = cam.scale;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const sx = (wx: number) => (wx - cam.x) * s;
    const sy = (wy: number) => (wy - cam.y) * s;
    const c = palette.css;
    const font = (size: number, weight = '') => `${weight} ${size}px ${palette.fontFamily}`.trim();
    ctx.textBaseline = 'middle';
    const text = (t: string, x: number, y: number, maxW: number, color: string, f: string): void => {
      if (maxW < 12) return;
      ctx.font = f;
      ctx.fillStyle = color;
      ctx.fillText(fit(ctx, t, maxW), x, y);
    };
    const cssW = this.width / dpr;
    const cssH = this.height / dpr;
    const screenVisible = (x: number, y: number, w: number, h: number) => x + w >= 0 && x <= cssW && y + h >= 0 && y <= cssH;

    const q = model.queue;
    const qx = sx(q.x);
    const qy = sy(q.y);
    if (screenVisible(qx, qy, q.w * s, q.h * s)) {
      const label = q.cells.length === 0 ? 'Scheduling queue: empty (every pod is bound to a node)' : `Scheduling queue: ${q.cells.length} pod${q.cells.length === 1 ? '' : 's'} not bound to a node`;
      text(label, Math.max(qx, 0) + 8, qy + Math.min(13, Math.max(8, 13 * s)), Math.min(q.w * s, cssW) - 16, q.cells.length ? c.foreground : c.muted, font(12, '600'));
    }
    for (const z of model.zones) {
      const zx = sx(z.x);
      const zy = sy(z.y);
      if (!screenVisible(zx, zy, z.w * s, z.h * s) || z.w * s < 40) continue;
      const label = `${z.zone ? `zone ${z.zone}` : 'no zone label'} · ${z.nodes} node${z.nodes === 1 ? '' : 's'}`;
      text(label, Math.max(zx, 0) + 8, zy + Math.min(13, Math.max(7, 13 * s)), z.w * s - 16, c.muted, font(12, '600'));
    }
    for (const b of shown) {
      const x = sx(b.x);
      const y = sy(b.y);
      const w = b.w * s;
      if (w < NAME_TEXT_MIN) continue;
      if (w < NODE_TEXT_MIN) {
        text(b.name, x + 4, y + Math.max(6, 11 * s), w - 8, c.foreground, font(Math.min(12, Math.max(9, 11 * s))));
        continue;
      }
      const k = s;
      text(b.name, x + 8 * k, y + 11 * k, w - 16 * k, c.foreground, font(12 * Math.min(1.4, k), '600'));
      const st = b.state;
      const health = st.stopped ? `${st.status} · kubelet stopped` : st.status;
      const hard = b.view.taints.filter((t) => t.effect !== 'PreferNoSchedule');
      const badges = [b.zone, hard.length ? 'tainted' : ''].filter(Boolean).join(' · ');
      const healthColor = st.health === 'notready' ? c.red : st.health === 'unknown' || st.stopped ? c.orange : c.muted;
      ctx.font = font(11 * Math.min(1.3, k));
      const hw = Math.min(ctx.measureText(health).width, w * 0.6);
      text(health, x + 8 * k, y + 28 * k, w * 0.6, healthColor, font(11 * Math.min(1.3, k)));
      text(badges, x + 8 * k + hw + 8, y + 28 * k, w - hw - 24 * k, c.muted, font(11 * Math.min(1.3, k)));
      const labels = [
        `CPU ${cores(b.cpu.requested)} / ${cores(b.cpu.allocatable)}`,
        `Memory ${bytes(b.memory.requested)} / ${bytes(b.memory.allocatable)}`,
        `Pods ${b.pods.requested} / ${b.pods.allocatable}`,
      ];
      if (12 * k >= 9) labels.forEach((l, i) => text(l, x + 8 * k, y + (BARS_Y + i * 12 + 6.5) * k, (BAR_X - 12) * k, c.foreground, font(Math.min(10.5 * k, 14))));
      const v = verdicts?.get(b.name);
      if (v) this.verdictBand(v, x, y + (b.h - VERDICT_H) * k, w, VERDICT_H * k, palette, font(11 * Math.min(1.3, k)));
    }
    // Highlights: hover, selection and keyboard focus rings.
    const ring = (x: number, y: number, w: number, h: number, color: string, width: number): void => {
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      ctx.strokeRect(x - width / 2, y - width / 2, w + width, h + width);
    };
    const podRing = (key: string | undefined, color: string, width: number): void => {
      const cell = key === undefined ? undefined : model.cells.get(key);
      if (cell) ring(sx(cell.x), sy(cell.y), Math.max(2, SQUARE * s), Math.max(2, SQUARE * s), color, width);
    };
    const nodeRing = (name: string | undefined, color: string, width: number): void => {
      const b = name === undefined ? undefined : model.byNode.get(name);
      if (b) ring(sx(b.x), sy(b.y), b.w * s, b.h * s, color, width);
    };
    nodeRing(hl.hover?.node, c.muted, 1);
    podRing(hl.hover?.pod, c.foreground, 1.5);
    nodeRing(hl.selectedNode, c.focus, 2);
    podRing(hl.selectedPod, c.focus, 2);
    if (hl.focus?.queue) ring(sx(q.x) + 2, sy(q.y) + 2, q.w * s - 4, q.h * s - 4, c.focus, 2);
    nodeRing(hl.focus?.node, c.focus, 2);
    podRing(hl.focus?.pod, c.focus, 2.5);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }

  private verdictBand(v: NodeVerdict, x: number, y: number, w: number, h: number, palette: Palette, f: string): void {
    const ctx = this.ctx;
    const c = palette.css;
    const line =
      v.verdict === 'rejected' ? `✗ ${v.text}` : v.verdict === 'chosen' ? `✓ chosen${v.score !== undefined ? ` · score ${v.score}` : ''}` : v.verdict === 'feasible' ? `✓ feasible${v.score !== undefined ? ` · score ${v.score}` : ''}` : '· not evaluated (the search stopped before it)';
    const color = v.verdict === 'rejected' ? c.red : v.verdict === 'not evaluated' ? c.muted : c.green;
    ctx.font = f;
    const lineH = parseFloat(f.replace(/^\D*/, '')) * 1.3;
    const lines = wrap(ctx, line, w - 16).slice(0, Math.max(1, Math.floor((h - 4) / lineH)));
    ctx.fillStyle = color;
    lines.forEach((l, i) => ctx.fillText(l, x + 8, y + 2 + lineH * (i + 0.5)));
  }
}
