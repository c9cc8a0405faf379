/**
 * InterPodAffinity scoring: per topology domain, the weights of the pod's preferred terms that
 * existing pods match (anti-affinity subtracts), plus, symmetrically, the existing pods' preferred
 * terms and (with weight 1) required affinity terms that the pod matches. Normalized min-max.
 */
import type { Labels } from '../../../api/labels';
import type { Pod } from '../../api';
import type { NodeInfo } from '../../cache/node-info';
import type { AffinityTerm, PodInfo, WeightedAffinityTerm } from '../../cache/pod-info';
import type { StateData } from '../../framework/cycle-state';
import { MAX_NODE_SCORE } from '../../framework/interface';
import { own } from '../../../api/own';

/** InterPodAffinityArgs.hardPodAffinityWeight default. */
export const HARD_POD_AFFINITY_WEIGHT = 1;

/** topologyKey -> value -> score. */
export type ScoreMap = Map<string, Map<string, number>>;

export class PreScoreState implements StateData {
  constructor(readonly topologyScore: ScoreMap) {}
  clone(): StateData {
    return this;
  }
}

function processTerm(m: ScoreMap, term: AffinityTerm, weight: number, pod: Pod, nsLabels: Labels, nodeLabels: Labels, multiplier: number): void {
  if (!term.matches(pod, nsLabels)) return;
  if (!Object.hasOwn(nodeLabels, term.topologyKey)) return;
  let values = m.get(term.topologyKey);
  if (!values) m.set(term.topologyKey, (values = new Map()));
  const v = own(nodeLabels, term.topologyKey)!;
  values.set(v, (values.get(v) ?? 0) + weight * multiplier);
}

function processTerms(m: ScoreMap, terms: readonly WeightedAffinityTerm[], pod: Pod, nsLabels: Labels, nodeLabels: Labels, multiplier: number): void {
  for (const t of terms) processTerm(m, t.term, t.weight, pod, nsLabels, nodeLabels, multiplier);
}

export function processExistingPod(
  m: ScoreMap,
  incoming: { preferredAffinityTerms: readonly WeightedAffinityTerm[]; preferredAntiAffinityTerms: readonly WeightedAffinityTerm[]; pod: Pod },
  nsLabels: Labels,
  existing: PodInfo,
  node: NodeInfo,
): void {
  const labels = node.labels;
  if (Object.keys(labels).length === 0) return;
  // The incoming pod's terms have their namespace selectors resolved already: no labels needed.
  processTerms(m, incoming.preferredAffinityTerms, existing.pod, {}, labels, 1);
  processTerms(m, incoming.preferredAntiAffinityTerms, existing.pod, {}, labels, -1);
  for (const t of existing.requiredAffinityTerms) processTerm(m, t, HARD_POD_AFFINITY_WEIGHT, incoming.pod, nsLabels, labels, 1);
  processTerms(m, existing.preferredAffinityTerms, incoming.pod, nsLabels, labels, 1);
  processTerms(m, existing.preferredAntiAffinityTerms, incoming.pod, nsLabels, labels, -1);
}

export function scoreNode(s: PreScoreState, node: NodeInfo): number {
  let score = 0;
  for (const [key, values] of s.topologyScore) {
    if (Object.hasOwn(node.labels, key)) score += values.get(node.labels[key]!) ?? 0;
  }
  return score;
}

export function normalizeScores(s: PreScoreState, scores: Float64Array): void {
  if (s.topologyScore.size === 0) return;
  let min = Number.MAX_SAFE_INTEGER;
  let max = Number.MIN_SAFE_INTEGER;
  for (const v of scores) {
    if (v > max) max = v;
    if (v < min) min = v;
  }
  const diff = max - min;
  for (let i = 0; i < scores.length; i++) {
    scores[i] = diff > 0 ? Math.trunc(MAX_NODE_SCORE * ((scores[i]! - min) / diff)) : 0;
  }
}
