/**
 * The Graph tab: Deployments and CronJobs, ReplicaSets, StatefulSets, DaemonSets and Jobs, Pods,
 * EndpointSlices and Services at the revision the
 * timeline shows, as boxes in SVG tied by owner, routing and selector edges
 * (webview/model/graph.ts), placed by ELK (webview/model/graph-layout.ts). Colours are VS Code's
 * theme variables, so light, dark and high-contrast themes need nothing more.
 *
 * The boxes are kept by object: when the layout changes (a new ReplicaSet, a pod gone) each box
 * glides from where it was to where it goes, so a rolling update is seen as the old ReplicaSet
 * moving down while the new one appears above it; with reduced motion they jump. While a new
 * layout is computed the boxes already placed keep their places and take the new status at once;
 * new boxes appear when their place is known.
 *
 * Keyboard: arrow keys move up and down a column and left and right along the edges, Enter opens
 * the details (as a click does), + and - zoom, 0 fits. Each box is a focusable button labelled
 * with its full status sentence. `hitTest` is the model layer the UI tests query.
 */
import type { ClusterState, NotHeld } from '../model/history';
import { buildGraph, columnTitles, SIZE, type EdgeType, type GraphKind, type GraphModel, type GraphNode } from '../model/graph';
import { elkGraph, HEADING_H, layoutGraph, layoutSignature, type GraphLayout, type Placed } from '../model/graph-layout';
import { dropdown, icon, iconButton, type Dropdown } from './components';
import { h, replaceChildren, svg } from './dom';
import type { ObjectRef } from './object-details';
import { cssColor } from './palette';

export interface GraphSavedState {
  namespace: string;
  focused?: string;
}

export interface GraphViewHost {
  state(): ClusterState | NotHeld;
  stateVersion(): string;
  /** The revision an object was first stored at, for the order of pods. */
  born(kind: GraphKind, namespace: string, name: string): number | undefined;
  openDetails(ref: ObjectRef): void;
  saved(): GraphSavedState;
  save(): void;
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** What the UI tests read: the drawn boxes and edges, in screen coordinates of the stage. */
export interface GraphHitTest {
  /** The revision of the state drawn (undefined: nothing drawn, or not held). */
  revision: number | undefined;
  /** A layout is being computed: boxes new in the state are not drawn yet. */
  pending: boolean;
  nodes: {
    id: string;
    kind: GraphKind;
    name: string;
    namespace: string;
    status: string;
    role?: 'new' | 'old';
    revision?: number;
    tone?: string;
    rollingOut?: boolean;
    deleting: boolean;
    column: number;
    order: number;
    /** The status colour as the theme resolves it (the box's stripe), "rgb(r, g, b)". */
    color: string;
    rect: Rect;
    label: string;
    endpoints?: { address: string; condition: string; target?: string }[];
  }[];
  edges: { id: string; type: EdgeType; from: string; to: string; condition?: string }[];
  /** The box drawn at a stage point. */
  at(x: number, y: number): string | undefined;
  focused: string | undefined;
  layoutMs: number | undefined;
  /** Where the drawn layout was computed ('worker': off the main thread). */
  layoutThread: 'worker' | 'main' | undefined;
}

const MIN_SCALE = 0.1;
const MAX_SCALE = 3;
const MOVE_MS = 450;

interface Camera {
  x: number;
  y: number;
  scale: number;
}

interface Drawn {
  el: SVGGElement;
  content: string;
  /** Where it is drawn now, and where it is going. */
  at: Placed;
  from: Placed;
  to: Placed;
  fresh: boolean;
}

export class GraphView {
  readonly element: HTMLElement;
  private readonly stage: HTMLElement;
  private readonly svgEl: SVGSVGElement;
  private readonly world: SVGGElement;
  private readonly headings: SVGGElement;
  private readonly edgeLayer: SVGGElement;
  private readonly nodeLayer: SVGGElement;
  private readonly message: HTMLElement;
  private readonly counts: HTMLElement;
  private readonly live: HTMLElement;
  private readonly namespace: Dropdown;
  private model: GraphModel | undefined;
  private notHeld: NotHeld | undefined;
  private layout: GraphLayout | undefined;
  private inFlight = false;
  private builtFor = '';
  private active = false;
  private readonly drawn = new Map<string, Drawn>();
  private readonly edgeEls = new Map<string, SVGPathElement>();
  private cam: Camera = { x: 0, y: 0, scale: 1 };
  private autoFit = true;
  private anim: { start: number; frame: number } | undefined;
  private drag: { x: number; y: number; cx: number; cy: number; moved: boolean } | undefined;

