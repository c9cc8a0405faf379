/**
 * meta.k8s.io/v1 Table: what kube-apiserver returns when a client's Accept asks for
 * `as=Table;v=v1;g=meta.k8s.io` (kubectl get does). Column definitions and cells come from the
 * resource's printer, always in wide form (kubectl drops priority-1 columns itself unless -o
 * wide); each row carries the object, its metadata only, or nothing, as includeObject says.
 */
import type { JsonObject, JsonValue, KubeObject } from '../api/types';

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

/** A column with Go's zero values for what the definition leaves out. */
export function column(name: string, type: string, description: string, extra: { format?: string; priority?: number } = {}): TableColumnDefinition {
  return { name, type, format: extra.format ?? '', description, priority: extra.priority ?? 0 };
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
