/**
 * The Map tab: the cluster as node boxes filled with pod squares (webview/model/map-layout.ts,
 * drawn by map-canvas.ts), at the revision the timeline shows. Hover tells a pod's name, status
 * and requests; a click opens the object's details; selecting a pod paints every node with the
 * scheduler's verdict for it, from its attempt record. Wheel or +/- zooms, dragging pans; the
 * keyboard moves between nodes (arrows), into a node's pods (Enter) and back (Escape).
 *
 * `hitTest` is the model layer the UI tests query: which pod is in which node, in what tone,
 * where on screen, and what colour the canvas has there.
 */
import type { PodView } from '../../src/protocol/cluster-state';
import { parseSelector } from '../../src/protocol/selectors';
import type { SchedulingAttemptRecord } from '../../src/protocol/trace-records';
import type { ClusterState, NotHeld } from '../model/history';
import { layoutMap, NO_FILTERS, SQUARE, type MapFilters, type MapModel, type NodeBox, type PodCell } from '../model/map-layout';
import { POD_TONES, TONE_HELP, TONE_LABELS, type PodTone } from '../model/tones';
import { bytes, cores, podVerdicts, type PodVerdicts } from '../model/verdicts';
import { dropdown, icon, iconButton, textField, type Dropdown, type TextField } from './components';
import { h, replaceChildren } from './dom';
import { MapRenderer, type Camera, type Highlights } from './map-canvas';
import { readPalette, TONE_COLORS, type Palette } from './palette';
import type { ObjectRef } from './object-details';

export interface MapSavedState {
  namespace: string;
  selector: string;
  owner: string;
  selectedPod?: string;
}

export interface MapViewHost {
  /** The state at the revision shown. */
  state(): ClusterState | NotHeld;
  /** Changes whenever the state shown may have changed (new history, another revision). */
  stateVersion(): string;
  /** The pod's newest scheduling attempt record as of the revision shown. */
  attemptFor(pod: PodView): SchedulingAttemptRecord | undefined;
  openDetails(ref: ObjectRef): void;
  saved(): MapSavedState;
  save(): void;
}

/** What the UI tests read: the drawn model, in screen coordinates of the canvas. */
export interface MapHitTest {
  revision: number | undefined;
  nodes: { name: string; state: string; zone: string; pods: string[]; rect: Rect; cpu: string; verdict?: string }[];
  queue: string[];
  pods: { key: string; node?: string; tone: PodTone; toneLabel: string; color: string; matches: boolean; rect: Rect }[];
  /** The pod or node drawn at a canvas point. */
  at(x: number, y: number): { pod?: string; node?: string } | undefined;
  /** The canvas pixel's colour at a point, as "rgb(r, g, b)". */
  pixel(x: number, y: number): string;
  colorOf(tone: PodTone): string;
  verdictHeadline?: string;
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const MIN_SCALE = 0.02;
const MAX_SCALE = 6;

export class MapView {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly stage: HTMLElement;
  private readonly tooltip: HTMLElement;
  private readonly legend: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly counts: HTMLElement;
  private readonly live: HTMLElement;
  private readonly renderer: MapRenderer;
  private readonly namespace: Dropdown;
  private readonly owner: Dropdown;
  private readonly selector: TextField;
  private palette: Palette | undefined;
  private model: MapModel | undefined;
  private notHeld: NotHeld | undefined;
  private builtFor = '';
  private filters: MapFilters = NO_FILTERS;
  private cam: Camera = { x: 0, y: 0, scale: 1 };
  private autoFit = true;
  private hover: { pod?: string; node?: string } = {};
  private focus: { pod?: string; node?: string; queue?: boolean } = {};
  private verdicts: PodVerdicts | undefined;
  private drag: { x: number; y: number; cx: number; cy: number; moved: boolean } | undefined;
  private dirty = true;
  private active = false;
  private frame = 0;
  private buildMs = { state: 0, layout: 0 };
  private choicesTimer: ReturnType<typeof setTimeout> | undefined;
  private choicesFilled = false;
  private choicesModel: MapModel | undefined;
  private lastReplay = '';

