/**
 * schedulePod (pkg/scheduler/schedule_one.go): snapshot, PreFilter, filter nodes until enough
 * feasible ones are found (adaptive percentageOfNodesToScore, continuing round robin from where
 * the last cycle stopped), score them, pick the best with seeded random tie-breaking.
 */
import type { Random } from '../random';
import type { Cache } from './cache/cache';
import type { NodeInfo } from './cache/node-info';
import type { PodInfo } from './cache/pod-info';
import type { Snapshot } from './cache/snapshot';
import type { CycleState } from './framework/cycle-state';
import { Diagnosis } from './framework/node-to-status';
import type { Framework, ScoreTable } from './framework/runtime';
import { CODE_NAMES, Code, Status, type Status as StatusT } from './framework/status';
import type { FilterVerdict, NodeScores, RankedNode, RecordDetail } from './record';
import { own, setOwn } from '../api/own';

export const MIN_FEASIBLE_NODES_TO_FIND = 100;
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
/** How many of the best nodes upstream reports (numberOfHighestScoredNodesToReport). */
export const HIGHEST_SCORED_NODES_TO_REPORT = 3;

export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/** numFeasibleNodesToFind: all nodes below 100; else 50% - nodes/125 (at least 5%), at least 100. */
export function numFeasibleNodesToFind(percentageOfNodesToScore: number, numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let percentage = percentageOfNodesToScore;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const n = Math.trunc((numAllNodes * percentage) / 100);
  return n < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : n;
}

/** Reservoir sampling over the highest totals: each tied node is chosen with equal probability. */
export function selectHost(totals: Float64Array, random: Random): number {
  let best = -1;
  let bestScore = -Infinity;
  let ties = 0;
  for (let i = 0; i < totals.length; i++) {
    const s = totals[i]!;
    if (s > bestScore) {
      bestScore = s;
      best = i;
      ties = 1;
    } else if (s === bestScore) {
      ties++;
      if (random.int(ties) === 0) best = i;
    }
  }
  return best;
}

/** What a cycle found out, kept for the record. */
export interface CycleTrace {
  numAllNodes: number;
  searchStart: number;
  numNodesToFind: number;
  preFilterSkipped: readonly string[];
  preFilterStatus?: StatusT;
  preFilterNodes?: readonly string[];
  filterPlugins: readonly string[];
  /** Nodes in evaluation order, with their verdicts (null = feasible); 'full' detail only. */
  evaluated?: { node: NodeInfo; status: StatusT | null }[];
  rejectionsByPlugin: Record<string, number>;
  preScoreSkipped?: readonly string[];
  scoredNodes?: readonly NodeInfo[];
  scores?: ScoreTable;
}

export type ScheduleResult =
  | { kind: 'scheduled'; node: string; evaluatedNodes: number; feasibleNodes: number }
  | { kind: 'fitError'; diagnosis: Diagnosis; numAllNodes: number }
  | { kind: 'error'; status: StatusT };

export class ScheduleAlgorithm {
  private nextStartNodeIndex = 0;

  constructor(
    private readonly cache: Cache,
    readonly snapshot: Snapshot,
    private readonly fw: Framework,
    private readonly random: Random,
    private readonly percentageOfNodesToScore: number,
  ) {}

  schedulePod(state: CycleState, pod: PodInfo, detail: RecordDetail): { result: ScheduleResult; trace: CycleTrace } {
    this.cache.updateSnapshot(this.snapshot);
    const all = this.snapshot.list;
    const trace: CycleTrace = {
      numAllNodes: all.length,
      searchStart: this.nextStartNodeIndex,
      numNodesToFind: 0,
      preFilterSkipped: [],
      filterPlugins: [],
      rejectionsByPlugin: {},
    };
    if (all.length === 0) return { result: { kind: 'error', status: new Status(Code.UnschedulableAndUnresolvable, [ERR_NO_NODES_AVAILABLE]) }, trace };

    const found = this.findNodesThatFitPod(state, pod, all, trace, detail);
    if ('status' in found) return { result: { kind: 'error', status: found.status }, trace };
    const { feasible, diagnosis } = found;
    if (feasible.length === 0) return { result: { kind: 'fitError', diagnosis, numAllNodes: all.length }, trace };
    if (feasible.length === 1) {
      return { result: { kind: 'scheduled', node: feasible[0]!.name, evaluatedNodes: 1 + diagnosis.nodeToStatus.len(), feasibleNodes: 1 }, trace };
    }
    const pre = this.fw.runPreScorePlugins(state, pod, feasible);
    trace.preScoreSkipped = pre.skipped;
    if (pre.status) return { result: { kind: 'error', status: pre.status }, trace };
    const scores = this.fw.runScorePlugins(state, pod, feasible);
    if (scores instanceof Status) return { result: { kind: 'error', status: scores }, trace };
    trace.scoredNodes = feasible;
    trace.scores = scores;
    const chosen = selectHost(scores.totals, this.random);
    return {
      result: { kind: 'scheduled', node: feasible[chosen]!.name, evaluatedNodes: feasible.length + diagnosis.nodeToStatus.len(), feasibleNodes: feasible.length },
      trace,
    };
  }

