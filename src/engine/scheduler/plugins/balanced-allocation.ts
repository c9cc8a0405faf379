/**
 * NodeResourcesBalancedAllocation (Score): favours nodes whose cpu and memory would be used in
 * equal shares after placing the pod. Counts actual requests (no 100m/200Mi stand-ins) and skips
 * pods that request neither, so best-effort pods do not all pile onto one node.
 */
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import type { CycleState } from '../framework/cycle-state';
import type { PreScorePlugin, ScorePlugin } from '../framework/interface';
import { SKIP, type Status } from '../framework/status';
import { balancedResourceScore } from './resource-allocation';
import { Names } from './names';

export class BalancedAllocation implements PreScorePlugin, ScorePlugin {
  readonly name = Names.NodeResourcesBalancedAllocation;

  preScore(_state: CycleState, pod: PodInfo): Status | null {
    return pod.requests.milliCPU === 0 && pod.requests.memory === 0 ? SKIP : null;
  }

  scoreNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array): void {
    for (let i = 0; i < nodes.length; i++) out[i] = this.score(state, pod, nodes[i]!);
  }

  score(_state: CycleState, pod: PodInfo, node: NodeInfo): number {
    return balancedResourceScore(node.requestedMilliCPU + pod.requests.milliCPU, node.allocatableMilliCPU, node.requestedMemory + pod.requests.memory, node.allocatableMemory);
  }
}
