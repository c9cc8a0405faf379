/**
 * The Flow tab: the causal chain of one request, from the user's apply to its last effect,
 * drawn as an SVG sequence diagram. Lanes are the actors, steps are records in id order, and
 * each arrow runs from the lane of a record's cause to the record: nothing but cause links.
 *
 * The lanes fit the panel's width; a lane folds (click its heading) to a narrow column whose
 * steps are not drawn, and lanes whose every record is a sync that changed nothing start folded.
 * The time column stays in view when the diagram scrolls sideways, the headings when it scrolls
 * down. Events, reads and heartbeats follow the panel's quiet filters; a failure that a later
 * sync got past (a 409 Conflict, then success) is drawn as retried, not failed.
 */
import type { PanelRecord } from '../../src/protocol/panel';
import { buildFlow, isUserWrite, type Flow } from '../model/flow';
import { formatTime, plural } from '../model/format';
import type { RecordStore } from '../model/record-store';
import { SortedWindow } from '../model/sorted-window';
import { linkText } from './details';
import { h, replaceChildren, svg } from './dom';
import { QuietControls, type QuietHost } from './quiet-controls';

export interface FlowViewHost extends QuietHost {
  readonly store: RecordStore;
  root(): number | undefined;
  /** The request followed: the chosen one, else the first of the latest apply. */
  followed(): PanelRecord | undefined;
  setRoot(id: number | undefined): void;
  navigate(id: number): void;
  /** The quiet filters hide it (an Event, a read, a heartbeat). */
  hidden(r: PanelRecord): boolean;
  /** Lanes folded or opened by the user (lane id -> folded). */
  lanes(): Readonly<Record<string, boolean>>;
  setLane(id: string, folded: boolean): void;
}

const ROW_HEIGHT = 24;
const TIME_WIDTH = 78;
const HEADER_HEIGHT = 140;
/** Room right of the last lane for the labels that start there. */
const LABEL_ROOM = 380;
const FOLDED_WIDTH = 24;
const MIN_LANE = 66;
const MAX_LANE = 170;
/** Requests offered in the picker (the newest). */
const PICKER_SIZE = 100;
/** Rebuild at most this often while records stream in. */
const REBUILD_MS = 400;

export interface FlowLayout {
  readonly lanes: readonly { readonly id: string; readonly title: string; readonly x: number; readonly width: number; readonly collapsed: boolean; readonly count: number }[];
  readonly width: number;
  readonly steps: readonly { readonly id: number; readonly lane: number; readonly y: number; readonly retried: boolean; readonly failed: boolean; readonly label: string }[];
}

export class FlowView {
  readonly element: HTMLElement;
  private readonly picker: HTMLElement;
  private readonly status: HTMLElement;
  private readonly canvas: HTMLElement;
  private readonly quietControls: QuietControls;
  private readonly writes = new SortedWindow<PanelRecord>();
  private pickerDirty = true;
  private dirty = true;
  private lastBuild = 0;
  private focusIndex = 0;
  private steps: SVGGElement[] = [];
  private layout: FlowLayout | undefined;

  constructor(private readonly host: FlowViewHost) {
    this.picker = h('vscode-dropdown', { id: 'flow-root', 'aria-label': 'Request to follow' });
    this.picker.addEventListener('change', () => {
      const v = (this.picker as HTMLSelectElement).value;
      host.setRoot(v ? Number(v) : undefined);
      this.dirty = true;
      this.update(true);
    });
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.canvas = h('div', { class: 'flow-canvas', tabindex: 0, role: 'group', 'aria-label': 'Sequence diagram of the causal chain' });
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.quietControls = new QuietControls(host, 'flow', ['events', 'reads', 'heartbeats']);
    this.element = h(
      'div',
      { class: 'view flow' },
      h('div', { class: 'toolbar' }, h('div', { class: 'filters' }, h('div', { class: 'filter' }, h('label', { for: 'flow-root' }, 'Request'), this.picker), this.quietControls.element), this.status),
      this.canvas,
    );
  }

  add(records: readonly PanelRecord[]): void {
    for (const r of records) {
      if (!isUserWrite(r)) continue;
      this.writes.insert(r);
      this.pickerDirty = true;
    }
    if (this.writes.length > PICKER_SIZE) this.writes.dropFirst(this.writes.length - PICKER_SIZE);
    if (records.length > 0) this.dirty = true;
  }

  reset(): void {
    this.writes.clear();
    this.pickerDirty = true;
    this.dirty = true;
  }

  /** The quiet filters changed: draw again with them. */
  requiet(): void {
    this.quietControls.sync();
    this.dirty = true;
  }

  /** What is drawn, for the UI tests: the lanes (where, folded or not) and each step's lane and row. */
  model(): FlowLayout | undefined {
    return this.layout;
  }

