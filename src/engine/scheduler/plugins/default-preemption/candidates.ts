/**
 * Choosing where to preempt (pkg/scheduler/framework/preemption): dry-run victim selection on the
 * nodes where preemption might help, starting at a random offset and stopping once enough
 * candidates are found, then pick the node whose victims hurt least.
 */
import type { PodDisruptionBudget } from '../../api';
import type { NodeInfo } from '../../cache/node-info';
import type { PodInfo } from '../../cache/pod-info';
import type { CycleState } from '../../framework/cycle-state';
import type { FrameworkRunner } from '../../framework/interface';
import { NodeToStatus } from '../../framework/node-to-status';
import { errorStatus } from '../../framework/status';
import { podStartTime, selectVictimsOnNode, type Victims } from './victims';

/** DefaultPreemptionArgs defaults. */
export const MIN_CANDIDATE_NODES_PERCENTAGE = 10;
export const MIN_CANDIDATE_NODES_ABSOLUTE = 100;

export interface Candidate {
  readonly name: string;
  readonly victims: Victims;
}

export function calculateNumCandidates(numNodes: number): number {
  let n = Math.trunc((numNodes * MIN_CANDIDATE_NODES_PERCENTAGE) / 100);
  if (n < MIN_CANDIDATE_NODES_ABSOLUTE) n = MIN_CANDIDATE_NODES_ABSOLUTE;
  if (n > numNodes) n = numNodes;
  return n;
}

export function dryRunPreemption(
  fw: FrameworkRunner,
  state: CycleState,
  pod: PodInfo,
  potentialNodes: readonly NodeInfo[],
  pdbs: readonly PodDisruptionBudget[],
  offset: number,
  numCandidates: number,
  now: number,
): { candidates: Candidate[]; statuses: NodeToStatus } {
  const nonViolating: Candidate[] = [];
  const violating: Candidate[] = [];
  const statuses = new NodeToStatus();
  for (let i = 0; i < potentialNodes.length; i++) {
    const node = potentialNodes[(offset + i) % potentialNodes.length]!.clone();
    const { victims, status } = selectVictimsOnNode(fw, state.clone(), pod, node, pdbs, now);
    if (status === null && victims && victims.pods.length > 0) {
      (victims.numPDBViolations === 0 ? nonViolating : violating).push({ name: node.name, victims });
      if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
      continue;
    }
    statuses.set(node.name, status ?? errorStatus(`expected at least one victim pod on node "${node.name}"`));
  }
  return { candidates: [...nonViolating, ...violating], statuses };
}

/**
 * pickOneNodeForPreemption: fewest PDB violations, then the lowest highest-priority victim, the
 * smallest sum of priorities, the fewest victims, the latest start of the highest-priority
 * victims; then the first candidate.
 */
export function pickOneNodeForPreemption(candidates: readonly Candidate[], now: number): Candidate | undefined {
  if (candidates.length <= 1) return candidates[0];
  const scoreFuncs: ((c: Candidate) => number)[] = [
    (c) => -c.victims.numPDBViolations,
    (c) => -c.victims.pods[0]!.priority,
    (c) => -c.victims.pods.reduce((sum, p) => sum + p.priority + 2147483648, 0),
    (c) => -c.victims.pods.length,
    (c) => earliestStartTime(c.victims, now),
  ];
  let remaining = candidates.slice();
  for (const f of scoreFuncs) {
    let max = -Infinity;
    let selected: Candidate[] = [];
    for (const c of remaining) {
      const s = f(c);
      if (s > max) {
        max = s;
        selected = [];
      }
      if (s === max) selected.push(c);
    }
    if (selected.length === 1) return selected[0];
    remaining = selected;
  }
  return remaining[0];
}

/** GetEarliestPodStartTime: the earliest start among the highest-priority victims. */
function earliestStartTime(v: Victims, now: number): number {
  let earliest = podStartTime(v.pods[0]!.pod, now);
  let maxPriority = v.pods[0]!.priority;
  for (const p of v.pods) {
    if (p.priority === maxPriority) {
      earliest = Math.min(earliest, podStartTime(p.pod, now));
    } else if (p.priority > maxPriority) {
      maxPriority = p.priority;
      earliest = podStartTime(p.pod, now);
    }
  }
  return earliest;
}
