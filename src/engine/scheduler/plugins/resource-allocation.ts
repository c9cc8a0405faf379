/**
 * resourceAllocationScorer: the shared math of NodeResourcesFit's LeastAllocated score and
 * NodeResourcesBalancedAllocation, over the default resources cpu and memory (weight 1 each).
 */
import type { NodeInfo } from '../cache/node-info';
import { MAX_NODE_SCORE } from '../framework/interface';

export interface ResourceSpec {
  readonly name: 'cpu' | 'memory';
  readonly weight: number;
}

export const DEFAULT_RESOURCES: readonly ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

/** Fills `requested`/`allocatable` for one node; a resource the node has none of stays 0 (skipped). */
export function fillRequestedAllocatable(
  node: NodeInfo,
  useRequested: boolean,
  podRequests: readonly number[],
  resources: readonly ResourceSpec[],
  requested: number[],
  allocatable: number[],
): void {
  const used = useRequested ? node.requested : node.nonZeroRequested;
  for (let i = 0; i < resources.length; i++) {
    const cpu = resources[i]!.name === 'cpu';
    const alloc = cpu ? node.allocatable.milliCPU : node.allocatable.memory;
    if (alloc === 0) {
      allocatable[i] = 0;
      requested[i] = 0;
      continue;
    }
    allocatable[i] = alloc;
    requested[i] = (cpu ? used.milliCPU : used.memory) + podRequests[i]!;
  }
}

/** leastRequestedScore: the share of the resource left free, 0..100 (integer division). */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** The LeastAllocated strategy: the weighted mean of leastRequestedScore. */
export function leastAllocatedScore(requested: readonly number[], allocatable: readonly number[], resources: readonly ResourceSpec[]): number {
  let nodeScore = 0;
  let weightSum = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    const w = resources[i]!.weight;
    nodeScore += leastRequestedScore(requested[i]!, allocatable[i]!) * w;
    weightSum += w;
  }
  return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
}

/** balancedResourceScorer: 100 * (1 - std of the requested fractions), each fraction capped at 1. */
export function balancedResourceScore(requested: readonly number[], allocatable: readonly number[]): number {
  const fractions: number[] = [];
  let total = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    let f = requested[i]! / allocatable[i]!;
    if (f > 1) f = 1;
    total += f;
    fractions.push(f);
  }
  let std = 0;
  if (fractions.length === 2) {
    std = Math.abs((fractions[0]! - fractions[1]!) / 2);
  } else if (fractions.length > 2) {
    const mean = total / fractions.length;
    let sum = 0;
    for (const f of fractions) sum += (f - mean) * (f - mean);
    std = Math.sqrt(sum / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}
