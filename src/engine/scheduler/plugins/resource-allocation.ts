/**
 * resourceAllocationScorer: the shared math of NodeResourcesFit's LeastAllocated score and
 * NodeResourcesBalancedAllocation, over the default scoring resources: cpu and memory, weight 1
 * each. A resource the node has none of is left out, as upstream skips zero allocatable.
 */
import { MAX_NODE_SCORE } from '../framework/interface';

/** leastRequestedScore: the share of the resource left free, 0..100 (integer division). */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** LeastAllocated: the mean of the cpu and memory leastRequestedScores. */
export function leastAllocatedScore(cpuRequested: number, cpuAllocatable: number, memRequested: number, memAllocatable: number): number {
  let sum = 0;
  let weights = 0;
  if (cpuAllocatable !== 0) {
    sum += leastRequestedScore(cpuRequested, cpuAllocatable);
    weights++;
  }
  if (memAllocatable !== 0) {
    sum += leastRequestedScore(memRequested, memAllocatable);
    weights++;
  }
  return weights === 0 ? 0 : Math.trunc(sum / weights);
}

/**
 * balancedResourceScorer: 100 * (1 - std of the requested fractions), each capped at 1; with two
 * resources the std is half their difference, with one (or none) it is 0.
 */
export function balancedResourceScore(cpuRequested: number, cpuAllocatable: number, memRequested: number, memAllocatable: number): number {
  if (cpuAllocatable === 0 || memAllocatable === 0) return MAX_NODE_SCORE;
  const cpu = Math.min(1, cpuRequested / cpuAllocatable);
  const mem = Math.min(1, memRequested / memAllocatable);
  const std = Math.abs((cpu - mem) / 2);
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}