  update(visible: boolean): void {
    if (!visible) return;
    if (this.pickerDirty) this.renderPicker();
    const now = performance.now();
    if (!this.dirty || now - this.lastBuild < REBUILD_MS) {
      if (this.dirty) setTimeout(() => this.update(true), REBUILD_MS);
      return;
    }
    this.dirty = false;
    this.lastBuild = now;
    const root = this.rootRecord();
    if (!root) {
      replaceChildren(this.status, 'No request to follow yet: apply a manifest.');
      replaceChildren(this.canvas);
      this.layout = undefined;
      return;
    }
    const flow = buildFlow(root, this.host.store.causes, { hide: (r) => this.host.hidden(r), lanes: this.host.lanes() });
    const parts = [`${linkText(root)} · ${plural(flow.steps.length, 'step')} across ${plural(flow.lanes.length, 'lane')}`];
    if (flow.folded > 0) parts.push(`${plural(flow.folded, 'record')} on folded lanes`);
    if (flow.hidden > 0) parts.push(`${plural(flow.hidden, 'record')} hidden (Events, reads, heartbeats)`);
    if (flow.omitted > 0) parts.push(`${plural(flow.omitted, 'more')} beyond the first ${plural(flow.steps.length, 'step')}`);
    replaceChildren(this.status, parts.join(' · '));
    this.draw(flow, root);
  }

  private rootRecord(): PanelRecord | undefined {
    return this.host.followed();
  }

  private renderPicker(): void {
    this.pickerDirty = false;
    const chosen = this.host.root();
    const options = [h('vscode-option', { value: '' }, 'The latest apply')];
    const ids = new Set<number>();
    for (const r of [...this.writes].reverse()) {
      ids.add(r.id);
      options.push(h('vscode-option', { value: String(r.id) }, `${formatTime(r.time)} ${linkText(r)}`));
    }
    const extra = chosen !== undefined && !ids.has(chosen) ? this.host.store.get(chosen) : undefined;
    if (extra) options.splice(1, 0, h('vscode-option', { value: String(extra.id) }, `${formatTime(extra.time)} ${linkText(extra)}`));
    replaceChildren(this.picker, ...options);
    (this.picker as HTMLSelectElement).value = chosen !== undefined ? String(chosen) : '';
  }

  /** Lane widths that fit the panel: folded lanes narrow, the open ones sharing what is left. */
  private fit(flow: Flow): { x: number[]; width: number[]; total: number } {
    const available = Math.max(600, this.canvas.clientWidth || 1200) - TIME_WIDTH - LABEL_ROOM - 16;
    const open = flow.lanes.filter((l) => !l.collapsed).length;
    const folded = flow.lanes.length - open;
    const lane = Math.max(MIN_LANE, Math.min(MAX_LANE, Math.floor((available - folded * FOLDED_WIDTH) / Math.max(1, open))));
    const x: number[] = [];
    const width: number[] = [];
    let at = 0;
    for (const l of flow.lanes) {
      const w = l.collapsed ? FOLDED_WIDTH : lane;
      x.push(at);
      width.push(w);
      at += w;
    }
    return { x, width, total: at };
  }