  constructor(private readonly host: MapViewHost) {
    const saved = host.saved();
    this.namespace = dropdown('map-filter-namespace', 'Namespace', (v) => this.setFilter({ namespace: v }));
    this.owner = dropdown('map-filter-owner', 'Owner', (v) => this.setFilter({ owner: v }));
    this.selector = textField('map-filter-selector', 'Labels', 'app=web,tier!=db', (v) => this.setSelector(v));
    this.selector.value = saved.selector;
    this.counts = h('span', { class: 'status map-counts', role: 'status' });
    this.legend = h('div', { class: 'map-legend', role: 'list', 'aria-label': 'Pod colours' });
    this.banner = h('div', { class: 'map-verdict', role: 'status', 'aria-live': 'polite', hidden: true });
    this.canvas = h('canvas', {
      class: 'map-canvas',
      tabindex: 0,
      role: 'application',
      'aria-roledescription': 'cluster map',
      'aria-label': 'Cluster map. Arrow keys move between nodes; Enter goes into a node\u2019s pods and opens details; Escape goes back; plus and minus zoom; 0 fits the map.',
    });
    this.tooltip = h('div', { class: 'map-tooltip', role: 'tooltip', hidden: true });
    this.live = h('div', { class: 'sr-only', 'aria-live': 'polite' });
    this.stage = h('div', { class: 'map-stage' }, this.canvas, this.tooltip);
    const zoom = h(
      'div',
      { class: 'map-zoom' },
      iconButton('map-zoom-out', 'zoom-out', 'Zoom out (-)', () => this.zoomBy(1 / 1.5)),
      iconButton('map-zoom-in', 'zoom-in', 'Zoom in (+)', () => this.zoomBy(1.5)),
      iconButton('map-zoom-fit', 'screen-full', 'Fit the map (0)', () => this.fit()),
    );
    this.element = h(
      'div',
      { class: 'view map-view' },
      h('div', { class: 'toolbar' }, h('div', { class: 'filters' }, this.namespace.element, this.selector.element, this.owner.element), zoom, this.counts),
      h('div', { class: 'map-main' }, this.legend, this.banner, this.stage, this.live),
    );
    this.renderer = new MapRenderer(this.canvas);
    this.filters = { namespace: saved.namespace, owner: saved.owner, ...this.parseSelector(saved.selector) };
    this.bindPointer();
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => {
      // The layout's columns follow the viewport's shape; a map the user has not moved is fitted again.
      this.builtFor = '';
      this.invalidate();
    }).observe(this.stage);
    // VS Code changes the theme by rewriting the body's class and style.
    new MutationObserver(() => {
      this.palette = undefined;
      this.renderLegend();
      this.invalidate();
    }).observe(document.body, { attributes: true, attributeFilter: ['class', 'style'] });
  }

  /** Called every frame by the app: rebuilds the model when the state changed, redraws when needed. */
  update(active: boolean): void {
    this.active = active;
    if (!active) return;
    const version = `${this.host.stateVersion()}|${this.filterKey()}`;
    if (version !== this.builtFor) {
      this.builtFor = version;
      this.rebuild();
    }
    if (this.dirty) this.draw();
  }