  constructor(private readonly host: GraphViewHost) {
    this.namespace = dropdown('graph-filter-namespace', 'Namespace', (v) => {
      this.host.saved().namespace = v;
      this.host.save();
      this.builtFor = '';
      this.update(this.active);
    });
    this.counts = h('span', { class: 'status graph-counts', role: 'status' });
    const zoom = h(
      'div',
      { class: 'map-zoom' },
      iconButton('graph-zoom-out', 'zoom-out', 'Zoom out (-)', () => this.zoomBy(1 / 1.25)),
      iconButton('graph-zoom-in', 'zoom-in', 'Zoom in (+)', () => this.zoomBy(1.25)),
      iconButton('graph-zoom-fit', 'screen-full', 'Fit the graph (0)', () => this.fit(true)),
    );
    const legend = h(
      'div',
      { class: 'graph-legend', role: 'list', 'aria-label': 'Edges and colours' },
      legendItem('owner', 'owner (ownerReferences: owner → owned)'),
      legendItem('routing ready', 'endpoint ready → pod'),
      legendItem('routing not-ready', 'endpoint not ready'),
      legendItem('routing terminating', 'endpoint terminating'),
      legendItem('selector', 'selected by the Service, no endpoint yet'),
      h('span', { class: 'legend-item', role: 'listitem', title: 'The stripe on the left of a box is its status colour: pods as on the map (green Ready, yellow Running not Ready, blue starting, purple Terminating, red failed, grey Pending); ReplicaSets and Deployments blue while they scale or roll out, green when settled, grey when scaled down; Services yellow with no ready endpoint. A dashed border: being deleted.' }, icon('info'), 'Box colours'),
    );
    this.world = svg('g', { class: 'graph-world' });
    this.headings = svg('g', { class: 'graph-headings', 'aria-hidden': 'true' });
    this.edgeLayer = svg('g', { class: 'graph-edges', 'aria-hidden': 'true' });
    this.nodeLayer = svg('g', { class: 'graph-nodes' });
    this.world.append(this.headings, this.edgeLayer, this.nodeLayer);
    this.svgEl = svg(
      'svg',
      {
        class: 'graph-svg',
        role: 'group',
        'aria-roledescription': 'object graph',
        'aria-label': 'Object graph: Deployments and CronJobs, the owners of pods (ReplicaSets, StatefulSets, DaemonSets, Jobs), Pods, EndpointSlices and Services. Arrow keys move up and down a column and left and right along the edges; Enter opens the details; plus and minus zoom; 0 fits.',
      },
      svg('defs', {}, arrow('graph-arrow-muted', 'muted'), arrow('graph-arrow-green', 'green'), arrow('graph-arrow-yellow', 'yellow'), arrow('graph-arrow-purple', 'purple')),
      this.world,
    );
    this.message = h('div', { class: 'graph-message', role: 'status', hidden: true });
    this.live = h('div', { class: 'sr-only', 'aria-live': 'polite' });
    this.stage = h('div', { class: 'graph-stage' }, this.svgEl, this.message);
    this.element = h('div', { class: 'view graph-view' }, h('div', { class: 'toolbar' }, h('div', { class: 'filters' }, this.namespace.element), zoom, this.counts), h('div', { class: 'graph-main' }, legend, this.stage, this.live));
    this.bindPointer();
    this.svgEl.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => {
      if (this.autoFit) this.fit(false);
      this.applyCamera();
    }).observe(this.stage);
  }

  /** Called every frame by the app: rebuilds the model when the state shown changed. */
  update(active: boolean): void {
    this.active = active;
    if (!active) return;
    const version = `${this.host.stateVersion()}|${this.host.saved().namespace}`;
    if (version === this.builtFor) return;
    this.builtFor = version;
    this.rebuild();
  }