  private findNodesThatFitPod(
    state: CycleState,
    pod: PodInfo,
    all: readonly NodeInfo[],
    trace: CycleTrace,
    detail: RecordDetail,
  ): { feasible: NodeInfo[]; diagnosis: Diagnosis } | { status: StatusT } {
    const diagnosis = new Diagnosis();
    const pre = this.fw.runPreFilterPlugins(state, pod, all);
    trace.preFilterSkipped = pre.skipped;
    diagnosis.unschedulablePlugins = new Set(pre.pluginsWithNodes);
    if (pre.status !== null) {
      if (!pre.status.isRejected()) return { status: pre.status };
      trace.preFilterStatus = pre.status;
      // Every node gets the PreFilter's status, so preemption sees it.
      diagnosis.nodeToStatus.absentNodesStatus = pre.status;
      diagnosis.preFilterMsg = pre.status.message();
      diagnosis.addPluginStatus(pre.status);
      return { feasible: [], diagnosis };
    }
    const filters = this.fw.activeFilterPlugins(state);
    trace.filterPlugins = filters.map((f) => f.name);

    // A nominated node (from preemption) is likely the only one that fits: try it first.
    const nominated = pod.pod.status?.nominatedNodeName;
    if (nominated) {
      const node = this.snapshot.get(nominated);
      if (node) {
        const found = this.findNodesThatPassFilters(state, pod, diagnosis, [node], trace, detail, 0);
        if ('status' in found) return found;
        if (found.feasible.length > 0) return { feasible: found.feasible, diagnosis };
      }
    }

    let nodes = all;
    if (pre.nodeNames !== null) {
      const subset: NodeInfo[] = [];
      for (const name of pre.nodeNames) {
        const n = this.snapshot.get(name);
        if (n) subset.push(n);
      }
      nodes = subset;
      trace.preFilterNodes = subset.map((n) => n.name);
      diagnosis.nodeToStatus.absentNodesStatus = new Status(Code.UnschedulableAndUnresolvable, [
        `node(s) didn't satisfy plugin(s) [${[...pre.pluginsWithNodes].sort().join(' ')}]`,
      ]);
    }
    const found = this.findNodesThatPassFilters(state, pod, diagnosis, nodes, trace, detail, this.nextStartNodeIndex);
    // Always advance, so that every node gets its turn across cycles.
    const processed = ('feasible' in found ? found.feasible.length : 0) + diagnosis.nodeToStatus.len();
    this.nextStartNodeIndex = (this.nextStartNodeIndex + processed) % all.length;
    if ('status' in found) return found;
    return { feasible: found.feasible, diagnosis };
  }

  private findNodesThatPassFilters(
    state: CycleState,
    pod: PodInfo,
    diagnosis: Diagnosis,
    nodes: readonly NodeInfo[],
    trace: CycleTrace,
    detail: RecordDetail,
    start: number,
  ): { feasible: NodeInfo[] } | { status: StatusT } {
    const n = nodes.length;
    const toFind = numFeasibleNodesToFind(this.percentageOfNodesToScore, n);
    trace.numNodesToFind = toFind;
    const feasible: NodeInfo[] = [];
    const filters = this.fw.activeFilterPlugins(state);
    const evaluated = detail === 'full' ? (trace.evaluated ??= []) : undefined;
    const fw = this.fw;
    const nominated = fw.hasNominatedPods();
    for (let i = 0; i < n && feasible.length < toFind; i++) {
      const node = nodes[(start + i) % n]!;
      const s = filters.length === 0 ? null : nominated ? fw.runFilterPluginsWithNominatedPods(state, pod, node, filters) : fw.runFilterPlugins(state, pod, node, filters);
      if (evaluated) evaluated.push({ node, status: s });
      if (s === null) {
        feasible.push(node);
        continue;
      }
      if (s.code === Code.Error) return { status: s };
      diagnosis.nodeToStatus.set(node.name, s);
      diagnosis.addPluginStatus(s);
      setOwn(trace.rejectionsByPlugin, s.plugin, (own(trace.rejectionsByPlugin, s.plugin) ?? 0) + 1);
    }
    return { feasible };
  }
}

/** The per-node filter verdicts of a trace, for the record. */
export function filterVerdicts(trace: CycleTrace): FilterVerdict[] | undefined {
  return trace.evaluated?.map(({ node, status }) => ({
    node: node.name,
    code: status === null ? 'Success' : CODE_NAMES[status.code],
    plugin: status?.plugin ?? '',
    reasons: status?.reasons ?? [],
    ...(status?.insufficient ? { insufficient: status.insufficient } : {}),
  }));
}

/** The k highest totals, highest first (earlier nodes first among equals), without sorting them all. */
function topScored(nodes: readonly NodeInfo[], totals: Float64Array, k: number): RankedNode[] {
  const top: RankedNode[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const score = totals[i]!;
    if (top.length === k && score <= top[k - 1]!.score) continue;
    let at = top.length;
    while (at > 0 && top[at - 1]!.score < score) at--;
    top.splice(at, 0, { node: nodes[i]!.name, score });
    if (top.length > k) top.pop();
  }
  return top;
}

/** Raw, normalized and weighted scores per node, and the ranking (all nodes, or the top 3). */
export function scoreDetails(trace: CycleTrace, detail: RecordDetail): { scores?: NodeScores[]; ranking: RankedNode[] } {
  const t = trace.scores;
  const nodes = trace.scoredNodes;
  if (!t || !nodes) return { ranking: [] };
  if (detail !== 'full') return { ranking: topScored(nodes, t.totals, HIGHEST_SCORED_NODES_TO_REPORT) };
  const ranking = nodes.map((n, i) => ({ node: n.name, score: t.totals[i]! })).sort((a, b) => b.score - a.score);
  const scores = nodes.map((n, i) => ({
    node: n.name,
    raw: t.raw.map((r) => r[i]!),
    normalized: t.normalized.map((r) => r[i]!),
    weighted: t.normalized.map((r, p) => r[i]! * t.weights[p]!),
    total: t.totals[i]!,
  }));
  return { scores, ranking };
}
