/**
 * meta.k8s.io/v1 Table: what kube-apiserver returns when a client's Accept asks for
 * `as=Table;v=v1;g=meta.k8s.io` (kubectl get does). Column definitions and cells come from the
 * resource's printer, always in wide form (kubectl drops priority-1 columns itself unless -o
 * wide); each row carries the object, its metadata only, or nothing, as includeObject says.
 */
import type { JsonObject, JsonValue, KubeObject } from '../api/types';
import { obj } from './format';

export interface TableColumnDefinition {
  name: string;
  /** OpenAPI type: string, integer, number, boolean, date. */
  type: string;
  /** "name" for the column that names the object. */
  format: string;
  description: string;
  /** 0 for the default columns, 1 for those only -o wide shows. */
  priority: number;
}

/** A cell as Go's printers produce it: string, int64, bool, or nil. */
export type Cell = string | number | boolean | null;

export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: Cell[];
  conditions?: TableRowCondition[];
  /** The object, a PartialObjectMetadata, or null (includeObject=None). */
  object: JsonObject | null;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  /** null when the request asked for noHeaders (watch events after the first). */
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[];
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** A row's cells, computed at a virtual instant (`now`, ms) for the AGE-like columns. */
export interface PrintContext {
  now: number;
}

export interface Printer {
  columns: readonly TableColumnDefinition[];
  cells(obj: KubeObject, ctx: PrintContext): Cell[];
  conditions?(obj: KubeObject): TableRowCondition[] | undefined;
}

export interface ColumnExtra {
  format?: string;
  priority?: number;
}

/** A column with Go's zero values for what the definition leaves out. */
export function column(name: string, type: string, description: string, extra: ColumnExtra = {}): TableColumnDefinition {
  return { name, type, format: extra.format ?? '', description, priority: extra.priority ?? 0 };
}

/**
 * What a column's cell is read from: the object, its spec and status as plain objects ({} when
 * absent), the virtual instant, and what the printer worked out once for the whole row (`view`).
 */
export interface Row<V = undefined> {
  readonly object: KubeObject;
  readonly spec: JsonObject;
  readonly status: JsonObject;
  readonly now: number;
  readonly view: V;
}

/** One column of a printer: its definition beside the cell it reads, so the two cannot drift apart. */
export interface ColumnSpec<V = undefined> {
  readonly definition: TableColumnDefinition;
  cell(row: Row<V>): Cell;
}

/** A column and how to read its cell. */
export function col<V = undefined>(name: string, type: string, description: string, cell: (row: Row<V>) => Cell, extra: ColumnExtra = {}): ColumnSpec<V> {
  return { definition: column(name, type, description, extra), cell };
}

/** A column only -o wide shows (priority 1). */
export function wide<V = undefined>(name: string, type: string, description: string, cell: (row: Row<V>) => Cell): ColumnSpec<V> {
  return col(name, type, description, cell, { priority: 1 });
}

export interface TablePrinterOptions<V> {
  /** Worked out once a row, for the columns that share it. */
  view?(object: KubeObject, now: number): V;
  conditions?(object: KubeObject): TableRowCondition[] | undefined;
}

/** The printer of a column list: the definitions in order, and a row's cells read column by column. */
export function tablePrinter<V = undefined>(specs: readonly ColumnSpec<V>[], options: TablePrinterOptions<V> = {}): Printer {
  const printer: Printer = {
    columns: specs.map((s) => s.definition),
    cells(object, ctx) {
      const row: Row<V> = { object, spec: obj(object.spec), status: obj(object.status), now: ctx.now, view: options.view ? options.view(object, ctx.now) : (undefined as V) };
      return specs.map((s) => s.cell(row));
    },
  };
  if (options.conditions) printer.conditions = options.conditions;
  return printer;
}

/** meta.AsPartialObjectMetadata, as a Table row carries it by default. */
export function partialObjectMetadata(obj: KubeObject): JsonObject {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata as JsonObject };
}

export function rowObject(obj: KubeObject, include: IncludeObject): JsonObject | null {
  if (include === 'None') return null;
  if (include === 'Object') return obj as JsonObject;
  return partialObjectMetadata(obj);
}

export type { JsonValue };
