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
import { RequiredNodeAffinity } from '../helpers/node-affinity';
import { countPodsMatchSelector, matchNodeInclusionPolicies, nodeLabelsMatchSpreadConstraints, type SpreadConstraint } from './common';

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
  allNodes: readonly NodeInfo[],
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
      const v = node.labels[c.topologyKey] ?? '';
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
  for (const node of allNodes) {
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(node.labels, constraints)) continue;
    constraints.forEach((c, i) => {
      if (!matchNodeInclusionPolicies(c, pod, node, required)) return;
      const m = s.topologyValueToPodCounts[i]!;
      const v = node.labels[c.topologyKey] ?? '';
      const cur = m.get(v);
      // Only domains of candidate nodes are counted.
      if (cur === undefined) return;
      m.set(v, cur + countPodsMatchSelector(node, c.selector, ns));
    });
  }
  return s;
}

export function scoreNode(s: PreScoreState, pod: Pod, node: NodeInfo): number {
  if (s.ignoredNodes.has(node.name)) return 0;
  let score = 0;
  s.constraints.forEach((c, i) => {
    const v = node.labels[c.topologyKey];
    if (v === undefined) return;
    const cnt = c.topologyKey === LABEL_HOSTNAME ? countPodsMatchSelector(node, c.selector, pod.metadata.namespace) : (s.topologyValueToPodCounts[i]!.get(v) ?? 0);
    score += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]!);
  });
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
