/**
 * The RollingUpdate of a DaemonSet without surge (rolling_update.go): old pods are replaced node
 * by node, at most maxUnavailable (default 1) nodes without an available pod at a time; old pods
 * that are not available anyway are replaced at once.
 */
import { getScaledValueFromIntOrPercent } from '../../api/intstr';
import { isPodAvailable } from '../util/pod-status';
import type { Pod } from '../util/types/workload';
import { CONTROLLER_REVISION_HASH_LABEL, type DaemonSet } from './types';

export function maxUnavailable(ds: DaemonSet, desired: number): number {
  const v = ds.spec.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1;
  const n = getScaledValueFromIntOrPercent(v, desired, true);
  const value = n.ok ? n.value : 1;
  return value === 0 && (ds.spec.updateStrategy?.rollingUpdate?.maxSurge ?? 0) === 0 ? 1 : value;
}

/** The old pods to delete now, given each node's daemon pods (nodes that should run one). */
export function oldPodsToDelete(ds: DaemonSet, nodeToPods: ReadonlyMap<string, readonly Pod[]>, hash: string, maxUnavail: number, nowMs: number): Pod[] {
  const minReady = ds.spec.minReadySeconds ?? 0;
  let unavailable = 0;
  const replacements: Pod[] = [];
  const candidates: Pod[] = [];
  for (const pods of nodeToPods.values()) {
    const live = pods.filter((p) => !p.metadata.deletionTimestamp);
    const fresh = live.filter((p) => p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash);
    const old = live.filter((p) => p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] !== hash);
    if (fresh.length > 1 || old.length > 1) {
      unavailable++;
      continue;
    }
    const [newPod] = fresh;
    const [oldPod] = old;
    if ((!newPod && !oldPod) || (newPod && oldPod)) unavailable++;
    else if (newPod) {
      if (!isPodAvailable(newPod, minReady, nowMs)) unavailable++;
    } else if (oldPod) {
      if (!isPodAvailable(oldPod, minReady, nowMs)) replacements.push(oldPod);
      else if (unavailable < maxUnavail) candidates.push(oldPod);
    }
  }
  const room = Math.min(Math.max(0, maxUnavail - unavailable), candidates.length);
  return [...replacements, ...candidates.slice(0, room)];
}
