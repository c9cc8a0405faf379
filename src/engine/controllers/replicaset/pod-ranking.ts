/**
 * Which pods a ReplicaSet deletes first when it scales down (ActivePodsWithRanks in
 * controller_utils.go, with PodDeletionCost and LogarithmicScaleDown on as in 1.35): the pods
 * that are least far along and least valuable go first.
 */
import { isPodActive, isPodReady, podReadyCondition } from '../util/pod-status';
import { timeMs, ZERO_TIME_MS } from '../../api/time';
import type { Pod } from '../util/types/workload';
import { table } from '../../api/own';

export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDINAL = table<number>({ Pending: 0, Unknown: 1, Running: 2 });
const phaseOrdinal = (pod: Pod): number => PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0;

export interface RankedPod {
  pod: Pod;
  /** How many active pods of the same owner's ReplicaSets share this pod's node. */
  rank: number;
}

/**
 * Negative when a comes before b in deletion order:
 * 1. unassigned before assigned; 2. Pending before Unknown before Running; 3. not ready before
 * ready; 4. lower pod-deletion-cost first; 5. more co-located pods first; 6. ready more recently
 * first (in log2 buckets of the time since); 7. more restarts first; 8. created more recently
 * first (in log2 buckets).
 */
export function compareForDeletion(a: RankedPod, b: RankedPod, nowMs: number): number {
  const na = a.pod.spec?.nodeName ?? '';
  const nb = b.pod.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  if (phaseOrdinal(a.pod) !== phaseOrdinal(b.pod)) return phaseOrdinal(a.pod) - phaseOrdinal(b.pod);
  const ra = isPodReady(a.pod);
  const rb = isPodReady(b.pod);
  if (ra !== rb) return ra ? 1 : -1;
  const ca = deletionCost(a.pod);
  const cb = deletionCost(b.pod);
  if (ca !== cb) return ca - cb;
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (ra && rb) {
    const ta = readyTime(a.pod);
    const tb = readyTime(b.pod);
    if (ta !== tb) return compareTimes(a.pod, ta, b.pod, tb, nowMs);
  }
  const restarts = compareRestarts(a.pod, b.pod);
  if (restarts !== 0) return restarts;
  const ta = timeMs(a.pod.metadata.creationTimestamp);
  const tb = timeMs(b.pod.metadata.creationTimestamp);
  if (ta !== tb) return compareTimes(a.pod, ta, b.pod, tb, nowMs);
  return 0;
}

/** Later (or zero) times first, compared by log2 of the time elapsed, ties broken by uid. */
function compareTimes(a: Pod, ta: number, b: Pod, tb: number, nowMs: number): number {
  if (ta === ZERO_TIME_MS || tb === ZERO_TIME_MS) return afterOrZero(ta, tb) ? -1 : 1;
  const diff = logRank(ta, nowMs) - logRank(tb, nowMs);
  if (diff !== 0) return diff;
  const ua = a.metadata.uid ?? '';
  const ub = b.metadata.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

function afterOrZero(ta: number, tb: number): boolean {
  if (ta === ZERO_TIME_MS || tb === ZERO_TIME_MS) return ta === ZERO_TIME_MS;
  return ta > tb;
}

/** int64(log2(nanoseconds since)), -1 for no time elapsed. */
function logRank(t: number, nowMs: number): number {
  const ns = (nowMs - t) * 1e6;
  return ns > 0 ? Math.floor(Math.log2(ns)) : -1;
}

function readyTime(pod: Pod): number {
  const c = podReadyCondition(pod);
  return c?.status === 'True' ? timeMs(c.lastTransitionTime) : ZERO_TIME_MS;
}

/** The controller.kubernetes.io/pod-deletion-cost annotation as an int32; 0 when absent or invalid. */
function deletionCost(pod: Pod): number {
  const v = pod.metadata.annotations?.[POD_DELETION_COST_ANNOTATION];
  if (v === undefined || !/^[+-]?[0-9]+$/.test(v)) return 0;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

/** More restarts of regular containers first, then of restartable init (sidecar) containers. */
function compareRestarts(a: Pod, b: Pod): number {
  const [ra, sa] = maxRestarts(a);
  const [rb, sb] = maxRestarts(b);
  if (ra !== rb) return rb - ra;
  return sb - sa;
}

function maxRestarts(pod: Pod): [number, number] {
  const regular = Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const sidecar = Math.max(0, ...(pod.status?.initContainerStatuses ?? []).filter((c) => sidecars.has(c.name ?? '')).map((c) => c.restartCount ?? 0));
  return [regular, sidecar];
}

/**
 * getPodsToDelete: the first diff pods in deletion order, ranked by how many active pods related
 * to this ReplicaSet (those of ReplicaSets with the same owner) run on the same node.
 */
export function getPodsToDelete(pods: readonly Pod[], relatedPods: readonly Pod[], diff: number, nowMs: number): Pod[] {
  if (diff >= pods.length) return pods.slice(0, diff);
  const onNode = new Map<string, number>();
  for (const p of relatedPods) {
    if (!isPodActive(p)) continue;
    const node = p.spec?.nodeName ?? '';
    onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const ranked = pods.map((pod) => ({ pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
  ranked.sort((a, b) => compareForDeletion(a, b, nowMs));
  return ranked.slice(0, diff).map((r) => r.pod);
}
