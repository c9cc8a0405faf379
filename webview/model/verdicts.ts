/**
 * The scheduler's verdict for one pod on every node, read off its scheduling attempt record
 * (kube-scheduler's own account: which filter turned each evaluated node away and why, each
 * feasible node's total score, the chosen node). Nodes the attempt did not evaluate (the
 * search stopped once it had found enough feasible nodes) are said to be "not evaluated".
 */
import type { SchedulingAttemptRecord } from '../../src/protocol/trace-records';

export type NodeVerdict =
  | { readonly node: string; readonly verdict: 'chosen' | 'feasible'; readonly score?: number }
  | { readonly node: string; readonly verdict: 'rejected'; readonly plugin: string; readonly code: string; readonly reasons: readonly string[]; readonly text: string }
  | { readonly node: string; readonly verdict: 'not evaluated' };

export interface PodVerdicts {
  readonly attempt: SchedulingAttemptRecord;
  readonly byNode: ReadonlyMap<string, NodeVerdict>;
  /** "0/4 nodes are available: ..." for a failed attempt; "bound to X" style summary otherwise. */
  readonly headline: string;
}

// The words for NodeResourcesFit's amounts live with the scheduler's records (the story of an
// apply tells them too).
export { bytes, cores, insufficientText, rejectionText } from '../../src/protocol/trace-records';
import { rejectionText } from '../../src/protocol/trace-records';

export function podVerdicts(a: SchedulingAttemptRecord, nodes: readonly string[]): PodVerdicts {
  const byNode = new Map<string, NodeVerdict>();
  const scores = new Map((a.scores ?? []).map((s) => [s.node, s.total]));
  for (const r of a.ranking) if (!scores.has(r.node)) scores.set(r.node, r.score);
  for (const v of a.filters ?? []) {
    if (v.code === 'Success') {
      const score = scores.get(v.node);
      byNode.set(v.node, { node: v.node, verdict: v.node === a.node ? 'chosen' : 'feasible', ...(score !== undefined ? { score } : {}) });
    } else {
      byNode.set(v.node, { node: v.node, verdict: 'rejected', plugin: v.plugin, code: v.code, reasons: v.reasons, text: rejectionText(v) });
    }
  }
  // A PreFilter rejection turns every node away before any filter runs.
  if (a.preFilterStatus && !a.filters?.length) {
    const p = a.preFilterStatus;
    for (const node of nodes) byNode.set(node, { node, verdict: 'rejected', plugin: p.plugin, code: p.code, reasons: p.reasons, text: `${p.plugin}: ${p.reasons.join('; ')}` });
  }
  for (const node of nodes) if (!byNode.has(node)) byNode.set(node, { node, verdict: 'not evaluated' });
  const headline = a.outcome === 'scheduled' ? `attempt ${a.attempt}: scheduled to ${a.node ?? ''} (${a.feasibleNodes} of ${a.evaluatedNodes} evaluated nodes feasible)` : `attempt ${a.attempt}: ${a.message ?? a.outcome}`;
  return { attempt: a, byNode, headline };
}
