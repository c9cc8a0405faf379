/**
 * SelectVictimsOnNode: remove every lower-priority pod from a copy of the node; if the pod then
 * fits, put them back one by one, most important first (PDB-protected ones before the others),
 * keeping back only those without which the pod does not fit. What stays out are the victims.
 */
import { labelSelectorAsSelector } from '../../../api/labels';
import type { Pod, PodDisruptionBudget } from '../../api';
import type { NodeInfo } from '../../cache/node-info';
import type { PodInfo } from '../../cache/pod-info';
import type { CycleState } from '../../framework/cycle-state';
import type { FrameworkRunner } from '../../framework/interface';
import { Code, Status } from '../../framework/status';

export const NO_VICTIMS = 'No preemption victims found for incoming pod';

export interface Victims {
  readonly pods: PodInfo[];
  readonly numPDBViolations: number;
}

/** GetPodStartTime: status.startTime, or now for a pod that has not started. */
export function podStartTime(pod: Pod, now: number): number {
  const t = pod.status?.startTime;
  return t ? Date.parse(t) : now;
}

/** MoreImportantPod: higher priority, then the one that started earlier. */
export function moreImportantPod(a: PodInfo, b: PodInfo, now: number): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  return podStartTime(a.pod, now) < podStartTime(b.pod, now);
}

/** filterPodsWithPDBViolation: which victims would push a matching PDB below its allowed disruptions. */
export function filterPodsWithPDBViolation(pods: readonly PodInfo[], pdbs: readonly PodDisruptionBudget[]): { violating: PodInfo[]; nonViolating: PodInfo[] } {
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  for (const pi of pods) {
    let violated = false;
    if (Object.keys(pi.labels).length > 0) {
      pdbs.forEach((pdb, i) => {
        if (pdb.metadata.namespace !== pi.namespace) return;
        const selector = labelSelectorAsSelector(pdb.spec?.selector);
        // An invalid, nil or empty selector matches nothing here.
        if (!selector.ok || selector.value.empty() || !selector.value.matches(pi.labels)) return;
        // Already processed by the API server (an eviction in flight): not a new violation.
        if (pdb.status?.disruptedPods && Object.hasOwn(pdb.status.disruptedPods, pi.name)) return;
        allowed[i]!--;
        if (allowed[i]! < 0) violated = true;
      });
    }
    (violated ? violating : nonViolating).push(pi);
  }
  return { violating, nonViolating };
}

export function selectVictimsOnNode(
  fw: FrameworkRunner,
  state: CycleState,
  pod: PodInfo,
  node: NodeInfo,
  pdbs: readonly PodDisruptionBudget[],
  now: number,
): { victims: Victims | null; status: Status | null } {
  const removePod = (pi: PodInfo): Status | null => {
    node.removePod(pi.uid);
    return fw.runPreFilterExtensionRemovePod(state, pod, pi, node);
  };
  const addPod = (pi: PodInfo): Status | null => {
    node.addPod(pi);
    return fw.runPreFilterExtensionAddPod(state, pod, pi, node);
  };
  const potential = node.pods.filter((p) => p.priority < pod.priority);
  for (const pi of potential) {
    const s = removePod(pi);
    if (s) return { victims: null, status: s };
  }
  if (potential.length === 0) return { victims: null, status: new Status(Code.UnschedulableAndUnresolvable, [NO_VICTIMS]) };
  const fits = fw.runFilterPluginsWithNominatedPods(state, pod, node);
  if (fits !== null) return { victims: null, status: fits };
  potential.sort((a, b) => (moreImportantPod(a, b, now) ? -1 : moreImportantPod(b, a, now) ? 1 : 0));
  const { violating, nonViolating } = filterPodsWithPDBViolation(potential, pdbs);
  const victims: PodInfo[] = [];
  let numViolating = 0;
  const reprieve = (pi: PodInfo): boolean | Status => {
    const s = addPod(pi);
    if (s) return s;
    const ok = fw.runFilterPluginsWithNominatedPods(state, pod, node) === null;
    if (!ok) {
      const r = removePod(pi);
      if (r) return r;
      victims.push(pi);
    }
    return ok;
  };
  for (const pi of violating) {
    const r = reprieve(pi);
    if (r instanceof Status) return { victims: null, status: r };
    if (!r) numViolating++;
  }
  for (const pi of nonViolating) {
    const r = reprieve(pi);
    if (r instanceof Status) return { victims: null, status: r };
  }
  if (violating.length > 0 && nonViolating.length > 0) {
    victims.sort((a, b) => (moreImportantPod(a, b, now) ? -1 : moreImportantPod(b, a, now) ? 1 : 0));
  }
  return { victims: { pods: victims, numPDBViolations: numViolating }, status: null };
}
