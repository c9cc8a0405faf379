/**
 * A virtualized, keyboard-accessible list (ARIA grid): fixed row height, only the visible rows
 * (plus overscan) in the DOM, row elements recycled, rendering at most once per animation frame.
 * 100,000 rows scroll as smoothly as 100.
 */
import type { HasId, SortedWindow } from '../model/sorted-window';
import type { Column, Row } from '../model/rows';
import { atEnd, navigate, pageRows, revealScrollTop, visibleWindow } from '../model/virtual';
import { h } from './dom';

export const ROW_HEIGHT = 22;

export interface VirtualListOptions<T> {
  readonly id: string;
  readonly label: string;
  readonly columns: readonly Column[];
  row(item: T): Row;
  onSelect(item: T | undefined): void;
  onScroll(scrollTop: number): void;
  /** Column widths the user dragged (px; undefined: the column's own track). */
  readonly widths?: readonly (number | undefined)[];
  onResize?(widths: readonly (number | undefined)[]): void;
}

const MIN_COLUMN = 40;

export class VirtualList<T extends HasId> {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly layer: HTMLElement;
  private readonly pool: HTMLElement[] = [];
  private items: SortedWindow<T> | undefined;
  private selectedId: number | undefined;
  private frame = 0;
  /** Stay at the end as rows arrive while the user has not scrolled away from it. */
  private following = true;
  private pendingEnd = false;

  private readonly widths: (number | undefined)[];
  private readonly headerCells: HTMLElement[];

  constructor(private readonly options: VirtualListOptions<T>) {
    this.widths = options.columns.map((_, i) => options.widths?.[i]);
    // Each heading has a handle on its right edge: drag it (or focus it and use the arrow keys) to resize the column.
    this.headerCells = options.columns.map((c, i) => {
      const handle = h('div', { class: 'col-resize', role: 'separator', tabindex: 0, 'aria-orientation': 'vertical', 'aria-label': `Resize the ${c.title} column`, title: `Drag to resize ${c.title}` });
      this.resizable(handle, i);
      return h('div', { class: 'vlist-cell', role: 'columnheader', title: c.title }, h('span', { class: 'col-title' }, c.title), i < options.columns.length - 1 && handle);
    });
    const header = h('div', { class: 'vlist-header', role: 'rowgroup' }, h('div', { class: 'vlist-header-row', role: 'row', 'aria-rowindex': 1 }, ...this.headerCells));
    this.layer = h('div', { class: 'vlist-rows', role: 'presentation' });
    this.spacer = h('div', { class: 'vlist-spacer', role: 'presentation' }, this.layer);
    this.body = h('div', { class: 'vlist-body', role: 'rowgroup' }, this.spacer);
    // The grid itself takes focus (one tab stop); the active row is its aria-activedescendant.
    this.element = h('div', { class: 'vlist', role: 'grid', tabindex: 0, 'aria-label': options.label, 'aria-colcount': options.columns.length }, header, this.body);
    this.applyWidths();
    this.element.style.setProperty('--vlist-row-height', `${ROW_HEIGHT}px`);
    this.body.addEventListener('scroll', () => {
      this.following = atEnd(this.body.scrollTop, this.body.clientHeight, ROW_HEIGHT, this.count);
      this.options.onScroll(this.body.scrollTop);
      this.invalidate();
    });
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.layer.addEventListener('click', (e) => {
      const row = (e.target as Element).closest<HTMLElement>('.vlist-row');
      const index = row ? Number(row.dataset.index) : NaN;
      if (Number.isInteger(index)) this.selectIndex(index, false);
      this.element.focus({ preventScroll: true });
    });
  }

  private applyWidths(): void {
    const template = this.options.columns.map((c, i) => (this.widths[i] !== undefined ? `${this.widths[i]}px` : c.width)).join(' ');
    this.element.style.setProperty('--vlist-columns', template);
  }

