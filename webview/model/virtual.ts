/**
 * The arithmetic of a virtualized list with a fixed row height: which rows a scroll position
 * shows, where to scroll to reveal a row, and where the arrow and paging keys move the
 * selection. Only the visible rows (plus a little overscan) are ever in the DOM.
 */
export interface RowWindow {
  /** First row rendered. */
  readonly start: number;
  /** One past the last row rendered. */
  readonly end: number;
  /** The first rendered row's top, in px from the top of the list. */
  readonly offset: number;
}

export function visibleWindow(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 4): RowWindow {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, offset: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, first + visible + overscan);
  return { start, end, offset: start * rowHeight };
}

/** The scrollTop that brings row `index` fully into view, moving as little as possible. */
export function revealScrollTop(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}

/** Rows a page key moves: the rows fully visible, less one for context (at least one). */
export function pageRows(viewportHeight: number, rowHeight: number): number {
  return Math.max(1, Math.floor(viewportHeight / rowHeight) - 1);
}

/** Where a key moves the selection in a list of `count` rows; undefined for keys it ignores. */
export function navigate(key: string, index: number, count: number, page: number): number | undefined {
  if (count <= 0) return undefined;
  const from = index < 0 ? -1 : Math.min(index, count - 1);
  switch (key) {
    case 'ArrowDown':
      return Math.min(count - 1, from + 1);
    case 'ArrowUp':
      return from < 0 ? count - 1 : Math.max(0, from - 1);
    case 'PageDown':
      return Math.min(count - 1, Math.max(0, from) + page);
    case 'PageUp':
      return Math.max(0, (from < 0 ? count - 1 : from) - page);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}

/** Whether the list is scrolled to (within a row of) its end: new rows then keep it there. */
export function atEnd(scrollTop: number, viewportHeight: number, rowHeight: number, count: number): boolean {
  return scrollTop + viewportHeight >= count * rowHeight - rowHeight;
}
