/**
 * The Scheduler view's tables, read off a scheduling attempt record: the filter table (each
 * evaluated node against each filter plugin, in the order they ran), the score table (each
 * plugin's raw, normalized and weighted score per node, and the total).
 */
import { filterPluginVerdicts, type SchedulingAttemptRecord } from '../../src/protocol/trace-records';

export interface FilterCell {
  readonly verdict: 'passed' | 'rejected' | 'not run';
  readonly reasons: readonly string[];
}

export interface FilterRow {
  readonly node: string;
  readonly feasible: boolean;
  readonly chosen: boolean;
  readonly cells: readonly FilterCell[];
}

export interface FilterTable {
  readonly plugins: readonly string[];
  readonly rows: readonly FilterRow[];
}

/** Undefined when the attempt was recorded without per-node detail. */
export function filterTable(a: SchedulingAttemptRecord): FilterTable | undefined {
  if (!a.filters) return undefined;
  return {
    plugins: a.filterPlugins,
    rows: a.filters.map((v) => ({
      node: v.node,
      feasible: v.code === 'Success',
      chosen: v.node === a.node,
      cells: filterPluginVerdicts(a, v).map(({ verdict, reasons }) => ({ verdict, reasons })),
    })),
  };
}

export interface ScoreCell {
  readonly raw: number;
  readonly normalized: number;
  readonly weighted: number;
}

export interface ScoreRow {
  readonly node: string;
  readonly chosen: boolean;
  readonly cells: readonly ScoreCell[];
  readonly total: number;
}

export interface ScoreTable {
  readonly plugins: readonly { readonly name: string; readonly weight: number }[];
  /** Highest total first, as the attempt ranked them. */
  readonly rows: readonly ScoreRow[];
}

export function scoreTable(a: SchedulingAttemptRecord): ScoreTable | undefined {
  if (!a.scores || !a.scorePlugins) return undefined;
  const rank = new Map(a.ranking.map((r, i) => [r.node, i]));
  const rows = a.scores.map((s) => ({
    node: s.node,
    chosen: s.node === a.node,
    cells: (a.scorePlugins ?? []).map((_, i) => ({ raw: s.raw[i] ?? 0, normalized: s.normalized[i] ?? 0, weighted: s.weighted[i] ?? 0 })),
    total: s.total,
  }));
  rows.sort((x, y) => (rank.get(x.node) ?? Infinity) - (rank.get(y.node) ?? Infinity) || y.total - x.total);
  return { plugins: a.scorePlugins, rows };
}