  // ---- model and layout ----

  private rebuild(): void {
    const state = this.host.state();
    if (!state.held) {
      this.notHeld = state;
      this.model = undefined;
      this.render();
      return;
    }
    this.notHeld = undefined;
    const saved = this.host.saved();
    const model = buildGraph(state, { namespace: saved.namespace, born: (k, ns, n) => this.host.born(k, ns, n) });
    this.model = model;
    this.namespace.setChoices([{ value: '', label: 'All namespaces' }, ...model.namespaces.map((n) => ({ value: n, label: n }))], saved.namespace);
    if (this.layout?.signature !== layoutSignature(model)) this.requestLayout();
    this.render();
  }

  private requestLayout(): void {
    if (this.inFlight || !this.model) return;
    this.inFlight = true;
    const model = this.model;
    void layoutGraph(model)
      .then((layout) => {
        this.inFlight = false;
        this.layout = layout;
        this.moveTo(layout);
        // The state moved on while ELK worked: lay out what is shown now.
        if (this.model && layoutSignature(this.model) !== layout.signature) this.requestLayout();
      })
      .catch((err: unknown) => {
        this.inFlight = false;
        this.message.hidden = false;
        this.message.textContent = `The graph could not be laid out: ${String(err)}`;
      });
  }

  /** Sends every drawn box towards its place in the new layout. */
  private moveTo(layout: GraphLayout): void {
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    let moving = false;
    for (const [id, d] of this.drawn) {
      const to = layout.positions.get(id);
      if (!to) continue;
      d.from = { ...d.at };
      d.to = to;
      if (d.fresh || reduce) d.from = to;
      if (d.from.x !== to.x || d.from.y !== to.y) moving = true;
    }
    if (this.autoFit) this.fit(false);
    this.render();
    if (moving && !reduce) this.animate();
  }

  private animate(): void {
    if (this.anim) cancelAnimationFrame(this.anim.frame);
    const start = performance.now();
    const step = (now: number): void => {
      const t = Math.min(1, (now - start) / MOVE_MS);
      const k = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
      for (const d of this.drawn.values()) {
        d.at = { x: d.from.x + (d.to.x - d.from.x) * k, y: d.from.y + (d.to.y - d.from.y) * k, w: d.to.w, h: d.to.h };
        d.el.setAttribute('transform', `translate(${d.at.x} ${d.at.y})`);
      }
      this.drawEdges();
      if (t < 1) this.anim = { start, frame: requestAnimationFrame(step) };
      else this.anim = undefined;
    };
    this.anim = { start, frame: requestAnimationFrame(step) };
  }

  // ---- drawing ----

