/**
 * The Flow tab: the causal chain of one request, from the user's apply to its last effect,
 * drawn as an SVG sequence diagram. Lanes are the actors, steps are records in id order, and
 * each arrow runs from the lane of a record's cause to the record: nothing but cause links.
 */
import type { PanelRecord } from '../../src/protocol/panel';
import { buildFlow, isUserWrite, type Flow } from '../model/flow';
import { formatTime, plural } from '../model/format';
import type { RecordStore } from '../model/record-store';
import { SortedWindow } from '../model/sorted-window';
import { linkText } from './details';
import { h, replaceChildren, svg } from './dom';

export interface FlowViewHost {
  readonly store: RecordStore;
  root(): number | undefined;
  setRoot(id: number | undefined): void;
  navigate(id: number): void;
}

const LANE_WIDTH = 180;
const ROW_HEIGHT = 24;
const TIME_WIDTH = 84;
const HEADER_HEIGHT = 34;
const LABEL_ROOM = 360;
/** Characters of a lane's title that fit its box (the full title is its tooltip). */
const LANE_TITLE_CHARS = 23;
/** Requests offered in the picker (the newest). */
const PICKER_SIZE = 100;
/** Rebuild at most this often while records stream in. */
const REBUILD_MS = 400;

export class FlowView {
  readonly element: HTMLElement;
  private readonly picker: HTMLElement;
  private readonly status: HTMLElement;
  private readonly canvas: HTMLElement;
  private readonly writes = new SortedWindow<PanelRecord>();
  private pickerDirty = true;
  private dirty = true;
  private lastBuild = 0;
  private focusIndex = 0;
  private steps: SVGGElement[] = [];

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
    this.element = h(
      'div',
      { class: 'view flow' },
      h('div', { class: 'toolbar' }, h('div', { class: 'filters' }, h('div', { class: 'filter' }, h('label', { for: 'flow-root' }, 'Request'), this.picker)), this.status),
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
      return;
    }
    const flow = buildFlow(root, this.host.store.causes);
    const omitted = flow.omitted > 0 ? ` · the first ${plural(flow.steps.length, 'step')} shown, ${plural(flow.omitted, 'more')} left out` : '';
    replaceChildren(this.status, `${linkText(root)} · ${plural(flow.steps.length + flow.omitted, 'record')} across ${plural(flow.lanes.length, 'lane')}${omitted}`);
    this.draw(flow, root);
  }

  private rootRecord(): PanelRecord | undefined {
    const chosen = this.host.root();
    if (chosen !== undefined) return this.host.store.get(chosen);
    return this.writes.last();
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

  private draw(flow: Flow, root: PanelRecord): void {
    const width = TIME_WIDTH + flow.lanes.length * LANE_WIDTH + LABEL_ROOM;
    const height = flow.steps.length * ROW_HEIGHT + 12;
    const laneX = (lane: number): number => TIME_WIDTH + lane * LANE_WIDTH + LANE_WIDTH / 2;
    const header = svg('svg', { class: 'flow-header', width, height: HEADER_HEIGHT, role: 'presentation' });
    const body = svg('svg', { class: 'flow-body', width, height, role: 'list', 'aria-label': `${flow.steps.length} steps` });
    body.append(
      svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }))),
    );
    flow.lanes.forEach((lane, i) => {
      const x = laneX(i);
      const title = lane.title.length > LANE_TITLE_CHARS ? `${lane.title.slice(0, LANE_TITLE_CHARS - 1)}…` : lane.title;
      header.append(
        svg('rect', { class: 'lane-box', x: x - LANE_WIDTH / 2 + 6, y: 4, width: LANE_WIDTH - 12, height: HEADER_HEIGHT - 8, rx: 3 }),
        svg('text', { class: 'lane-title', x, y: HEADER_HEIGHT / 2 + 4, 'text-anchor': 'middle' }, svg('title', {}, lane.title), title),
      );
      body.append(svg('line', { class: 'lane-line', x1: x, y1: 0, x2: x, y2: height }));
    });
    this.steps = flow.steps.map((step, i) => {
      const r = step.record;
      const y = i * ROW_HEIGHT + ROW_HEIGHT / 2 + 4;
      const x = laneX(step.lane);
      const g = svg('g', { class: `step type-${r.type.replace('.', '-')}${failed(r) ? ' failed' : ''}`, role: 'listitem', tabindex: -1, 'aria-label': `${formatTime(r.time)} ${flow.lanes[step.lane]?.title ?? ''}: ${linkText(r)}` });
      g.append(svg('title', {}, `${formatTime(r.time)} · ${r.component}\n${linkText(r)}`));
      g.append(svg('text', { class: 'time', x: TIME_WIDTH - 8, y: y + 4, 'text-anchor': 'end' }, `+${((r.time - root.time) / 1000).toFixed(3)}s`));
      // Labels sit right of the dot; over a right-to-left arrow they rise above its line.
      let raised = false;
      if (step.from !== undefined && step.from !== step.lane) {
        const fx = laneX(step.from);
        g.append(svg('line', { class: 'arrow', x1: fx, y1: y, x2: x + (fx < x ? -5 : 5), y2: y, 'marker-end': 'url(#arrow)' }));
        raised = step.from > step.lane;
      } else if (step.from !== undefined) {
        g.append(svg('path', { class: 'arrow', d: `M ${x} ${y - 10} C ${x + 22} ${y - 10} ${x + 22} ${y} ${x + 6} ${y}`, fill: 'none', 'marker-end': 'url(#arrow)' }));
      }
      g.append(svg('circle', { class: step.from === undefined ? 'dot root' : 'dot', cx: x, cy: y, r: step.from === undefined ? 6 : 4 }));
      g.append(svg('text', { class: 'label', x: x + (step.from === step.lane ? 22 : 10), y: raised ? y - 4 : y + 4 }, step.label));
      g.addEventListener('click', () => this.host.navigate(r.id));
      body.append(g);
      return g;
    });
    this.focusIndex = Math.min(this.focusIndex, Math.max(0, this.steps.length - 1));
    this.steps[this.focusIndex]?.setAttribute('tabindex', '0');
    const notes = flow.omitted > 0 ? h('p', { class: 'hint' }, `${plural(flow.omitted, 'more record')} in this chain not drawn.`) : undefined;
    replaceChildren(this.canvas, h('div', { class: 'flow-sticky' }, header), body, notes);
  }

  /** Arrow keys move through the steps (one tab stop for the whole diagram); Enter opens one. */
  private onKey(e: KeyboardEvent): void {
    if (this.steps.length === 0) return;
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