  /** Redraw on the next frame. */
  invalidate(): void {
    this.dirty = true;
    if (this.active && !this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.update(this.active);
      });
    }
  }

  /** The revision the last frame was drawn at, how long reading the state, laying it out and drawing took (for the benchmark). */
  get lastFrame(): { revision: number | undefined; ms: number; stateMs: number; layoutMs: number } {
    return { revision: this.model?.revision, ms: this.renderer.lastFrameMs, stateMs: this.buildMs.state, layoutMs: this.buildMs.layout };
  }

  // ---- model ----

  private rebuild(): void {
    const t0 = performance.now();
    const state = this.host.state();
    const t1 = performance.now();
    const rect = this.stage.getBoundingClientRect();
    if (!state.held) {
      this.notHeld = state;
      this.model = undefined;
    } else {
      this.notHeld = undefined;
      this.model = layoutMap(state, this.filters, { aspect: Math.max(0.5, rect.width / Math.max(1, rect.height)), viewportWidth: Math.max(300, rect.width), viewportHeight: Math.max(200, rect.height), verdicts: this.host.saved().selectedPod !== undefined });
    }
    this.buildMs = { state: t1 - t0, layout: performance.now() - t1 };
    const model = this.model;
    const saved = this.host.saved();
    if (model) {
      this.scheduleChoices(model);
      const selected = saved.selectedPod ? model.cells.get(saved.selectedPod) : undefined;
      const attempt = selected ? this.host.attemptFor(selected.view) : undefined;
      this.verdicts = attempt ? podVerdicts(attempt, model.nodes.map((n) => n.name)) : undefined;
      if (this.autoFit) this.fit(false);
    }
    this.renderLegend();
    this.renderBanner();
    this.invalidate();
  }

  /**
   * The filters' choices follow the namespaces and owners of the revision shown, once it has
   * been shown for a moment: rebuilding hundreds of drop-down options on every frame of a scrub
   * cost more than drawing the map (the first list is filled at once).
   */
  private scheduleChoices(model: MapModel): void {
    const fill = (model: MapModel): void => {
      this.namespace.setChoices([{ value: '', label: 'All namespaces' }, ...model.namespaces.map((n) => ({ value: n, label: n }))], this.filters.namespace);
      this.owner.setChoices([{ value: '', label: 'Any owner' }, ...model.owners.map((o) => ({ value: o, label: o.replace('/', ' ') }))], this.filters.owner);
    };
    this.choicesModel = model;
    if (!this.choicesFilled) {
      this.choicesFilled = true;
      fill(model);
      return;
    }
    // While the revision moves (a scrub, Play), after it settles; while live, at most every second.
    const scrubbing = this.lastReplay !== this.replayShown();
    this.lastReplay = this.replayShown();
    if (scrubbing && this.choicesTimer !== undefined) {
      clearTimeout(this.choicesTimer);
      this.choicesTimer = undefined;
    }
    this.choicesTimer ??= setTimeout(() => {
      this.choicesTimer = undefined;
      const m = this.choicesModel;
      if (m) fill(m);
    }, scrubbing ? 300 : 1000);
  }

  private replayShown(): string {
    return this.host.stateVersion().split('@')[1] ?? '';
  }

  private filterKey(): string {
    return `${this.filters.namespace}|${this.selector.value}|${this.filters.owner}|${this.host.saved().selectedPod ?? ''}`;
  }

  private setFilter(change: Partial<MapSavedState>): void {
    const saved = this.host.saved();
    Object.assign(saved, change);
    this.filters = { ...this.filters, ...(change.namespace !== undefined ? { namespace: change.namespace } : {}), ...(change.owner !== undefined ? { owner: change.owner } : {}) };
    this.host.save();
    this.invalidate();
  }

  private setSelector(text: string): void {
    const parsed = this.parseSelector(text);
    this.host.saved().selector = text;
    this.filters = { namespace: this.filters.namespace, owner: this.filters.owner, ...parsed };
    this.host.save();
    this.invalidate();
  }

  private parseSelector(text: string): Pick<MapFilters, 'selector'> {
    if (text.trim() === '') {
      this.selector.setError(undefined);
      return {};
    }
    const s = parseSelector(text);
    if (!s.ok) {
      // The selector as kubectl -l would refuse it; the map stays unfiltered meanwhile.
      this.selector.setError(s.error);
      return {};
    }
    this.selector.setError(undefined);
    return { selector: s.value };
  }

  // ---- drawing ----

  private draw(): void {
    this.dirty = false;
    const rect = this.stage.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2) return;
    this.palette ??= readPalette();
    const dpr = window.devicePixelRatio || 1;
    this.canvas.style.width = `${rect.width}px`;
    this.canvas.style.height = `${rect.height}px`;
    this.renderer.resize(rect.width, rect.height, dpr);
    const model = this.model;
    if (!model) {
      const ctx = this.canvas.getContext('2d')!;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = this.palette.css.background;
      ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = this.palette.css.muted;
      ctx.font = `13px ${this.palette.fontFamily}`;
      const why = this.notHeld?.reason === 'before' ? `Revision ${this.notHeld.revision} is compacted: the panel's history starts at revision ${this.notHeld.heldFrom} (older revisions were folded into that state).` : 'Waiting for the cluster state…';
      ctx.fillText(why, 16, 24);
      this.counts.textContent = '';
      return;
    }
    const saved = this.host.saved();
    const hl: Highlights = { hover: this.hover, ...(saved.selectedPod ? { selectedPod: saved.selectedPod } : {}), focus: this.focus, ...(this.verdicts ? { verdicts: this.verdicts } : {}) };
    this.renderer.draw(model, this.cam, this.palette, hl, dpr);
    const filtered = model.matching !== model.total ? `, ${model.matching} match the filters` : '';
    // The revision shown is the timeline's to say: its head is the store's, not the last change drawn here.
    this.counts.textContent = `${model.nodes.length} nodes · ${model.total} pods${filtered}`;
  }

  private renderLegend(): void {
    const palette = (this.palette ??= readPalette());
    const counts = this.model?.toneCounts;
    const items = POD_TONES.filter((t) => t !== 'unknown' || (counts?.unknown ?? 0) > 0).map((t) => {
      const color = palette.css[TONE_COLORS[t]];
      const hollow = t === 'pending';
      const swatch = h('span', { class: `swatch tone-${t}${hollow ? ' hollow' : ''}`, 'aria-hidden': 'true' });
      swatch.style.setProperty('--swatch', color);
      return h('span', { class: 'legend-item', role: 'listitem', title: TONE_HELP[t] }, swatch, `${TONE_LABELS[t]} ${counts?.[t] ?? 0}`);
    });
    const node = h('span', { class: 'legend-item legend-nodes', role: 'listitem', title: 'Node boxes: a red border is NotReady, an orange one Unknown (the kubelet stopped posting status); a dashed border is cordoned (SchedulingDisabled). Bars: requested of allocatable CPU, memory and pods.' }, icon('info'), 'Node borders and bars');
    replaceChildren(this.legend, ...items, node);
  }

  private renderBanner(): void {
    const v = this.verdicts;
    const pod = this.host.saved().selectedPod;
    if (!pod) {
      this.banner.hidden = true;
      return;
    }
    this.banner.hidden = false;
    const clear = iconButton('map-verdict-clear', 'close', 'Clear the selection', () => this.select(undefined));
    const text = v
      ? [h('strong', { class: v.attempt.outcome !== 'scheduled' ? 'verdict-failed' : '' }, `Scheduler's verdict for ${pod}, ${v.headline}`), h('div', { class: 'hint' }, 'Each node shows the filter that turned the pod away (red) or, if it was feasible, its total score (green).')]
      : [h('span', {}, `${pod}: no scheduling attempt record is held for it (it was bound before the trace began, or not attempted yet).`)];
    replaceChildren(this.banner, h('div', {}, ...text), clear);
  }

  // ---- camera ----

  private fit(redraw = true): void {
    const model = this.model;
    if (!model) return;
    const rect = this.stage.getBoundingClientRect();
    const scale = clamp(Math.min(rect.width / model.width, rect.height / model.height) * 0.98, MIN_SCALE, 1.6);
    this.cam = { scale, x: -(rect.width / scale - model.width) / 2, y: -4 / scale };
    if (redraw) {
      this.autoFit = true;
      this.invalidate();
    }
  }

  private zoomBy(factor: number, at?: { x: number; y: number }): void {
    const rect = this.stage.getBoundingClientRect();
    const p = at ?? { x: rect.width / 2, y: rect.height / 2 };
    const scale = clamp(this.cam.scale * factor, MIN_SCALE, MAX_SCALE);
    const wx = this.cam.x + p.x / this.cam.scale;
    const wy = this.cam.y + p.y / this.cam.scale;
    this.cam = { scale, x: wx - p.x / scale, y: wy - p.y / scale };
    this.autoFit = false;
    this.invalidate();
  }

  /** Pans by screen pixels. */
  panBy(dx: number, dy: number): void {
    this.cam = { ...this.cam, x: this.cam.x - dx / this.cam.scale, y: this.cam.y - dy / this.cam.scale };
    this.autoFit = false;
    this.invalidate();
  }

  /** Zooms by a factor around a canvas point (the benchmark drives this). */
  zoomAt(factor: number, x: number, y: number): void {
    this.zoomBy(factor, { x, y });
  }

  private reveal(x: number, y: number, w: number, h: number): void {
    const rect = this.stage.getBoundingClientRect();
    const s = this.cam.scale;
    const sx = (x - this.cam.x) * s;
    const sy = (y - this.cam.y) * s;
    let dx = 0;
    let dy = 0;
    if (sx < 8) dx = 8 - sx;
    else if (sx + w * s > rect.width - 8) dx = rect.width - 8 - (sx + w * s);
    if (sy < 8) dy = 8 - sy;
    else if (sy + h * s > rect.height - 8) dy = rect.height - 8 - (sy + h * s);
    if (dx || dy) this.panBy(dx, dy);
  }

  // ---- pointer ----

  private toWorld(e: { clientX: number; clientY: number }): { x: number; y: number; sx: number; sy: number } {
    const r = this.canvas.getBoundingClientRect();
    const sx = e.clientX - r.left;
    const sy = e.clientY - r.top;
    return { sx, sy, x: this.cam.x + sx / this.cam.scale, y: this.cam.y + sy / this.cam.scale };
  }

  private bindPointer(): void {
    const c = this.canvas;
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      const p = this.toWorld(e);
      this.zoomBy(Math.exp(-e.deltaY * 0.0015), { x: p.sx, y: p.sy });
    }, { passive: false });
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      c.setPointerCapture(e.pointerId);
      this.drag = { x: e.clientX, y: e.clientY, cx: this.cam.x, cy: this.cam.y, moved: false };
    });
    c.addEventListener('pointermove', (e) => {
      const d = this.drag;
      if (d) {
        if (Math.abs(e.clientX - d.x) + Math.abs(e.clientY - d.y) > 3) d.moved = true;
        if (d.moved) {
          this.cam = { ...this.cam, x: d.cx - (e.clientX - d.x) / this.cam.scale, y: d.cy - (e.clientY - d.y) / this.cam.scale };
          this.autoFit = false;
          this.tooltip.hidden = true;
          this.invalidate();
          return;
        }
      }
      this.onHover(e);
    });
    c.addEventListener('pointerup', (e) => {
      const d = this.drag;
      this.drag = undefined;
      if (d && !d.moved) this.onClick(e);
    });
    c.addEventListener('pointerleave', () => {
      this.hover = {};
      this.tooltip.hidden = true;
      this.invalidate();
    });
  }

  private hitAt(e: { clientX: number; clientY: number }): { cell?: PodCell; box?: NodeBox; queue: boolean } {
    const model = this.model;
    if (!model) return { queue: false };
    const p = this.toWorld(e);
    const cell = model.podAt(p.x, p.y);
    const box = model.nodeAt(p.x, p.y);
    const q = model.queue;
    return { ...(cell ? { cell } : {}), ...(box ? { box } : {}), queue: p.x >= q.x && p.x < q.x + q.w && p.y >= q.y && p.y < q.y + q.h };
  }

  private onHover(e: PointerEvent): void {
    const { cell, box } = this.hitAt(e);
    const next = { ...(cell ? { pod: cell.key } : {}), ...(box && !cell ? { node: box.name } : {}) };
    if (next.pod !== this.hover.pod || next.node !== this.hover.node) {
      this.hover = next;
      this.invalidate();
    }
    const lines = cell ? podLines(cell) : box ? nodeLines(box, this.verdicts) : undefined;
    if (!lines) {
      this.tooltip.hidden = true;
      return;
    }
    replaceChildren(this.tooltip, ...lines.map((l, i) => h(i === 0 ? 'strong' : 'div', {}, l)));
    this.tooltip.hidden = false;
    const r = this.stage.getBoundingClientRect();
    const p = this.toWorld(e);
    const tw = this.tooltip.offsetWidth;
    const th = this.tooltip.offsetHeight;
    this.tooltip.style.left = `${Math.min(p.sx + 14, r.width - tw - 4)}px`;
    this.tooltip.style.top = `${p.sy + 16 + th > r.height ? p.sy - th - 8 : p.sy + 16}px`;
  }

  private onClick(e: PointerEvent): void {
    const { cell, box } = this.hitAt(e);
    if (cell) {
      this.select(cell.key);
      this.focus = { pod: cell.key };
      this.host.openDetails({ kind: 'Pod', namespace: cell.view.namespace, name: cell.view.name });
    } else if (box) {
      this.focus = { node: box.name };
      this.host.openDetails({ kind: 'Node', name: box.name });
    } else {
      this.select(undefined);
    }
    this.canvas.focus({ preventScroll: true });
    this.invalidate();
  }

  /** Selects a pod (its scheduler verdicts paint the nodes) or clears the selection. */
  select(podKey: string | undefined): void {
    const saved = this.host.saved();
    if (podKey === undefined) delete saved.selectedPod;
    else saved.selectedPod = podKey;
    this.host.save();
    this.invalidate();
  }

  // ---- keyboard ----

  private onKey(e: KeyboardEvent): void {
    const model = this.model;
    if (!model) return;
    const handled = (): void => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (e.key === '+' || e.key === '=') return handled(), this.zoomBy(1.25);
    if (e.key === '-' || e.key === '_') return handled(), this.zoomBy(0.8);
    if (e.key === '0') return handled(), this.fit();
    const dirs: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const dir = Object.hasOwn(dirs, e.key) ? dirs[e.key] : undefined;
    const f = this.focus;
    if (dir) {
      handled();
      if (f.pod) this.movePod(dir);
      else this.moveNode(dir);
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      handled();
      if (f.pod) {
        const cell = model.cells.get(f.pod);
        if (cell) {
          this.select(cell.key);
          this.host.openDetails({ kind: 'Pod', namespace: cell.view.namespace, name: cell.view.name });
        }
        return;
      }
      const cells = f.queue ? model.queue.cells : f.node ? model.byNode.get(f.node)?.cells : undefined;
      if (f.node) this.host.openDetails({ kind: 'Node', name: f.node });
      if (cells && cells.length > 0) this.setFocus({ pod: cells[0]!.key });
      return;
    }
    if (e.key === 'Escape') {
      handled();
      if (f.pod) {
        const cell = model.cells.get(f.pod);
        this.setFocus(cell?.node ? { node: cell.node } : { queue: true });
      } else this.select(undefined);
      return;
    }
    if (e.key === 'Home') return handled(), this.setFocus({ queue: true });
  }

  private moveNode([dx, dy]: [number, number]): void {
    const model = this.model!;
    const f = this.focus;
    const q = model.queue;
    const boxes = [{ key: 'queue', x: q.x, y: q.y, w: Math.min(q.w, 400), h: q.h }, ...model.nodes.map((b) => ({ key: b.name, x: b.x, y: b.y, w: b.w, h: b.h }))];
    const current = boxes.find((b) => (f.queue ? b.key === 'queue' : b.key === f.node));
    if (!current) return this.setFocus({ queue: true });
    const cx = current.x + current.w / 2;
    const cy = current.y + current.h / 2;
    let best: (typeof boxes)[number] | undefined;
    let bestD = Infinity;
    for (const b of boxes) {
      if (b === current) continue;
      const bx = b.x + b.w / 2 - cx;
      const by = b.y + b.h / 2 - cy;
      const along = bx * dx + by * dy;
      if (along <= 0) continue;
      const across = Math.abs(bx * dy) + Math.abs(by * dx);
      const d = along + across * 2;
      if (d < bestD) {
        bestD = d;
        best = b;
      }
    }
    if (best) this.setFocus(best.key === 'queue' ? { queue: true } : { node: best.key });
  }

  private movePod([dx, dy]: [number, number]): void {
    const model = this.model!;
    const cell = model.cells.get(this.focus.pod!);
    if (!cell) return;
    const list = cell.node ? model.byNode.get(cell.node)!.cells : model.queue.cells;
    const cols = cell.node ? model.byNode.get(cell.node)!.cols : model.queue.cols;
    const i = list.indexOf(cell);
    const j = i + dx + dy * cols;
    if (j >= 0 && j < list.length) this.setFocus({ pod: list[j]!.key });
  }

  private setFocus(f: { pod?: string; node?: string; queue?: boolean }): void {
    this.focus = f;
    const model = this.model!;
    if (f.pod) {
      const cell = model.cells.get(f.pod);
      if (cell) {
        this.reveal(cell.x, cell.y, SQUARE, SQUARE);
        this.live.textContent = podLines(cell).join('. ');
      }
    } else if (f.node) {
      const b = model.byNode.get(f.node);
      if (b) {
        this.reveal(b.x, b.y, b.w, b.h);
        this.live.textContent = nodeLines(b, this.verdicts).join('. ');
      }
    } else if (f.queue) {
      this.reveal(0, 0, Math.min(model.queue.w, 400), model.queue.h);
      this.live.textContent = `Scheduling queue: ${model.queue.cells.length} pods not bound to a node`;
    }
    this.invalidate();
  }

  // ---- the hit-test layer ----

  hitTest(): MapHitTest {
    const model = this.model;
    const palette = (this.palette ??= readPalette());
    const cam = this.cam;
    const toScreen = (x: number, y: number, w: number, hgt: number): Rect => ({ x: (x - cam.x) * cam.scale, y: (y - cam.y) * cam.scale, w: w * cam.scale, h: hgt * cam.scale });
    const dpr = window.devicePixelRatio || 1;
    const ctx = this.canvas.getContext('2d')!;
    return {
      revision: model?.revision,
      nodes: (model?.nodes ?? []).map((b) => {
        const v = this.verdicts?.byNode.get(b.name);
        return {
          name: b.name,
          state: [b.state.status, b.state.stopped ? 'stopped' : '', b.state.tainted ? 'tainted' : ''].filter(Boolean).join(','),
          zone: b.zone,
          pods: b.cells.map((c) => c.key),
          rect: toScreen(b.x, b.y, b.w, b.h),
          cpu: `${cores(b.cpu.requested)}/${cores(b.cpu.allocatable)}`,
          ...(v ? { verdict: v.verdict === 'rejected' ? `rejected: ${v.text}` : v.verdict === 'not evaluated' ? 'not evaluated' : `${v.verdict}${v.score !== undefined ? ` ${v.score}` : ''}` } : {}),
        };
      }),
      queue: (model?.queue.cells ?? []).map((c) => c.key),
      pods: [...(model?.cells.values() ?? [])].map((c) => ({
        key: c.key,
        ...(c.node ? { node: c.node } : {}),
        tone: c.tone,
        toneLabel: TONE_LABELS[c.tone],
        color: palette.css[TONE_COLORS[c.tone]],
        matches: c.matches,
        rect: toScreen(c.x, c.y, SQUARE, SQUARE),
      })),
      at: (x, y) => {
        if (!model) return undefined;
        const wx = cam.x + x / cam.scale;
        const wy = cam.y + y / cam.scale;
        const cell = model.podAt(wx, wy);
        if (cell) return { pod: cell.key, ...(cell.node ? { node: cell.node } : {}) };
        const box = model.nodeAt(wx, wy);
        return box ? { node: box.name } : undefined;
      },
      pixel: (x, y) => {
        const d = ctx.getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data;
        return `rgb(${d[0]}, ${d[1]}, ${d[2]})`;
      },
      colorOf: (tone) => palette.css[TONE_COLORS[tone]],
      ...(this.verdicts ? { verdictHeadline: this.verdicts.headline } : {}),
    };
  }
}

