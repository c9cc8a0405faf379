/**
 * The causal closure of a record: it and everything it caused, transitively, found only by
 * following the trace's cause links (docs/architecture.md, invariant 2). The story of an apply, the Flow
 * diagram and the panel's "this apply only" filter all start from it.
 */
import type { TraceRecord } from '../trace/types';

/** cause id -> the records naming it as their cause. */
export type CauseIndex = ReadonlyMap<number, Iterable<TraceRecord>>;

export function causeIndex(records: Iterable<TraceRecord>): Map<number, TraceRecord[]> {
  const children = new Map<number, TraceRecord[]>();
  for (const r of records) {
    if (r.cause === undefined) continue;
    const list = children.get(r.cause);
    if (list) list.push(r);
    else children.set(r.cause, [r]);
  }
  for (const list of children.values()) list.sort((a, b) => a.id - b.id);
  return children;
}

/** The root and everything caused by it, transitively, in id order. */
export function causalClosure(root: TraceRecord, children: CauseIndex): TraceRecord[] {
  const seen = new Set<number>([root.id]);
  const out: TraceRecord[] = [root];
  for (let i = 0; i < out.length; i++) {
    for (const child of children.get(out[i]!.id) ?? []) {
      if (seen.has(child.id)) continue;
      seen.add(child.id);
      out.push(child);
    }
  }
  return out.sort((a, b) => a.id - b.id);
}
