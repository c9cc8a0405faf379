/**
 * A Table as kubectl prints it: upper-case headers, priority-1 columns only with -o wide, a
 * NAMESPACE column first for --all-namespaces, cells cut at the first line break ("..."), and
 * columns aligned by Go's tabwriter as kubectl configures it (minimum width 6, padding 3; the
 * last column is not padded).
 */
import type { Cell, Table } from './table';

export interface RenderOptions {
  wide?: boolean;
  noHeaders?: boolean;
  /** Prepend NAMESPACE, taken from each row's object metadata. */
  withNamespace?: boolean;
}

const MIN_WIDTH = 6;
const PADDING = 3;

function cellText(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'string') return String(cell);
  const cut = cell.search(/[\f\n\r]/);
  return cut >= 0 ? cell.slice(0, cut) + '...' : cell;
}

/** Width in runes, as tabwriter counts (not UTF-16 units). */
const runes = (s: string): number => [...s].length;

function namespaceOf(object: unknown): string {
  const meta = object && typeof object === 'object' ? (object as { metadata?: { namespace?: unknown } }).metadata : undefined;
  return typeof meta?.namespace === 'string' ? meta.namespace : '';
}

export function renderTable(table: Table, options: RenderOptions = {}): string {
  const columns = table.columnDefinitions ?? [];
  const shown = columns.map((c, i) => ({ c, i })).filter(({ c }) => options.wide || c.priority === 0);
  const lines: string[][] = [];
  if (!options.noHeaders) {
    const header = shown.map(({ c }) => c.name.toUpperCase());
    lines.push(options.withNamespace ? ['NAMESPACE', ...header] : header);
  }
  for (const row of table.rows) {
    const cells = shown.map(({ i }) => cellText(row.cells[i]));
    lines.push(options.withNamespace ? [namespaceOf(row.object), ...cells] : cells);
  }
  return alignColumns(lines);
}

/** Go's text/tabwriter over tab-separated cells: every cell but a line's last is padded. */
export function alignColumns(lines: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const line of lines) {
    for (let i = 0; i < line.length - 1; i++) widths[i] = Math.max(widths[i] ?? MIN_WIDTH, runes(line[i]!) + PADDING);
  }
  return lines
    .map((line) => line.map((cell, i) => (i < line.length - 1 ? cell + ' '.repeat(widths[i]! - runes(cell)) : cell)).join('') + '\n')
    .join('');
}
