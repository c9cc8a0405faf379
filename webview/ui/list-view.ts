/**
 * One list tab: filter menus, a status line (how many rows, what fell off), the virtualized
 * list and the selected record's detail.
 */
import type { PanelRecord } from '../../src/protocol/panel';
import { passes, type ListSpec } from '../model/lists';
import { hiddenText, type HiddenReason, type Quiet } from '../model/quiet';
import { QuietControls, type QuietHost } from './quiet-controls';
import type { RecordStore } from '../model/record-store';
import type { Column, Kinds } from '../model/rows';
import { SortedWindow } from '../model/sorted-window';
import { FILTER_FIELDS, type Filters, type ListTab } from '../model/state';
import { formatCount, plural } from '../model/format';
import { h, replaceChildren } from './dom';
import { VirtualList } from './virtual-list';

export interface ListViewHost extends QuietHost {
  readonly store: RecordStore;
  /** Why the quiet filters hide a record (heartbeat, Event, read, another apply), or undefined. */
  hidden(r: PanelRecord): HiddenReason | undefined;
  kinds(): Kinds;
  filters<T extends ListTab>(tab: T): Filters[T];
  setFilter(tab: ListTab, field: string, value: string): void;
  selected(tab: ListTab): number | undefined;
  setSelected(tab: ListTab, id: number | undefined): void;
  setScroll(tab: ListTab, top: number): void;
  /** The widths the user gave the list's columns and its detail pane. */
  layout(tab: ListTab): { columns?: readonly (number | null)[]; detailWidth?: number };
  setLayout(tab: ListTab, layout: { columns?: readonly (number | null)[]; detailWidth?: number }): void;
}

export interface ListViewOptions<R extends PanelRecord, T extends ListTab> {
  readonly spec: ListSpec<R, T>;
  readonly columns: readonly Column[];
  /** "revisions", "requests": what the status line counts. */
  readonly noun: string;
  readonly label: string;
  readonly filterLabels: Record<(typeof FILTER_FIELDS)[T][number], string>;
  /** The quiet filters that apply to this list's records. */
  readonly quiet: readonly (keyof Quiet)[];
  detail(record: R): Node;
}

export class ListView<R extends PanelRecord, T extends ListTab> {
  readonly element: HTMLElement;
  private readonly rows = new SortedWindow<R>();
  private total = 0;
  private readonly hiddenCounts = new Map<HiddenReason, number>();
  readonly quiet: QuietControls;
  private readonly facets = new Map<string, Set<string>>();
  private readonly menus = new Map<string, HTMLElement>();
  private facetsChanged = false;
  private readonly list: VirtualList<R>;
  private readonly status: HTMLElement;
  private readonly detailPane: HTMLElement;
  private shownDetail: number | undefined;

  constructor(
    private readonly host: ListViewHost,
    private readonly options: ListViewOptions<R, T>,
  ) {
    const tab = options.spec.tab;
    this.list = new VirtualList<R>({
      id: tab,
      label: options.label,
      columns: options.columns,
      row: (r) => options.spec.row(r, host.kinds()),
      onSelect: (r) => {
        host.setSelected(tab, r?.id);
        this.showDetail(r);
      },
      onScroll: (top) => host.setScroll(tab, top),
      widths: (host.layout(tab).columns ?? []).map((w) => w ?? undefined),
      onResize: (widths) => host.setLayout(tab, { columns: widths.map((w) => w ?? null) }),
    });
    const filters = h('div', { class: 'filters' });
    for (const field of FILTER_FIELDS[tab]) filters.append(this.filterControl(field));
    this.quiet = new QuietControls(host, tab, options.quiet);
    filters.append(this.quiet.element);
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.detailPane = h('section', { class: 'detail', 'aria-label': `${options.label}: selected record`, tabindex: 0 }, h('p', { class: 'hint' }, 'Select a row to see its details.'));
    const split = h('div', { class: 'split' });
    const sash = h('div', { class: 'split-sash', role: 'separator', tabindex: 0, 'aria-orientation': 'vertical', 'aria-label': 'Resize the detail pane', title: 'Drag to resize the detail pane' });
    this.splitResizable(split, sash);
    split.append(this.list.element, sash, this.detailPane);
    this.element = h('div', { class: 'view' }, h('div', { class: 'toolbar' }, filters, this.status), split);
  }

