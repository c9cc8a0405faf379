/**
 * InterPodAffinity: required pod affinity and anti-affinity as a Filter (both directions: the
 * pod's terms and existing pods' anti-affinity), preferred terms as a Score. Namespace selectors
 * of the pod's terms are resolved to namespace names once per cycle.
 */
import { Selector, type Labels } from '../../api/labels';
import type { Node, Pod } from '../api';
import type { NodeInfo } from '../cache/node-info';
import { AffinityTerm, EMPTY_LABELS, podMatchesAllAffinityTerms, PodInfo, type WeightedAffinityTerm } from '../cache/pod-info';
import { StateKey, type CycleState } from '../framework/cycle-state';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, FilterPlugin, Handle, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../framework/interface';
import { Code, PluginError, SKIP, Status, errorStatus } from '../framework/status';
import { TopologyCounts } from './inter-pod-affinity/counts';
import { PreFilterState, filterNode } from './inter-pod-affinity/filtering';
import { PreScoreState, normalizeScores, processExistingPod, scoreNode, type ScoreMap } from './inter-pod-affinity/scoring';
import { Names } from './names';
import { own } from '../../api/own';

const preFilterKey = new StateKey<PreFilterState>('PreFilter' + Names.InterPodAffinity);
const preScoreKey = new StateKey<PreScoreState>('PreScore' + Names.InterPodAffinity);

export class InterPodAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = Names.InterPodAffinity;

  constructor(private readonly handle: Handle) {}

  preFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null {
    if (pod.parseError) return new Status(Code.UnschedulableAndUnresolvable, [`parsing pod: ${pod.parseError}`]);
    const required = pod.requiredAffinityTerms.map((t) => this.mergeNamespaces(t));
    const requiredAnti = pod.requiredAntiAffinityTerms.map((t) => this.mergeNamespaces(t));
    const nsLabels = this.namespaceLabels(pod.namespace);
    const existingAnti = new TopologyCounts();
    for (const node of this.handle.snapshot().havePodsWithRequiredAntiAffinityList) {
      for (const existing of node.podsWithRequiredAntiAffinity) {
        existingAnti.updateWithAntiAffinityTerms(existing.requiredAntiAffinityTerms, pod.pod, nsLabels, node.labels, 1);
      }
    }
    if (existingAnti.size === 0 && required.length === 0 && requiredAnti.length === 0) return SKIP;
    const affinity = new TopologyCounts();
    const anti = new TopologyCounts();
    if (required.length > 0 || requiredAnti.length > 0) {
      for (const node of nodes) {
        for (const existing of node.pods) {
          affinity.updateWithAffinityTerms(required, existing.pod, node.labels, 1);
          anti.updateWithAntiAffinityTerms(requiredAnti, existing.pod, EMPTY_LABELS, node.labels, 1);
        }
      }
    }
    state.write(preFilterKey, new PreFilterState(pod, required, requiredAnti, nsLabels, existingAnti, affinity, anti));
    return null;
  }

  addPod(state: CycleState, _podToSchedule: PodInfo, podToAdd: PodInfo, node: NodeInfo): Status | null {
    state.read(preFilterKey)?.updateWithPod(podToAdd, node, 1);
    return null;
  }

  removePod(state: CycleState, _podToSchedule: PodInfo, podToRemove: PodInfo, node: NodeInfo): Status | null {
    state.read(preFilterKey)?.updateWithPod(podToRemove, node, -1);
    return null;
  }

  filter(state: CycleState, _pod: PodInfo, node: NodeInfo): Status | null {
    const s = state.read(preFilterKey);
    if (!s) return errorStatus(`reading "${preFilterKey.name}" from cycleState: not found`);
    return filterNode(s, node);
  }

  preScore(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null {
    if (nodes.length === 0) return SKIP;
    const hasConstraints = pod.preferredAffinityTerms.length > 0 || pod.preferredAntiAffinityTerms.length > 0;
    const snapshot = this.handle.snapshot();
    // Without preferred terms of its own, only nodes hosting pods with affinity can matter.
    const candidates = hasConstraints ? snapshot.list : snapshot.havePodsWithAffinityList;
    const incoming = {
      pod: pod.pod,
      preferredAffinityTerms: pod.preferredAffinityTerms.map((t) => this.mergeWeighted(t)),
      preferredAntiAffinityTerms: pod.preferredAntiAffinityTerms.map((t) => this.mergeWeighted(t)),
    };
    const nsLabels = this.namespaceLabels(pod.namespace);
    const topologyScore: ScoreMap = new Map();
    for (const node of candidates) {
      const existingPods = hasConstraints ? node.pods : node.podsWithAffinity;
      for (const existing of existingPods) processExistingPod(topologyScore, incoming, nsLabels, existing, node);
    }
    if (topologyScore.size === 0) return SKIP;
    state.write(preScoreKey, new PreScoreState(topologyScore));
    return null;
  }

  score(state: CycleState, _pod: PodInfo, node: NodeInfo): number {
    const s = state.read(preScoreKey);
    if (!s) throw new PluginError(`error reading "${preScoreKey.name}" from cycleState: not found`);
    return scoreNode(s, node);
  }

  normalizeScore(state: CycleState, _pod: PodInfo, scores: Float64Array): Status | null {
    const s = state.read(preScoreKey);
    if (s) normalizeScores(s, scores);
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'Pod', action: Action.Add | Action.UpdatePodLabel | Action.Delete }, hint: afterPodChange },
      { event: { resource: 'Node', action: Action.Add | Action.UpdateNodeLabel }, hint: afterNodeChange },
    ];
  }

  private namespaceLabels(ns: string): Labels {
    return this.handle.listers.namespace(ns)?.metadata.labels ?? EMPTY_LABELS;
  }

  /** A term's namespaceSelector (unless it selects all) becomes the names of the namespaces it selects. */
  private mergeNamespaces(t: AffinityTerm): AffinityTerm {
    if (t.namespaceSelector.empty()) return t;
    const merged = t.clone();
    for (const ns of this.handle.listers.namespaces()) {
      if (t.namespaceSelector.matches(ns.metadata.labels ?? EMPTY_LABELS)) merged.namespaces.add(ns.metadata.name);
    }
    merged.namespaceSelector = Selector.nothing();
    return merged;
  }

  private mergeWeighted(t: WeightedAffinityTerm): WeightedAffinityTerm {
    return { term: this.mergeNamespaces(t.term), weight: t.weight };
  }
}

function afterPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const original = oldObj as Pod | undefined;
  const modified = newObj as Pod | undefined;
  if ((modified && !modified.spec.nodeName) || (original && !original.spec.nodeName)) return QueueingHint.QueueSkip;
  const target = new PodInfo(pod);
  const terms = target.requiredAffinityTerms;
  const antiTerms = target.requiredAntiAffinityTerms;
  if (original && modified) {
    if (!podMatchesAllAffinityTerms(terms, original) && podMatchesAllAffinityTerms(terms, modified)) return QueueingHint.Queue;
    if (podMatchesAllAffinityTerms(antiTerms, original) && !podMatchesAllAffinityTerms(antiTerms, modified)) return QueueingHint.Queue;
    return QueueingHint.QueueSkip;
  }
  if (modified) return podMatchesAllAffinityTerms(terms, modified) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  const deleted = new PodInfo(original!);
  // Gone: a pod the target's anti-affinity avoided, or one whose anti-affinity kept the target out.
  if (podMatchesAllAffinityTerms(antiTerms, original!)) return QueueingHint.Queue;
  return deleted.requiredAntiAffinityTerms.some((t) => t.matches(pod, EMPTY_LABELS)) ? QueueingHint.Queue : QueueingHint.QueueSkip;
}

function afterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const original = oldObj as Node | undefined;
  const modified = newObj as Node;
  const target = new PodInfo(pod);
  for (const t of target.requiredAffinityTerms) {
    if (Object.hasOwn(modified.metadata.labels ?? {}, t.topologyKey)) return QueueingHint.Queue;
  }
  for (const t of target.requiredAntiAffinityTerms) {
    if ((own(original?.metadata.labels, t.topologyKey) ?? '') !== (own(modified.metadata.labels, t.topologyKey) ?? '')) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}
