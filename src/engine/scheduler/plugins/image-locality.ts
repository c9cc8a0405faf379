/**
 * ImageLocality (Score): favours nodes that already have the pod's images, by image size scaled
 * by how widely the image is spread (so one node holding a popular image does not attract
 * everything), clamped between 23 MB and 1000 MB per container.
 */
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import type { CycleState } from '../framework/cycle-state';
import { MAX_NODE_SCORE, type Handle, type ScorePlugin } from '../framework/interface';
import { Names } from './names';

const MB = 1024 * 1024;
export const MIN_THRESHOLD = 23 * MB;
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  let s = sumScores;
  if (s < MIN_THRESHOLD) s = MIN_THRESHOLD;
  else if (s > maxThreshold) s = maxThreshold;
  return Math.trunc((MAX_NODE_SCORE * (s - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

export class ImageLocality implements ScorePlugin {
  readonly name = Names.ImageLocality;

  constructor(private readonly handle: Handle) {}

  scoreNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array): void {
    for (let i = 0; i < nodes.length; i++) out[i] = this.score(state, pod, nodes[i]!);
  }

  score(_state: CycleState, pod: PodInfo, node: NodeInfo): number {
    const numContainers = pod.images.length;
    if (node.imageCount === 0) return calculatePriority(0, numContainers);
    const totalNumNodes = this.handle.snapshot().numNodes();
    let sum = 0;
    for (const image of pod.images) {
      const state = node.imageStates.get(image);
      if (state) sum += Math.trunc(state.size * (state.nodes.size / totalNumNodes));
    }
    return calculatePriority(sum, numContainers);
  }
}
