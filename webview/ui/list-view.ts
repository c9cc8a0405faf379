/**
 * One list tab: filter menus, a status line (how many rows, what fell off), the virtualized
 * list and the selected record's detail.
 */
import type { PanelRecord } from '../../src/protocol/panel';
import { passes, type ListSpec } from '../model/lists';
import type { RecordStore } from '../model/record-store';
import type { Column, Kinds } from '../model/rows';
import { SortedWindow } from '../model/sorted-window';
import { FILTER_FIELDS, type Filters, type ListTab } from '../model/state';
import { formatCount, plural } from '../model/format';
import { h, replaceChildren } from './dom';
import { VirtualList } from './virtual-list';

export interface ListViewHost {
  readonly store: RecordStore;
  kinds(): Kinds;
  filters<T extends ListTab>(tab: T): Filters[T];
  setFilter(tab: ListTab, field: string, value: string): void;
  selected(tab: ListTab): number | undefined;
  setSelected(tab: ListTab, id: number | undefined): void;
  setScroll(tab: ListTab, top: number): void;
}

export interface ListViewOptions<R extends PanelRecord, T extends ListTab> {
  readonly spec: ListSpec<R, T>;
  readonly columns: readonly Column[];
  /** "revisions", "requests": what the status line counts. */
  readonly noun: string;
  readonly label: string;
  readonly filterLabels: Record<(typeof FILTER_FIELDS)[T][number], string>;
  detail(record: R): Node;
}

export class ListView<R extends PanelRecord, T extends ListTab> {
  readonly element: HTMLElement;
  private readonly rows = new SortedWindow<R>();
  private total = 0;
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
    });
    const filters = h('div', { class: 'filters' });
    for (const field of FILTER_FIELDS[tab]) filters.append(this.filterControl(field));
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.detailPane = h('section', { class: 'detail', 'aria-label': `${options.label}: selected record`, tabindex: 0 }, h('p', { class: 'hint' }, 'Select a row to see its details.'));
    this.element = h('div', { class: 'view' }, h('div', { class: 'toolbar' }, filters, this.status), h('div', { class: 'split' }, this.list.element, this.detailPane));
  }

  get count(): number {
    return this.rows.length;
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
      if (!passes(spec, r, filters, kinds)) continue;
      this.rows.insert(r);
      changed = true;
    }
    return changed;
  }

  /** Forgets rows older than the store's first record. */
  dropBelow(firstId: number, dropped: readonly PanelRecord[]): void {
    for (const r of dropped) if (this.options.spec.accepts(r)) this.total--;
    this.rows.dropBelow(firstId);
  }

  /** Re-reads every row from the store (after a reset or a filter change). */
  rebuild(): void {
    this.rows.clear();
    this.total = 0;
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
    const label = (this.options.filterLabels as Record<string, string>)[field] ?? field;
    const current = (this.host.filters(tab) as Record<string, string>)[field] ?? '';
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
      const current = (this.host.filters(tab) as Record<string, string>)[field] ?? '';
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
    if (store.fellOff > 0) parts.push(h('span', { class: 'fell-off' }, `${plural(store.fellOff, 'older record')} fell off (the buffer keeps the newest ${formatCount(store.capacityLimit)})`));
    if (store.skipped > 0) parts.push(h('span', { class: 'fell-off' }, `${plural(store.skipped, 'record')} skipped while the panel caught up`));
    const text = parts.map((p) => (typeof p === 'string' ? p : p.textContent)).join(' · ');
    if (this.status.dataset.text === text) return;
    this.status.dataset.text = text;
    replaceChildren(this.status, ...parts.flatMap((p, i) => (i === 0 ? [p] : [' · ', p])));
  }
}
