/**
 * PodTopologySpread scoring: each node scores the matching pods of its domains, each count
 * weighted by log(domains + 2) and offset by maxSkew - 1; normalization inverts it so the
 * emptiest domains score 100. Nodes lacking a topology label of the pod's own constraints score 0.
 */
import type { Pod } from '../../api';
import { LABEL_HOSTNAME } from '../../api';
import type { NodeInfo } from '../../cache/node-info';
import type { StateData } from '../../framework/cycle-state';
import { MAX_NODE_SCORE } from '../../framework/interface';
import { RequiredNodeAffinity } from '../../../component-helpers/scheduling/node-affinity';
import type { Snapshot } from '../../cache/snapshot';
import { countMatching, matchNodeInclusionPolicies, nodeLabelsMatchSpreadConstraints, policiesAreTrivial, type SpreadConstraint } from './common';
import type { DomainCounts } from './domain-counts';
import { own } from '../../../api/own';

export class PreScoreState implements StateData {
  readonly ignoredNodes = new Set<string>();
  topologyValueToPodCounts: Map<string, number>[] = [];
  topologyNormalizingWeight: number[] = [];

  constructor(readonly constraints: readonly SpreadConstraint[]) {}

  clone(): StateData {
    return this;
  }
}

/** log(size + 2): more domains, more weight per matching pod. */
export const topologyNormalizingWeight = (size: number): number => Math.log(size + 2);

export const scoreForCount = (cnt: number, maxSkew: number, tpWeight: number): number => cnt * tpWeight + (maxSkew - 1);

export function initPreScoreState(
  pod: Pod,
  constraints: readonly SpreadConstraint[],
  filteredNodes: readonly NodeInfo[],
  snapshot: Snapshot,
  domains: DomainCounts,
  requireAllTopologies: boolean,
): PreScoreState {
  const s = new PreScoreState(constraints);
  s.topologyValueToPodCounts = constraints.map(() => new Map<string, number>());
  const topoSize = constraints.map(() => 0);
  for (const node of filteredNodes) {
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(node.labels, constraints)) {
      s.ignoredNodes.add(node.name);
      continue;
    }
    constraints.forEach((c, i) => {
      // Per-node counts (hostname) are computed in Score.
      if (c.topologyKey === LABEL_HOSTNAME) return;
      const v = own(node.labels, c.topologyKey) ?? '';
      const m = s.topologyValueToPodCounts[i]!;
      if (!m.has(v)) {
        m.set(v, 0);
        topoSize[i]!++;
      }
    });
  }
  s.topologyNormalizingWeight = constraints.map((c, i) =>
    topologyNormalizingWeight(c.topologyKey === LABEL_HOSTNAME ? filteredNodes.length - s.ignoredNodes.size : topoSize[i]!),
  );
  const required = new RequiredNodeAffinity(pod);
  const ns = pod.metadata.namespace;
  const requiredKeys = requireAllTopologies ? constraints.map((c) => c.topologyKey).join(',') : '';
  const counted = (c: SpreadConstraint) => (node: NodeInfo): boolean =>
    (!requireAllTopologies || nodeLabelsMatchSpreadConstraints(node.labels, constraints)) && matchNodeInclusionPolicies(c, pod, node, required);
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    // Per-node counts (hostname) are computed in Score.
    if (c.topologyKey === LABEL_HOSTNAME) continue;
    const m = s.topologyValueToPodCounts[i]!;
    if (policiesAreTrivial(c, required)) {
      // Only domains of candidate nodes are counted.
      const totals = domains.totals(snapshot, c, ns, requiredKeys, counted(c));
      for (const v of m.keys()) m.set(v, totals.get(v) ?? 0);
      continue;
    }
    const isCounted = counted(c);
    for (const node of snapshot.list) {
      const v = own(node.labels, c.topologyKey) ?? '';
      const cur = m.get(v);
      if (cur === undefined || !isCounted(node)) continue;
      m.set(v, cur + countMatching(node, c, ns));
    }
  }
  return s;
}

export function scoreNode(s: PreScoreState, pod: Pod, node: NodeInfo): number {
  if (s.ignoredNodes.has(node.name)) return 0;
  let score = 0;
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    const v = own(node.labels, c.topologyKey);
    if (v === undefined) continue;
    const cnt = c.topologyKey === LABEL_HOSTNAME ? countMatching(node, c, pod.metadata.namespace) : (s.topologyValueToPodCounts[i]!.get(v) ?? 0);
    score += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]!);
  }
  return Math.round(score);
}

const INVALID_SCORE = -1;

export function normalizeScores(s: PreScoreState, scores: Float64Array, nodes: readonly NodeInfo[]): void {
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  for (let i = 0; i < scores.length; i++) {
    if (s.ignoredNodes.has(nodes[i]!.name)) {
      scores[i] = INVALID_SCORE;
      continue;
    }
    if (scores[i]! < minScore) minScore = scores[i]!;
    if (scores[i]! > maxScore) maxScore = scores[i]!;
  }
  for (let i = 0; i < scores.length; i++) {
    if (scores[i] === INVALID_SCORE) {
      scores[i] = 0;
      continue;
    }
    if (maxScore === 0) {
      scores[i] = MAX_NODE_SCORE;
      continue;
    }
    scores[i] = Math.trunc((MAX_NODE_SCORE * (maxScore + minScore - scores[i]!)) / maxScore);
  }
}
