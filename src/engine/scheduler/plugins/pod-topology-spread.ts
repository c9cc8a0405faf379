/**
 * PodTopologySpread: Filter for the pod's DoNotSchedule constraints, Score for its ScheduleAnyway
 * ones; a pod without constraints gets the system defaults (ScheduleAnyway over hostname and
 * zone) when a Service or controller selects it. See pod-topology-spread/ for the math.
 */
import { ok, type Result } from '../../api/result';
import type { Node, Pod } from '../api';
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import { StateKey, type CycleState } from '../framework/cycle-state';
import { deepEqual } from '../../api/deep-equal';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, FilterPlugin, Handle, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../framework/interface';
import { PluginError, SKIP, errorStatus, type Status } from '../framework/status';
import { buildDefaultConstraints, filterConstraints, nodeLabelsMatchSpreadConstraints, type SpreadConstraint } from './pod-topology-spread/common';
import { PreFilterState, calPreFilterState, filterNode } from './pod-topology-spread/filtering';
import { DomainCounts } from './pod-topology-spread/domain-counts';
import { PreScoreState, initPreScoreState, normalizeScores, scoreNode } from './pod-topology-spread/scoring';
import { Names } from './names';
import { own } from '../../api/own';

const preFilterKey = new StateKey<PreFilterState>('PreFilter' + Names.PodTopologySpread);
const preScoreKey = new StateKey<PreScoreState>('PreScore' + Names.PodTopologySpread);

export class PodTopologySpread implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = Names.PodTopologySpread;

  private readonly domains = new DomainCounts();

  constructor(private readonly handle: Handle) {}

  /** The pod's constraints for one action, or the defaults when it states none. */
  constraintsFor(pod: Pod, action: 'DoNotSchedule' | 'ScheduleAnyway'): Result<SpreadConstraint[]> {
    const own = pod.spec.topologySpreadConstraints ?? [];
    if (own.length > 0) return filterConstraints(own, pod.metadata.labels ?? {}, pod.metadata.namespace, action);
    return ok(buildDefaultConstraints(pod, this.handle.listers, action));
  }

  preFilter(state: CycleState, pod: PodInfo): Status | null {
    const parsed = this.constraintsFor(pod.pod, 'DoNotSchedule');
    if (!parsed.ok) return errorStatus(`obtaining pod's hard topology spread constraints: ${parsed.error}`);
    const constraints = parsed.value;
    if (constraints.length === 0) return SKIP;
    state.write(preFilterKey, calPreFilterState(pod.pod, constraints, this.handle.snapshot(), this.domains));
    return null;
  }

  addPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, node: NodeInfo): Status | null {
    state.read(preFilterKey)?.updateWithPod(podToAdd, podToSchedule.pod, node, 1);
    return null;
  }

  removePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, node: NodeInfo): Status | null {
    state.read(preFilterKey)?.updateWithPod(podToRemove, podToSchedule.pod, node, -1);
    return null;
  }

  filter(state: CycleState, pod: PodInfo, node: NodeInfo): Status | null {
    const s = state.read(preFilterKey);
    if (!s) return errorStatus(`reading "${preFilterKey.name}" from cycleState: not found`);
    return filterNode(s, pod, node);
  }

  preScore(state: CycleState, pod: PodInfo, filteredNodes: readonly NodeInfo[]): Status | null {
    const snapshot = this.handle.snapshot();
    if (snapshot.list.length === 0) return SKIP;
    const parsed = this.constraintsFor(pod.pod, 'ScheduleAnyway');
    if (!parsed.ok) return errorStatus(`calculating preScoreState: obtaining pod's soft topology spread constraints: ${parsed.error}`);
    const constraints = parsed.value;
    if (constraints.length === 0) return SKIP;
    // System defaults do not require every topology label, so zone-less nodes still spread by hostname.
    const requireAllTopologies = (pod.pod.spec.topologySpreadConstraints?.length ?? 0) > 0;
    state.write(preScoreKey, initPreScoreState(pod.pod, constraints, filteredNodes, snapshot, this.domains, requireAllTopologies));
    return null;
  }

  score(state: CycleState, pod: PodInfo, node: NodeInfo): number {
    const s = state.read(preScoreKey);
    if (!s) throw new PluginError(`error reading "${preScoreKey.name}" from cycleState: not found`);
    return scoreNode(s, pod.pod, node);
  }

  normalizeScore(state: CycleState, _pod: PodInfo, scores: Float64Array, nodes: readonly NodeInfo[]): Status | null {
    const s = state.read(preScoreKey);
    if (s) normalizeScores(s, scores, nodes);
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'Pod', action: Action.Add | Action.UpdatePodLabel | Action.Delete }, hint: (pod, o, n) => this.afterPodChange(pod, o, n) },
      {
        event: { resource: 'Node', action: Action.Add | Action.Delete | Action.UpdateNodeLabel | Action.UpdateNodeTaint },
        hint: (pod, o, n) => this.afterNodeChange(pod, o, n),
      },
    ];
  }

  private hardConstraints(pod: Pod): SpreadConstraint[] {
    const c = this.constraintsFor(pod, 'DoNotSchedule');
    return c.ok ? c.value : [];
  }

  private afterPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const original = oldObj as Pod | undefined;
    const modified = newObj as Pod | undefined;
    const involved = (p: Pod): boolean => p.metadata.uid === pod.metadata.uid || (!!p.spec.nodeName && p.metadata.namespace === pod.metadata.namespace);
    if ((modified && !involved(modified)) || (original && !involved(original))) return QueueingHint.QueueSkip;
    const constraints = this.hardConstraints(pod);
    if (original && modified) {
      if (deepEqual(original.metadata.labels ?? {}, modified.metadata.labels ?? {})) return QueueingHint.QueueSkip;
      for (const c of constraints) {
        if (c.selector.matches(original.metadata.labels ?? {}) !== c.selector.matches(modified.metadata.labels ?? {})) return QueueingHint.Queue;
      }
      return QueueingHint.QueueSkip;
    }
    const changed = (modified ?? original)!;
    return constraints.some((c) => c.selector.matches(changed.metadata.labels ?? {})) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  private afterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const original = oldObj as Node | undefined;
    const modified = newObj as Node | undefined;
    const constraints = this.hardConstraints(pod);
    const matching = (n: Node | undefined): boolean => !!n && nodeLabelsMatchSpreadConstraints(n.metadata.labels ?? {}, constraints);
    if (original && modified) {
      if (matching(original) !== matching(modified)) return QueueingHint.Queue;
      const labelsChanged = constraints.some((c) => own(original.metadata.labels, c.topologyKey) !== own(modified.metadata.labels, c.topologyKey));
      if (matching(modified) && (labelsChanged || !deepEqual(original.spec?.taints ?? [], modified.spec?.taints ?? []))) return QueueingHint.Queue;
      return QueueingHint.QueueSkip;
    }
    return matching(modified ?? original) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }
}