  private resizable(handle: HTMLElement, i: number): void {
    const set = (px: number): void => {
      this.widths[i] = Math.max(MIN_COLUMN, Math.round(px));
      handle.setAttribute('aria-valuenow', String(this.widths[i]));
      this.applyWidths();
    };
    handle.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      e.stopPropagation();
      const start = e.clientX;
      const from = this.headerCells[i]!.getBoundingClientRect().width;
      handle.setPointerCapture(e.pointerId);
      const move = (m: PointerEvent): void => set(from + m.clientX - start);
      const up = (): void => {
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        this.options.onResize?.(this.widths);
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', up);
    });
    handle.addEventListener('keydown', (e) => {
      const step = e.key === 'ArrowLeft' ? -16 : e.key === 'ArrowRight' ? 16 : 0;
      if (step === 0) return;
      e.preventDefault();
      e.stopPropagation();
      set(this.headerCells[i]!.getBoundingClientRect().width + step);
      this.options.onResize?.(this.widths);
    });
    // A double click gives the column back its own width.
    handle.addEventListener('dblclick', () => {
      this.widths[i] = undefined;
      this.applyWidths();
      this.options.onResize?.(this.widths);
    });
  }

  get count(): number {
    return this.items?.length ?? 0;
  }

  get selected(): number | undefined {
    return this.selectedId;
  }

  get scrollTop(): number {
    return this.body.scrollTop;
  }

  focus(): void {
    this.element.focus();
  }

  setItems(items: SortedWindow<T>): void {
    this.items = items;
    this.invalidate();
  }

  /** Scrolls to a remembered position (once the rows are there); the list stops following. */
  scrollTo(top: number): void {
    this.spacer.style.height = `${this.count * ROW_HEIGHT}px`;
    this.body.scrollTop = top;
    this.following = atEnd(this.body.scrollTop, this.body.clientHeight, ROW_HEIGHT, this.count);
    this.invalidate();
  }

  /** Selects the row of a record id (if it is in the list) and scrolls it into view. */
  selectId(id: number | undefined, reveal = true): boolean {
    this.selectedId = id;
    const index = id === undefined || !this.items ? -1 : this.items.indexOfId(id);
    if (index >= 0 && reveal) this.reveal(index);
    this.invalidate();
    return index >= 0;
  }

  /** Rows changed: keeps the end in view when following, re-renders next frame. */
  changed(): void {
    if (this.following) this.pendingEnd = true;
    this.invalidate();
  }

  invalidate(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Draws the visible window now. */
  render(): void {
    const count = this.count;
    this.spacer.style.height = `${count * ROW_HEIGHT}px`;
    this.element.setAttribute('aria-rowcount', String(count + 1));
    if (this.pendingEnd) {
      this.pendingEnd = false;
      this.body.scrollTop = Math.max(0, count * ROW_HEIGHT - this.body.clientHeight);
    }
    const view = visibleWindow(this.body.scrollTop, this.body.clientHeight, ROW_HEIGHT, count);
    this.layer.style.transform = `translateY(${view.offset}px)`;
    const needed = view.end - view.start;
    while (this.pool.length < needed) this.pool.push(this.createRow());
    let active: string | undefined;
    for (let i = 0; i < this.pool.length; i++) {
      const el = this.pool[i]!;
      const item = i < needed ? this.items?.at(view.start + i) : undefined;
      if (!item) {
        el.hidden = true;
        continue;
      }
      el.hidden = false;
      this.fill(el, item, view.start + i);
      if (item.id === this.selectedId) active = el.id;
    }
    if (active) this.element.setAttribute('aria-activedescendant', active);
    else this.element.removeAttribute('aria-activedescendant');
  }

  private createRow(): HTMLElement {
    const el = h('div', { class: 'vlist-row', role: 'row', id: `${this.options.id}-row-${this.pool.length}` });
    for (let c = 0; c < this.options.columns.length; c++) el.append(h('div', { class: 'vlist-cell', role: 'gridcell' }));
    this.layer.append(el);
    return el;
  }

  private fill(el: HTMLElement, item: T, index: number): void {
    if (el.dataset.id === String(item.id) && el.dataset.index === String(index)) {
      this.mark(el, item);
      return;
    }
    const row = this.options.row(item);
    el.dataset.id = String(item.id);
    el.dataset.index = String(index);
    el.setAttribute('aria-rowindex', String(index + 2));
    el.className = row.tone ? `vlist-row ${row.tone}` : 'vlist-row';
    const cells = el.children;
    for (let c = 0; c < cells.length; c++) {
      const cell = cells[c] as HTMLElement;
      const text = row.cells[c] ?? '';
      if (cell.textContent !== text) {
        cell.textContent = text;
        cell.title = text;
      }
    }
    this.mark(el, item);
  }

  private mark(el: HTMLElement, item: T): void {
    const selected = item.id === this.selectedId;
    el.classList.toggle('selected', selected);
    el.setAttribute('aria-selected', String(selected));
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.items) return;
    const current = this.selectedId === undefined ? -1 : this.items.indexOfId(this.selectedId);
    const next = navigate(e.key, current, this.count, pageRows(this.body.clientHeight, ROW_HEIGHT));
    if (next === undefined) return;
    e.preventDefault();
    this.selectIndex(next, true);
  }

  private selectIndex(index: number, reveal: boolean): void {
    const item = this.items?.at(index);
    if (!item) return;
    this.selectedId = item.id;
    if (reveal) this.reveal(index);
    this.invalidate();
    this.options.onSelect(item);
  }

  private reveal(index: number): void {
    this.spacer.style.height = `${this.count * ROW_HEIGHT}px`;
    const top = revealScrollTop(index, this.body.scrollTop, this.body.clientHeight, ROW_HEIGHT);
    if (top !== this.body.scrollTop) this.body.scrollTop = top;
    this.following = atEnd(top, this.body.clientHeight, ROW_HEIGHT, this.count);
  }
}