  get count(): number {
    return this.rows.length;
  }

  /** The sash between the list and the detail: drag it, or focus it and use the arrow keys. */
  private splitResizable(split: HTMLElement, sash: HTMLElement): void {
    const tab = this.options.spec.tab;
    const apply = (px: number | undefined): void => {
      if (px === undefined) split.style.removeProperty('--detail-width');
      else split.style.setProperty('--detail-width', `${px}px`);
    };
    apply(this.host.layout(tab).detailWidth);
    const set = (px: number): number => {
      const total = split.getBoundingClientRect().width;
      const w = Math.round(Math.max(240, Math.min(total - 320, px)));
      apply(w);
      return w;
    };
    sash.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      sash.setPointerCapture(e.pointerId);
      const right = split.getBoundingClientRect().right;
      let w: number | undefined;
      const move = (m: PointerEvent): void => void (w = set(right - m.clientX));
      const up = (): void => {
        sash.removeEventListener('pointermove', move);
        sash.removeEventListener('pointerup', up);
        if (w !== undefined) this.host.setLayout(tab, { detailWidth: w });
      };
      sash.addEventListener('pointermove', move);
      sash.addEventListener('pointerup', up);
    });
    sash.addEventListener('keydown', (e) => {
      const step = e.key === 'ArrowLeft' ? 24 : e.key === 'ArrowRight' ? -24 : 0;
      if (step === 0) return;
      e.preventDefault();
      this.host.setLayout(tab, { detailWidth: set(this.detailPane.getBoundingClientRect().width + step) });
    });
  }

  /** What the list shows: every row (record id, type, cells, tone) and the status line. */
  model(): { rows: { id: number; type: string; cells: readonly string[]; tone: string | undefined }[]; status: string } {
    const kinds = this.host.kinds();
    return {
      rows: [...this.rows].map((r) => {
        const row = this.options.spec.row(r, kinds);
        return { id: r.id, type: r.type, cells: row.cells, tone: row.tone };
      }),
      status: this.status.dataset.text ?? '',
    };
  }

  focusList(): void {
    this.list.focus();
  }

  /** Takes the new records this list holds; true when its rows changed. */
  add(records: readonly PanelRecord[]): boolean {
    const { spec } = this.options;
    const filters = this.host.filters(spec.tab);
    const kinds = this.host.kinds();
    let changed = false;
    for (const r of records) {
      if (!spec.accepts(r)) continue;
      this.total++;
      this.learn(spec.values(r, kinds));
      const hidden = spec.always?.(r) ? undefined : this.host.hidden(r);
      if (hidden) {
        this.hiddenCounts.set(hidden, (this.hiddenCounts.get(hidden) ?? 0) + 1);
        continue;
      }
      if (!passes(spec, r, filters, kinds)) continue;
      this.rows.insert(r);
      changed = true;
    }
    return changed;
  }

  /** Forgets rows older than the store's first record. */
  dropBelow(firstId: number, dropped: readonly PanelRecord[]): void {
    for (const r of dropped) {
      if (!this.options.spec.accepts(r)) continue;
      this.total--;
      const hidden = this.host.hidden(r);
      if (hidden) this.hiddenCounts.set(hidden, Math.max(0, (this.hiddenCounts.get(hidden) ?? 0) - 1));
    }
    this.rows.dropBelow(firstId);
  }

  /** Re-reads every row from the store (after a reset or a filter change). */
  rebuild(): void {
    this.rows.clear();
    this.total = 0;
    this.hiddenCounts.clear();
    this.add([...this.host.store.records]);
    this.list.setItems(this.rows);
  }

  clearFacets(): void {
    this.facets.clear();
    this.facetsChanged = true;
  }

  /** Draws what changed since the last frame. */
  update(visible: boolean): void {
    if (this.facetsChanged) this.renderMenus();
    this.renderStatus();
    if (!visible) return;
    this.list.changed();
    const wanted = this.host.selected(this.options.spec.tab);
    if (wanted !== undefined && wanted !== this.shownDetail) {
      const index = this.rows.indexOfId(wanted);
      if (index >= 0) {
        this.list.selectId(wanted);
        this.showDetail(this.rows.at(index));
      }
    }
  }

  /** Selects a record (a link from another view) and scrolls to it. */
  reveal(id: number): boolean {
    const found = this.list.selectId(id);
    if (found) this.showDetail(this.rows.at(this.rows.indexOfId(id)));
    return found;
  }

  restoreScroll(top: number | undefined): void {
    this.list.setItems(this.rows);
    if (top !== undefined) this.list.scrollTo(top);
    const wanted = this.host.selected(this.options.spec.tab);
    if (wanted !== undefined) this.list.selectId(wanted, top === undefined);
  }

  private showDetail(record: R | undefined): void {
    this.shownDetail = record?.id;
    if (!record) replaceChildren(this.detailPane, h('p', { class: 'hint' }, 'Select a row to see its details.'));
    else replaceChildren(this.detailPane, this.options.detail(record));
  }

  private learn(values: Record<string, string>): void {
    for (const [field, value] of Object.entries(values)) {
      if (value === '' || this.options.spec.textFields.includes(field)) continue;
      let set = this.facets.get(field);
      if (!set) this.facets.set(field, (set = new Set()));
      if (set.has(value)) continue;
      set.add(value);
      this.facetsChanged = true;
    }
  }

  private filterControl(field: string): HTMLElement {
    const tab = this.options.spec.tab;
    const label = ownString(this.options.filterLabels, field) ?? field;
    const current = ownString(this.host.filters(tab), field) ?? '';
    const id = `${tab}-filter-${field}`;
    if (this.options.spec.textFields.includes(field)) {
      const input = h('vscode-text-field', { id, placeholder: `${label} contains…`, value: current, 'aria-label': `Filter by ${label}` });
      input.addEventListener('input', () => this.host.setFilter(tab, field, (input as HTMLInputElement).value ?? ''));
      return h('div', { class: 'filter' }, input);
    }
    const menu = h('vscode-dropdown', { id, 'aria-label': `Filter by ${label}` });
    menu.addEventListener('change', () => this.host.setFilter(tab, field, (menu as HTMLSelectElement).value ?? ''));
    this.menus.set(field, menu);
    this.facetsChanged = true;
    return h('div', { class: 'filter' }, h('label', { for: id }, label), menu);
  }

  private renderMenus(): void {
    this.facetsChanged = false;
    const tab = this.options.spec.tab;
    for (const [field, menu] of this.menus) {
      const current = ownString(this.host.filters(tab), field) ?? '';
      const values = new Set(this.facets.get(field) ?? []);
      if (current) values.add(current);
      const options = [h('vscode-option', { value: '' }, 'any'), ...[...values].sort().map((v) => h('vscode-option', { value: v }, v))];
      replaceChildren(menu, ...options);
      (menu as HTMLSelectElement).value = current;
    }
  }

  private renderStatus(): void {
    const { store } = this.host;
    const parts: (string | Node)[] = [];
    const shown = this.rows.length;
    parts.push(shown === this.total ? plural(shown, this.options.noun.replace(/s$/, ''), this.options.noun) : `${formatCount(shown)} of ${plural(this.total, this.options.noun.replace(/s$/, ''), this.options.noun)}`);
    const hidden = hiddenText(this.hiddenCounts);
    if (hidden) parts.push(hidden);
    if (store.fellOff > 0) parts.push(h('span', { class: 'fell-off' }, `${plural(store.fellOff, 'older record')} fell off (the buffer keeps the newest ${formatCount(store.capacityLimit)})`));
    if (store.skipped > 0) parts.push(h('span', { class: 'fell-off' }, `${plural(store.skipped, 'record')} skipped while the panel caught up`));
    const text = parts.map((p) => (typeof p === 'string' ? p : p.textContent)).join(' · ');
    if (this.status.dataset.text === text) return;
    this.status.dataset.text = text;
    replaceChildren(this.status, ...parts.flatMap((p, i) => (i === 0 ? [p] : [' · ', p])));
  }
}

/** A filter's or label's own value (field names are data to the map: never an inherited member). */
function ownString(map: object | undefined, field: string): string | undefined {
  return map && Object.hasOwn(map, field) ? (map as Record<string, string>)[field] : undefined;
}
