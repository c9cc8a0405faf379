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
import { DEFAULT_RESOURCES, balancedResourceScore, fillRequestedAllocatable } from './resource-allocation';
import { Names } from './names';

export class BalancedAllocation implements PreScorePlugin, ScorePlugin {
  readonly name = Names.NodeResourcesBalancedAllocation;
  private readonly requested = [0, 0];
  private readonly allocatable = [0, 0];
  private readonly podRequests = [0, 0];

  preScore(_state: CycleState, pod: PodInfo): Status | null {
    return pod.requests.milliCPU === 0 && pod.requests.memory === 0 ? SKIP : null;
  }

  score(_state: CycleState, pod: PodInfo, node: NodeInfo): number {
    this.podRequests[0] = pod.requests.milliCPU;
    this.podRequests[1] = pod.requests.memory;
    fillRequestedAllocatable(node, true, this.podRequests, DEFAULT_RESOURCES, this.requested, this.allocatable);
    return balancedResourceScore(this.requested, this.allocatable);
  }
}