  private render(): void {
    const model = this.model;
    if (!model) {
      for (const d of this.drawn.values()) d.el.remove();
      this.drawn.clear();
      for (const e of this.edgeEls.values()) e.remove();
      this.edgeEls.clear();
      this.headings.replaceChildren();
      this.message.hidden = false;
      this.message.textContent = this.notHeld?.reason === 'before' ? `Revision ${this.notHeld.revision} is not held: the panel's history starts at revision ${this.notHeld.heldFrom}.` : 'Waiting for the cluster state…';
      this.counts.textContent = '';
      return;
    }
    const layout = this.layout;
    this.message.hidden = model.nodes.length > 0;
    if (model.nodes.length === 0) this.message.textContent = model.total === 0 ? 'No workloads (Deployments, StatefulSets, DaemonSets, Jobs, CronJobs), Pods, Services or EndpointSlices yet. Apply a manifest (examples/web.yaml) to see them here.' : 'Nothing in this namespace.';
    const seen = new Set<string>();
    for (const n of model.nodes) {
      const d = this.drawn.get(n.id);
      const place = d ? d.to : layout?.positions.get(n.id);
      if (!place) continue;
      seen.add(n.id);
      const content = contentKey(n);
      if (!d) {
        const el = svg('g', { class: 'gnode gnode-new', 'data-id': n.id, tabindex: -1, role: 'button' });
        el.addEventListener('focus', () => this.onFocus(n.id));
        this.nodeLayer.append(el);
        const drawn: Drawn = { el, content: '', at: place, from: place, to: place, fresh: true };
        this.drawn.set(n.id, drawn);
        el.setAttribute('transform', `translate(${place.x} ${place.y})`);
        // Fades in once placed.
        requestAnimationFrame(() => el.classList.remove('gnode-new'));
      }
      const cur = this.drawn.get(n.id)!;
      cur.fresh = false;
      if (cur.content !== content) {
        cur.content = content;
        drawNode(cur.el, n);
      }
    }
    for (const [id, d] of this.drawn) {
      if (seen.has(id)) continue;
      d.el.remove();
      this.drawn.delete(id);
    }
    this.drawHeadings();
    this.drawEdges();
    this.syncTabStop();
    this.applyCamera();
    const count = (k: GraphKind): number => model.nodes.filter((n) => n.kind === k).length;
    const rolling = model.nodes.filter((n) => n.kind === 'Deployment' && n.rollingOut).map((n) => n.name);
    const pending = seen.size < model.nodes.length ? ` · placing ${model.nodes.length - seen.size} new…` : '';
    const others = (['StatefulSet', 'DaemonSet', 'Job', 'CronJob'] as const).filter((k) => count(k) > 0).map((k) => ` · ${plural(count(k), k)}`).join('');
    this.counts.textContent = `${plural(count('Deployment'), 'Deployment')} · ${plural(count('ReplicaSet'), 'ReplicaSet')}${others} · ${plural(count('Pod'), 'pod')} · ${plural(count('Service'), 'Service')}${rolling.length ? ` · rolling out: ${rolling.join(', ')}` : ''}${pending}`;
  }

  private drawHeadings(): void {
    const layout = this.layout;
    const model = this.model;
    if (!layout || !model) return;
    const present = new Set(model.nodes.map((n) => n.column));
    const key = [...layout.columns].filter(([c]) => present.has(c)).map(([c, p]) => `${c}:${p.x}`).join(',') + [...columnTitles(model).values()].join('|');
    if (this.headings.dataset.key === key) return;
    this.headings.dataset.key = key;
    const titles = columnTitles(model);
    this.headings.replaceChildren(...[...layout.columns].filter(([c]) => present.has(c)).map(([c, p]) => svg('text', { class: 'gheading', x: p.x, y: HEADING_H - 10 }, titles.get(c) ?? '')));
  }

  private drawEdges(): void {
    const model = this.model;
    if (!model) return;
    const seen = new Set<string>();
    for (const e of model.edges) {
      const a = this.drawn.get(e.from);
      const b = this.drawn.get(e.to);
      if (!a || !b) continue;
      seen.add(e.id);
      let path = this.edgeEls.get(e.id);
      if (!path) {
        path = svg('path', {});
        this.edgeLayer.append(path);
        this.edgeEls.set(e.id, path);
      }
      const cls = `gedge gedge-${e.type}${e.condition ? ` gedge-${e.condition.startsWith('terminating') ? 'terminating' : e.condition === 'ready' ? 'ready' : 'not-ready'}` : ''}`;
      if (path.getAttribute('class') !== cls) {
        path.setAttribute('class', cls);
        path.setAttribute('marker-end', `url(#graph-arrow-${e.type === 'routing' ? e.color : 'muted'})`);
      }
      path.setAttribute('d', edgePath(a.at, b.at, e.fromPort ? portY(model.byId.get(e.from)!, e.fromPort) : undefined));
    }
    for (const [id, p] of this.edgeEls) {
      if (seen.has(id)) continue;
      p.remove();
      this.edgeEls.delete(id);
    }
  }

  // ---- camera ----

  private applyCamera(): void {
    const c = this.cam;
    this.world.setAttribute('transform', `scale(${c.scale}) translate(${-c.x} ${-c.y})`);
  }

