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

  score(_state: CycleState, pod: PodInfo, node: NodeInfo): number {
    const a = node.allocatable;
    const used = node.requested;
    return balancedResourceScore(used.milliCPU + pod.requests.milliCPU, a.milliCPU, used.memory + pod.requests.memory, a.memory);
  }
}
