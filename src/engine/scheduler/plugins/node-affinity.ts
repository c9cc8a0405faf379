/**
 * NodeAffinity. Filter: nodeSelector and required node affinity. PreFilter narrows the search to
 * the nodes named by metadata.name field terms. Score: the summed weights of the preferred terms a
 * node matches, scaled so the best node gets 100.
 */
import type { Node, NodeSelectorRequirement, Pod } from '../api';
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import { StateKey, type CycleState, type StateData } from '../framework/cycle-state';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import {
  MAX_NODE_SCORE,
  NodeNames,
  type EnqueueExtensions,
  type FilterPlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
} from '../framework/interface';
import { Code, PluginError, SKIP, Status } from '../framework/status';
import { PreferredSchedulingTerms, RequiredNodeAffinity } from '../../component-helpers/scheduling/node-affinity';
import { defaultNormalizeScore } from './helpers/normalize';
import { Names } from './names';

export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

class PreFilterState implements StateData {
  constructor(readonly required: RequiredNodeAffinity) {}
  clone(): StateData {
    return this;
  }
}

class PreScoreState implements StateData {
  constructor(readonly preferred: PreferredSchedulingTerms) {}
  clone(): StateData {
    return this;
  }
}

const preFilterKey = new StateKey<PreFilterState>('PreFilter' + Names.NodeAffinity);
const preScoreKey = new StateKey<PreScoreState>('PreScore' + Names.NodeAffinity);

export class NodeAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = Names.NodeAffinity;

  preFilter(state: CycleState, pod: PodInfo): Status | NodeNames | null {
    const spec = pod.pod.spec;
    const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (!required && !spec.nodeSelector) return SKIP;
    state.write(preFilterKey, new PreFilterState(new RequiredNodeAffinity(pod.pod)));
    const terms = required?.nodeSelectorTerms ?? [];
    if (terms.length === 0) return null;
    // Terms are ORed: only when every term pins metadata.name can the search be narrowed.
    let names: Set<string> | null = null;
    for (const t of terms) {
      const termNames = nodeNamesOfTerm(t.matchFields ?? []);
      if (termNames === null) return null;
      names = new Set([...(names ?? []), ...termNames]);
    }
    if (names !== null && names.size === 0) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_CONFLICT]);
    return names !== null ? new NodeNames(names) : null;
  }

  filter(state: CycleState, pod: PodInfo, node: NodeInfo): Status | null {
    const required = state.read(preFilterKey)?.required ?? new RequiredNodeAffinity(pod.pod);
    if (required.matches(node.name, node.labels)) return null;
    return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_POD]);
  }

  preScore(state: CycleState, pod: PodInfo): Status | null {
    const preferred = new PreferredSchedulingTerms(pod.pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []);
    if (preferred.empty) return SKIP;
    state.write(preScoreKey, new PreScoreState(preferred));
    return null;
  }

  scoreNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array): void {
    for (let i = 0; i < nodes.length; i++) out[i] = this.score(state, pod, nodes[i]!);
  }

  score(state: CycleState, _pod: PodInfo, node: NodeInfo): number {
    const s = state.read(preScoreKey);
    if (!s) throw new PluginError(`error reading "${preScoreKey.name}" from cycleState: not found`);
    return s.preferred.score(node.name, node.labels);
  }

  normalizeScore(_state: CycleState, _pod: PodInfo, scores: Float64Array): Status | null {
    defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [{ event: { resource: 'Node', action: Action.Add | Action.UpdateNodeLabel }, hint: afterNodeChange }];
  }
}

/** The intersection of a term's metadata.name In requirements; null when it has none. */
function nodeNamesOfTerm(fields: readonly NodeSelectorRequirement[]): Set<string> | null {
  let out: string[] | null = null;
  for (const r of fields) {
    if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
    const values: string[] = r.values ?? [];
    out = out === null ? values : out.filter((n) => values.includes(n));
  }
  return out === null ? null : new Set(out);
}

/** Worth retrying when the node now matches the pod's required affinity and did not before. */
function afterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const required = new RequiredNodeAffinity(pod);
  const modified = newObj as Node;
  if (!required.matches(modified.metadata.name, modified.metadata.labels ?? {})) return QueueingHint.QueueSkip;
  const original = oldObj as Node | undefined;
  if (!original) return QueueingHint.Queue;
  return required.matches(original.metadata.name, original.metadata.labels ?? {}) ? QueueingHint.QueueSkip : QueueingHint.Queue;
}