  private fit(user: boolean): void {
    const layout = this.layout;
    const rect = this.stage.getBoundingClientRect();
    if (!layout || rect.width < 2) return;
    // Readable first: the columns fit the width (never below 0.5) and a tall graph scrolls
    // (wheel, drag, arrow keys) instead of shrinking to fit its height; the whole picture is
    // fitted only when that costs little (at least 0.9).
    const byWidth = clamp(rect.width / layout.width, 0.5, 1);
    const whole = Math.min(rect.width / layout.width, rect.height / layout.height);
    const scale = whole >= 0.9 ? Math.min(1, whole) : byWidth;
    const x = layout.width * scale < rect.width ? -(rect.width / scale - layout.width) / 2 : 0;
    this.cam = { scale, x, y: 0 };
    if (user) this.autoFit = true;
    this.applyCamera();
  }

  private zoomBy(factor: number, at?: { x: number; y: number }): void {
    const rect = this.stage.getBoundingClientRect();
    const p = at ?? { x: rect.width / 2, y: rect.height / 2 };
    const scale = clamp(this.cam.scale * factor, MIN_SCALE, MAX_SCALE);
    const wx = this.cam.x + p.x / this.cam.scale;
    const wy = this.cam.y + p.y / this.cam.scale;
    this.cam = { scale, x: wx - p.x / scale, y: wy - p.y / scale };
    this.autoFit = false;
    this.applyCamera();
  }

  private panBy(dx: number, dy: number): void {
    this.cam = { ...this.cam, x: this.cam.x - dx / this.cam.scale, y: this.cam.y - dy / this.cam.scale };
    this.autoFit = false;
    this.applyCamera();
  }

  /** Pans so that a box is in view. */
  private reveal(p: Placed): void {
    const rect = this.stage.getBoundingClientRect();
    const s = this.cam.scale;
    const x0 = (p.x - this.cam.x) * s;
    const y0 = (p.y - this.cam.y) * s;
    let dx = 0;
    let dy = 0;
    if (x0 < 8) dx = 8 - x0;
    else if (x0 + p.w * s > rect.width - 8) dx = rect.width - 8 - (x0 + p.w * s);
    if (y0 < 8) dy = 8 - y0;
    else if (y0 + p.h * s > rect.height - 8) dy = rect.height - 8 - (y0 + p.h * s);
    // Revealing a focused box is not the user taking the camera: the zoom keeps fitting the
    // stage (the details pane opening and closing resizes it), where panBy would stop that.
    if (dx || dy) {
      this.cam = { ...this.cam, x: this.cam.x - dx / s, y: this.cam.y - dy / s };
      this.applyCamera();
    }
  }