  private draw(flow: Flow, root: PanelRecord): void {
    const { x: laneLeft, width: laneWidth, total } = this.fit(flow);
    const center = (lane: number): number => laneLeft[lane]! + laneWidth[lane]! / 2;
    const width = total + LABEL_ROOM;
    const height = flow.steps.length * ROW_HEIGHT + 12;
    const header = svg('svg', { class: 'flow-header', width, height: HEADER_HEIGHT, role: 'toolbar', 'aria-label': 'Lanes (Enter folds or opens one)' });
    const times = svg('svg', { class: 'flow-times', width: TIME_WIDTH, height, 'aria-hidden': 'true' });
    const body = svg('svg', { class: 'flow-body', width, height, role: 'list', 'aria-label': `${flow.steps.length} steps` });
    body.append(
      svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }))),
    );
    flow.lanes.forEach((lane, i) => {
      const cx = center(i);
      const short = lane.title.replace(/-controller$/, '').replace(/^kubelet /, 'kubelet · ');
      const label = lane.collapsed ? `${short} (${lane.count})` : short;
      const g = svg('g', { class: `lane-head${lane.collapsed ? ' collapsed' : ''}`, role: 'button', tabindex: 0, 'aria-pressed': String(lane.collapsed), 'aria-label': `${lane.title}: ${plural(lane.count, 'record')}, ${lane.collapsed ? 'folded: Enter opens it' : 'Enter folds it'}` });
      g.append(svg('title', {}, `${lane.title} · ${plural(lane.count, 'record')} · click to ${lane.collapsed ? 'open' : 'fold'}`));
      g.append(svg('rect', { class: 'lane-box', x: laneLeft[i]! + 2, y: HEADER_HEIGHT - 22, width: laneWidth[i]! - 4, height: 18, rx: 3 }));
      g.append(svg('text', { class: 'lane-sign', x: cx, y: HEADER_HEIGHT - 9, 'text-anchor': 'middle' }, lane.collapsed ? '+' : '−'));
      // Titles lean, so that narrow lanes keep long names readable.
      g.append(svg('text', { class: 'lane-title', x: cx, y: HEADER_HEIGHT - 28, transform: `rotate(-38 ${cx} ${HEADER_HEIGHT - 28})` }, label));
      const toggle = (): void => {
        this.host.setLane(lane.id, !lane.collapsed);
        this.dirty = true;
        this.lastBuild = 0;
        this.update(true);
      };
      g.addEventListener('click', toggle);
      g.addEventListener('keydown', (e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        toggle();
      });
      header.append(g);
      body.append(svg('line', { class: `lane-line${lane.collapsed ? ' collapsed' : ''}`, x1: cx, y1: 0, x2: cx, y2: height }));
    });
    const layoutSteps: FlowLayout['steps'][number][] = [];
    this.steps = flow.steps.map((step, i) => {
      const r = step.record;
      const y = i * ROW_HEIGHT + ROW_HEIGHT / 2 + 4;
      const x = center(step.lane);
      const bad = failed(r) && !step.retried;
      const tone = step.retried ? ' retried' : bad ? ' failed' : '';
      const lane = flow.lanes[step.lane]?.title ?? '';
      const g = svg('g', { class: `step type-${r.type.replace('.', '-')}${tone}`, role: 'listitem', tabindex: -1, 'data-id': r.id, 'aria-label': `${formatTime(r.time)} ${lane}: ${linkText(r)}${step.retried ? ' (retried: a later sync succeeded)' : ''}` });
      g.append(svg('title', {}, `${formatTime(r.time)} · ${r.component}\n${linkText(r)}${step.retried ? '\nretried: a later sync of the same key succeeded' : ''}`));
      times.append(svg('text', { class: 'time', x: TIME_WIDTH - 8, y: y + 4, 'text-anchor': 'end' }, `+${((r.time - root.time) / 1000).toFixed(3)}s`));
      // Labels sit right of the dot; over a right-to-left arrow they rise clear of its line (descenders included).
      let raised = false;
      if (step.from !== undefined && step.from !== step.lane) {
        const fx = center(step.from);
        g.append(svg('line', { class: 'arrow', x1: fx, y1: y, x2: x + (fx < x ? -5 : 5), y2: y, 'marker-end': 'url(#arrow)' }));
        raised = step.from > step.lane;
      } else if (step.from !== undefined) {
        g.append(svg('path', { class: 'arrow', d: `M ${x} ${y - 10} C ${x + 22} ${y - 10} ${x + 22} ${y} ${x + 6} ${y}`, fill: 'none', 'marker-end': 'url(#arrow)' }));
      }
      g.append(svg('circle', { class: step.from === undefined ? 'dot root' : 'dot', cx: x, cy: y, r: step.from === undefined ? 6 : 4 }));
      const label = step.retried ? `${step.label} · retried` : step.label;
      g.append(svg('text', { class: 'label', x: x + (step.from === step.lane ? 22 : 10), y: raised ? y - 6 : y + 4 }, label));
      g.addEventListener('click', () => this.host.navigate(r.id));
      body.append(g);
      layoutSteps.push({ id: r.id, lane: step.lane, y, retried: step.retried, failed: bad, label });
      return g;
    });
    this.layout = { lanes: flow.lanes.map((l, i) => ({ id: l.id, title: l.title, x: laneLeft[i]!, width: laneWidth[i]!, collapsed: l.collapsed, count: l.count })), width: total, steps: layoutSteps };
    this.focusIndex = Math.min(this.focusIndex, Math.max(0, this.steps.length - 1));
    this.steps[this.focusIndex]?.setAttribute('tabindex', '0');
    const notes = flow.omitted > 0 ? h('p', { class: 'hint' }, `${plural(flow.omitted, 'more record')} in this chain not drawn.`) : undefined;
    const grid = h('div', { class: 'flow-grid' }, h('div', { class: 'flow-corner' }), h('div', { class: 'flow-heads' }, header), h('div', { class: 'flow-time-column' }, times), body);
    // Through the CSSOM: the panel's CSP allows no inline style attributes.
    grid.style.setProperty('grid-template-columns', `${TIME_WIDTH}px ${width}px`);
    replaceChildren(this.canvas, grid, notes);
  }

  /** Arrow keys move through the steps (one tab stop for the whole diagram); Enter opens one. */
  private onKey(e: KeyboardEvent): void {
    if (this.steps.length === 0 || (e.target as Element).closest?.('.lane-head')) return;
    const move = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : e.key === 'Home' ? -Infinity : e.key === 'End' ? Infinity : 0;
    if (move !== 0) {
      e.preventDefault();
      this.steps[this.focusIndex]?.setAttribute('tabindex', '-1');
      this.focusIndex = Math.max(0, Math.min(this.steps.length - 1, this.focusIndex + move));
      const g = this.steps[this.focusIndex]!;
      g.setAttribute('tabindex', '0');
      g.focus();
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      const g = this.steps[this.focusIndex];
      if (g) {
        e.preventDefault();
        g.dispatchEvent(new MouseEvent('click'));
      }
    }
  }
}

function failed(r: PanelRecord): boolean {
  switch (r.type) {
    case 'api.request':
      return r.code >= 400;
    case 'controller.reconcile':
      return r.outcome === 'error';
    case 'scheduler.attempt':
      return r.outcome !== 'scheduled';
    case 'scheduler.binding':
      return r.outcome === 'failed';
    default:
      return false;
  }
}

