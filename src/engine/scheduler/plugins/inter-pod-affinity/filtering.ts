/**
 * InterPodAffinity filtering. The pod's required affinity needs every term's domain on the node
 * to hold a pod matching all terms (or, for the first pod of a group that matches itself, no such
 * pod anywhere); its required anti-affinity needs no matching pod in the domain; and no existing
 * pod's required anti-affinity may match the pod in the node's domains.
 */
import type { Labels } from '../../../api/labels';
import type { NodeInfo } from '../../cache/node-info';
import type { AffinityTerm, PodInfo } from '../../cache/pod-info';
import { podMatchesAllAffinityTerms } from '../../cache/pod-info';
import type { StateData } from '../../framework/cycle-state';
import { Code, Status } from '../../framework/status';
import { TopologyCounts, pairKey } from './counts';
import { own } from '../../../api/own';

export const ERR_REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
export const ERR_REASON_AFFINITY = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";

export class PreFilterState implements StateData {
  constructor(
    readonly pod: PodInfo,
    readonly requiredAffinityTerms: readonly AffinityTerm[],
    readonly requiredAntiAffinityTerms: readonly AffinityTerm[],
    readonly namespaceLabels: Labels,
    readonly existingAntiAffinityCounts: TopologyCounts,
    readonly affinityCounts: TopologyCounts,
    readonly antiAffinityCounts: TopologyCounts,
  ) {}

  clone(): PreFilterState {
    return new PreFilterState(
      this.pod,
      this.requiredAffinityTerms,
      this.requiredAntiAffinityTerms,
      this.namespaceLabels,
      this.existingAntiAffinityCounts.clone(),
      this.affinityCounts.clone(),
      this.antiAffinityCounts.clone(),
    );
  }

  updateWithPod(p: PodInfo, node: NodeInfo, delta: number): void {
    this.existingAntiAffinityCounts.updateWithAntiAffinityTerms(p.requiredAntiAffinityTerms, this.pod.pod, this.namespaceLabels, node.labels, delta);
    this.affinityCounts.updateWithAffinityTerms(this.requiredAffinityTerms, p.pod, node.labels, delta);
    this.antiAffinityCounts.updateWithAntiAffinityTerms(this.requiredAntiAffinityTerms, p.pod, {}, node.labels, delta);
  }
}

export function satisfyPodAffinity(s: PreFilterState, node: NodeInfo): boolean {
  let podsExist = true;
  for (const t of s.requiredAffinityTerms) {
    if (!Object.hasOwn(node.labels, t.topologyKey)) return false;
    if ((s.affinityCounts.map.get(pairKey(t.topologyKey, own(node.labels, t.topologyKey)!)) ?? 0) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  // The first pod of a group with affinity to itself: no other pod matches anywhere yet.
  return s.affinityCounts.size === 0 && podMatchesAllAffinityTerms(s.requiredAffinityTerms, s.pod.pod);
}

export function satisfyPodAntiAffinity(s: PreFilterState, node: NodeInfo): boolean {
  if (s.antiAffinityCounts.size === 0) return true;
  for (const t of s.requiredAntiAffinityTerms) {
    if (!Object.hasOwn(node.labels, t.topologyKey)) continue;
    if ((s.antiAffinityCounts.map.get(pairKey(t.topologyKey, own(node.labels, t.topologyKey)!)) ?? 0) > 0) return false;
  }
  return true;
}

export function satisfyExistingPodsAntiAffinity(s: PreFilterState, node: NodeInfo): boolean {
  if (s.existingAntiAffinityCounts.size === 0) return true;
  for (const key of Object.keys(node.labels)) {
    if ((s.existingAntiAffinityCounts.map.get(pairKey(key, node.labels[key]!)) ?? 0) > 0) return false;
  }
  return true;
}

export function filterNode(s: PreFilterState, node: NodeInfo): Status | null {
  if (!satisfyPodAffinity(s, node)) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_AFFINITY]);
  if (!satisfyPodAntiAffinity(s, node)) return new Status(Code.Unschedulable, [ERR_REASON_ANTI_AFFINITY]);
  if (!satisfyExistingPodsAntiAffinity(s, node)) return new Status(Code.Unschedulable, [ERR_REASON_EXISTING_ANTI_AFFINITY]);
  return null;
}