  private bindPointer(): void {
    const s = this.svgEl;
    s.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const r = this.stage.getBoundingClientRect();
        if (e.ctrlKey || e.metaKey) this.zoomBy(Math.exp(-e.deltaY * 0.002), { x: e.clientX - r.left, y: e.clientY - r.top });
        else this.panBy(e.shiftKey ? -e.deltaY : -e.deltaX, e.shiftKey ? 0 : -e.deltaY);
      },
      { passive: false },
    );
    s.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      this.drag = { x: e.clientX, y: e.clientY, cx: this.cam.x, cy: this.cam.y, moved: false };
    });
    s.addEventListener('pointermove', (e) => {
      const d = this.drag;
      if (!d || (e.buttons & 1) === 0) return;
      if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 4) {
        d.moved = true;
        s.setPointerCapture(e.pointerId);
      }
      if (d.moved) {
        this.cam = { ...this.cam, x: d.cx - (e.clientX - d.x) / this.cam.scale, y: d.cy - (e.clientY - d.y) / this.cam.scale };
        this.autoFit = false;
        this.applyCamera();
      }
    });
    s.addEventListener('pointerup', (e) => {
      const d = this.drag;
      this.drag = undefined;
      if (!d || d.moved) return;
      const target = (e.target as Element | null)?.closest?.('.gnode');
      const id = target?.getAttribute('data-id');
      if (id) this.open(id);
    });
  }

  // ---- focus and keyboard ----

  private open(id: string): void {
    const n = this.model?.byId.get(id);
    if (!n) return;
    this.setFocus(id);
    this.host.openDetails({ kind: n.kind, name: n.name, ...(n.namespace ? { namespace: n.namespace } : {}) });
  }

  private onFocus(id: string): void {
    const saved = this.host.saved();
    if (saved.focused !== id) {
      saved.focused = id;
      this.host.save();
    }
    const n = this.model?.byId.get(id);
    if (n) this.live.textContent = n.detail;
    const d = this.drawn.get(id);
    if (d) this.reveal(d.to);
    this.syncTabStop();
  }

  private setFocus(id: string): void {
    const d = this.drawn.get(id);
    if (!d) return;
    this.host.saved().focused = id;
    this.syncTabStop();
    d.el.focus({ preventScroll: true });
  }

  /** One box is the tab stop: the focused one, else the first. */
  private syncTabStop(): void {
    const want = this.host.saved().focused;
    const stop = want && this.drawn.has(want) ? want : this.model?.nodes.find((n) => this.drawn.has(n.id))?.id;
    for (const [id, d] of this.drawn) {
      const t = id === stop ? '0' : '-1';
      if (d.el.getAttribute('tabindex') !== t) d.el.setAttribute('tabindex', t);
      d.el.classList.toggle('gnode-focused', id === want);
    }
  }

  private onKey(e: KeyboardEvent): void {
    const model = this.model;
    if (!model) return;
    const done = (): void => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (e.key === '+' || e.key === '=') return done(), this.zoomBy(1.25);
    if (e.key === '-' || e.key === '_') return done(), this.zoomBy(0.8);
    if (e.key === '0') return done(), this.fit(true);
    const current = this.host.saved().focused;
    const cur = current ? model.byId.get(current) : undefined;
    if (e.key === 'Enter' || e.key === ' ') {
      if (cur) done(), this.open(cur.id);
      return;
    }
    const drawnNodes = model.nodes.filter((n) => this.drawn.has(n.id));
    if (drawnNodes.length === 0) return;
    if (!cur || !this.drawn.has(cur.id)) {
      if (e.key.startsWith('Arrow') || e.key === 'Home') done(), this.setFocus(drawnNodes[0]!.id);
      return;
    }
    const column = drawnNodes.filter((n) => n.column === cur.column).sort((a, b) => a.order - b.order);
    const i = column.indexOf(cur);
    let next: GraphNode | undefined;
    if (e.key === 'ArrowDown') next = column[i + 1];
    else if (e.key === 'ArrowUp') next = column[i - 1];
    else if (e.key === 'Home') next = column[0];
    else if (e.key === 'End') next = column[column.length - 1];
    else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') next = this.across(cur, e.key === 'ArrowRight' ? 1 : -1, drawnNodes);
    else return;
    done();
    if (next) this.setFocus(next.id);
  }

  /** The box in the next column over: one tied to this one by an edge, else the nearest. */
  private across(cur: GraphNode, dir: 1 | -1, drawnNodes: GraphNode[]): GraphNode | undefined {
    const model = this.model!;
    const columns = [...new Set(drawnNodes.map((n) => n.column))].sort((a, b) => a - b);
    const target = columns[columns.indexOf(cur.column) + dir];
    if (target === undefined) return undefined;
    const here = this.drawn.get(cur.id)!.to;
    const mid = here.y + here.h / 2;
    const tied = new Set<string>();
    for (const e of model.edges) {
      if (e.from === cur.id) tied.add(e.to);
      if (e.to === cur.id) tied.add(e.from);
    }
    const candidates = drawnNodes.filter((n) => n.column === target);
    const pool = candidates.some((n) => tied.has(n.id)) ? candidates.filter((n) => tied.has(n.id)) : candidates;
    let best: GraphNode | undefined;
    let bestD = Infinity;
    for (const n of pool) {
      const p = this.drawn.get(n.id)!.to;
      const d = Math.abs(p.y + p.h / 2 - mid);
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    return best;
  }

  // ---- the hit-test layer ----

  /** The camera (world units at the stage's top left, and the zoom), for the UI tests. */
  camera(): { x: number; y: number; scale: number; autoFit: boolean } {
    return { ...this.cam, autoFit: this.autoFit };
  }

  /** The graph ELK is given for the model shown (the benchmark lays it out on the main thread to compare). */
  elkInput(): unknown {
    return this.model ? elkGraph(this.model) : undefined;
  }

  hitTest(): GraphHitTest {
    const model = this.model;
    const cam = this.cam;
    const toScreen = (p: Placed): Rect => ({ x: (p.x - cam.x) * cam.scale, y: (p.y - cam.y) * cam.scale, w: p.w * cam.scale, h: p.h * cam.scale });
    const nodes = (model?.nodes ?? [])
      .filter((n) => this.drawn.has(n.id))
      .map((n) => {
        const d = this.drawn.get(n.id)!;
        const stripe = d.el.querySelector('.gstripe');
        return {
          id: n.id,
          kind: n.kind,
          name: n.name,
          namespace: n.namespace,
          status: n.status,
          ...(n.role ? { role: n.role } : {}),
          ...(n.revision !== undefined ? { revision: n.revision } : {}),
          ...(n.tone ? { tone: n.tone } : {}),
          ...(n.rollingOut !== undefined ? { rollingOut: n.rollingOut } : {}),
          deleting: n.deleting,
          column: n.column,
          order: n.order,
          color: stripe ? getComputedStyle(stripe).fill : '',
          rect: toScreen(d.to),
          label: n.detail,
          ...(n.endpoints ? { endpoints: n.endpoints.map((r) => ({ address: r.address, condition: r.condition, ...(r.target ? { target: r.target } : {}) })) } : {}),
        };
      });
    const placed = new Set(nodes.map((n) => n.id));
    return {
      revision: model?.revision,
      pending: this.inFlight || (model?.nodes.length ?? 0) > placed.size,
      nodes,
      edges: (model?.edges ?? []).filter((e) => placed.has(e.from) && placed.has(e.to)).map((e) => ({ id: e.id, type: e.type, from: e.from, to: e.to, ...(e.condition ? { condition: e.condition } : {}) })),
      at: (x, y) => {
        const wx = cam.x + x / cam.scale;
        const wy = cam.y + y / cam.scale;
        for (const [id, d] of this.drawn) if (wx >= d.to.x && wx < d.to.x + d.to.w && wy >= d.to.y && wy < d.to.y + d.to.h) return id;
        return undefined;
      },
      focused: this.host.saved().focused,
      layoutMs: this.layout?.ms,
      layoutThread: this.layout?.thread,
    };
  }
}