function podLines(c: PodCell): string[] {
  const p = c.view;
  return [
    `${p.namespace}/${p.name}`,
    `${p.status} · READY ${p.ready}${p.restarts ? ` · ${p.restarts} restarts` : ''}`,
    p.node ? `on ${p.node}` : 'not bound to a node (in the scheduling queue)',
    `requests cpu ${cores(p.requests.milliCPU)}, memory ${bytes(p.requests.memory)}`,
    c.owner,
  ];
}

function nodeLines(b: NodeBox, verdicts: PodVerdicts | undefined): string[] {
  const v = verdicts?.byNode.get(b.name);
  const taints = b.view.taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ');
  return [
    b.name,
    `${b.state.status}${b.state.stopped ? ' · kubelet stopped' : ''}${b.zone ? ` · zone ${b.zone}` : ''}`,
    `CPU ${cores(b.cpu.requested)} of ${cores(b.cpu.allocatable)} requested · memory ${bytes(b.memory.requested)} of ${bytes(b.memory.allocatable)} · pods ${b.pods.requested} of ${b.pods.allocatable}`,
    ...(taints ? [`taints: ${taints}`] : []),
    ...(v ? [v.verdict === 'rejected' ? `scheduler: ${v.text}` : v.verdict === 'not evaluated' ? 'scheduler: not evaluated' : `scheduler: ${v.verdict}${v.score !== undefined ? `, score ${v.score}` : ''}`] : []),
  ];
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}
