/**
 * TaintToleration. Filter: a NoSchedule/NoExecute taint the pod does not tolerate rules the node
 * out. Score: the number of PreferNoSchedule taints the pod does not tolerate, normalized in
 * reverse (fewer is better).
 */
import type { Node, Pod, Toleration } from '../api';
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import { StateKey, type CycleState, type StateData } from '../framework/cycle-state';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import { MAX_NODE_SCORE, type EnqueueExtensions, type FilterPlugin, type PreScorePlugin, type ScorePlugin } from '../framework/interface';
import { Code, PluginError, Status } from '../framework/status';
import { defaultNormalizeScore } from './helpers/normalize';
import { findUntoleratedTaint, isScheduleBlocking, tolerationsTolerateTaint } from '../../component-helpers/scheduling/taints';
import { Names } from './names';

export const ERR_REASON_UNTOLERATED = 'node(s) had untolerated taint(s)';

class PreScoreState implements StateData {
  constructor(readonly tolerationsPreferNoSchedule: readonly Toleration[]) {}
  clone(): StateData {
    return this;
  }
}

const preScoreKey = new StateKey<PreScoreState>('PreScore' + Names.TaintToleration);

function preScoreState(state: CycleState): PreScoreState {
  const s = state.read(preScoreKey);
  if (!s) throw new PluginError(`error reading "${preScoreKey.name}" from cycleState: not found`);
  return s;
}

/** The PreferNoSchedule taints of the node that the pod does not tolerate. */
function intolerablePreferNoSchedule(s: PreScoreState, node: NodeInfo): number {
  let intolerable = 0;
  for (const taint of node.taints) {
    if (taint.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(s.tolerationsPreferNoSchedule, taint)) intolerable++;
  }
  return intolerable;
}

export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = Names.TaintToleration;

  filter(_state: CycleState, pod: PodInfo, node: NodeInfo): Status | null {
    if (node.blockingTaintCount === 0) return null;
    if (findUntoleratedTaint(node.blockingTaints, pod.pod.spec.tolerations) === undefined) return null;
    return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_UNTOLERATED]);
  }

  preScore(state: CycleState, pod: PodInfo): Status | null {
    // An empty effect tolerates every effect, PreferNoSchedule included.
    const tolerations = (pod.pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    state.write(preScoreKey, new PreScoreState(tolerations));
    return null;
  }

  /** The cycle's state is read once for all nodes (score reads it per node; the same error for the first). */
  scoreNodes(state: CycleState, _pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array): void {
    if (nodes.length === 0) return;
    const s = preScoreState(state);
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      out[i] = node.taintCount === 0 ? 0 : intolerablePreferNoSchedule(s, node);
    }
  }

  score(state: CycleState, _pod: PodInfo, node: NodeInfo): number {
    return intolerablePreferNoSchedule(preScoreState(state), node);
  }

  normalizeScore(_state: CycleState, _pod: PodInfo, scores: Float64Array): Status | null {
    defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'Node', action: Action.Add | Action.UpdateNodeTaint }, hint: afterNodeChange },
      {
        event: { resource: 'Pod', action: Action.UpdatePodToleration },
        hint: (pod, _old, newObj) => ((newObj as Pod).metadata.uid === pod.metadata.uid ? QueueingHint.Queue : QueueingHint.QueueSkip),
      },
    ];
  }
}

const untolerated = (pod: Pod, node: Node): boolean =>
  findUntoleratedTaint((node.spec?.taints ?? []).filter(isScheduleBlocking), pod.spec.tolerations) !== undefined;

/** Worth retrying when the node's taints went from not tolerated (or absent) to tolerated. */
function afterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const original = oldObj as Node | undefined;
  const wasUntolerated = !original || untolerated(pod, original);
  return wasUntolerated && !untolerated(pod, newObj as Node) ? QueueingHint.Queue : QueueingHint.QueueSkip;
}