// ---- boxes ----

function contentKey(n: GraphNode): string {
  return JSON.stringify([n.status, n.color, n.lines, n.bars, n.detail, n.deleting, n.role, n.endpoints?.map((r) => [r.address, r.condition, r.color, r.targetName])]);
}

/** Characters that fit a width at the box font (12px): a cut with an ellipsis, the full text in the tooltip. */
function fit(text: string, width: number, px = 6.6): string {
  const max = Math.max(4, Math.floor(width / px));
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function drawNode(el: SVGGElement, n: GraphNode): void {
  const color = cssColor(n.color);
  el.setAttribute('class', `gnode gkind-${n.kind}${n.deleting ? ' gnode-deleting' : ''}${n.role ? ` grole-${n.role}` : ''}${n.status === 'scaled down' ? ' gnode-idle' : ''}${el.classList.contains('gnode-focused') ? ' gnode-focused' : ''}`);
  el.setAttribute('aria-label', n.detail);
  el.setAttribute('aria-roledescription', n.kind);
  const parts: SVGElement[] = [
    svg('title', {}, n.detail),
    svg('rect', { class: 'gbox', width: n.w, height: n.h, rx: 3 }),
    paint(svg('rect', { class: 'gstripe', width: 5, height: n.h, rx: 1 }), color),
    svg('rect', { class: 'gfocus', x: -3, y: -3, width: n.w + 6, height: n.h + 6, rx: 5 }),
  ];
  const kindLabel = `${n.kind}${n.role ? ` · ${n.role}` : ''}`;
  parts.push(svg('text', { class: `gkind${n.role === 'new' ? ' gkind-new' : ''}`, x: 12, y: 15 }, kindLabel));
  parts.push(svg('text', { class: 'gstatus', x: n.w - 8, y: 15, 'text-anchor': 'end' }, fit(n.status, n.w - 12 - kindLabel.length * 6.2)));
  parts.push(svg('text', { class: 'gname', x: 12, y: 32 }, fit(n.name, n.w - 20, 7.2)));
  let y = 32;
  for (const line of n.lines) {
    y += 15;
    parts.push(svg('text', { class: 'gline', x: 12, y }, fit(line, n.w - 20)));
  }
  if (n.bars.length > 0) {
    y += 6;
    const trackX = 80;
    const trackW = n.w - trackX - 34;
    for (const b of n.bars) {
      y += 12;
      parts.push(svg('text', { class: 'gbar-label', x: 12, y }, b.label));
      parts.push(svg('rect', { class: 'gbar-track', x: trackX, y: y - 7, width: trackW, height: 6, rx: 1 }));
      const w = b.of > 0 ? Math.min(1, b.value / b.of) * trackW : 0;
      if (w > 0) parts.push(paint(svg('rect', { class: 'gbar', x: trackX, y: y - 7, width: w, height: 6, rx: 1 }), cssColor(b.color)));
      parts.push(svg('text', { class: 'gbar-value', x: n.w - 8, y, 'text-anchor': 'end' }, String(b.value)));
    }
  }
  if (n.endpoints) {
    n.endpoints.forEach((r, i) => {
      const ry = SIZE.EndpointSlice.h + i * SIZE.endpointRow;
      parts.push(svg('rect', { class: 'gendpoint', x: 8, y: ry + 2, width: n.w - 14, height: SIZE.endpointRow - 4, rx: 2 }));
      parts.push(paint(svg('circle', { class: 'gendpoint-dot', cx: 16, cy: ry + SIZE.endpointRow / 2, r: 4 }), cssColor(r.color)));
      parts.push(svg('text', { class: 'gline', x: 26, y: ry + 15 }, fit(r.address, 100)));
      parts.push(svg('text', { class: 'gendpoint-cond', x: n.w - 10, y: ry + 15, 'text-anchor': 'end' }, r.condition));
    });
  }
  replaceChildren(el, ...parts);
}

/** Fills a shape through the CSSOM (the CSP refuses style attributes, not style properties set by script). */
function paint<T extends SVGElement>(el: T, color: string): T {
  el.style.fill = color;
  return el;
}

function portY(n: GraphNode, port: string): number | undefined {
  const i = n.endpoints?.findIndex((r) => r.id === port) ?? -1;
  return i < 0 ? undefined : SIZE.EndpointSlice.h + i * SIZE.endpointRow + SIZE.endpointRow / 2;
}

/** A curve from one box to another, leaving the side that faces it; `fromY` is a port's height in the first box. */
function edgePath(a: Placed, b: Placed, fromY?: number): string {
  const ay = a.y + (fromY ?? a.h / 2);
  const by = b.y + b.h / 2;
  const forward = a.x < b.x;
  const x1 = forward ? a.x + a.w : a.x;
  const x2 = forward ? b.x - 6 : b.x + b.w + 6;
  const dx = Math.max(30, Math.abs(x2 - x1) / 2) * (forward ? 1 : -1);
  return `M${x1.toFixed(1)} ${ay.toFixed(1)} C${(x1 + dx).toFixed(1)} ${ay.toFixed(1)} ${(x2 - dx).toFixed(1)} ${by.toFixed(1)} ${x2.toFixed(1)} ${by.toFixed(1)}`;
}

function arrow(id: string, color: 'muted' | 'green' | 'yellow' | 'purple'): SVGMarkerElement {
  return svg('marker', { id, viewBox: '0 0 10 10', refX: 2, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, paint(svg('path', { d: 'M0 0 L10 5 L0 10 z' }), cssColor(color)));
}

function legendItem(cls: string, label: string): HTMLElement {
  const line = svg('svg', { class: 'legend-edge', width: 28, height: 10, 'aria-hidden': 'true' }, svg('path', { class: `gedge gedge-${cls.replace(' ', ' gedge-')}`, d: 'M1 5 L27 5' }));
  return h('span', { class: 'legend-item', role: 'listitem' }, line as unknown as HTMLElement, label);
}

function plural(n: number, one: string): string {
  return `${n} ${n === 1 ? one : `${one}s`}`;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}
