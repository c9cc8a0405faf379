/**
 * A Deployment's ReplicaSets: which one runs the current template, the old ones, their orderings
 * (controller_utils.go) and the replica counts summed over them (deployment_util.go).
 */
import { specReplicas, type ReplicaSet } from '../util/types/workload';
import { getDesiredReplicasAnnotation, revision } from './annotations';
import { timeMs } from '../../api/time';
import { equalIgnoreHash } from '../util/template-hash';
import { deploymentReplicas, type Deployment } from './types';

/** ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreationTimestamp(a: ReplicaSet, b: ReplicaSet): number {
  const ta = timeMs(a.metadata.creationTimestamp);
  const tb = timeMs(b.metadata.creationTimestamp);
  if (ta !== tb) return ta - tb;
  return compareStrings(a.metadata.name ?? '', b.metadata.name ?? '');
}

/** ReplicaSetsBySizeOlder: largest first; equal sizes oldest first (scale down the old ones first). */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  return specReplicas(b) - specReplicas(a) || byCreationTimestamp(a, b);
}

/** ReplicaSetsBySizeNewer: largest first; equal sizes newest first (scale up the new ones first). */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  return specReplicas(b) - specReplicas(a) || byCreationTimestamp(b, a);
}

/** ReplicaSetsByRevision: lowest revision first; unparsable or equal revisions by creation time. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const ra = revision(a);
  const rb = revision(b);
  if (ra instanceof Error || rb instanceof Error || ra === rb) return byCreationTimestamp(a, b);
  return ra < rb ? -1 : 1;
}

export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function filterActive(rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return rss.filter((rs): rs is ReplicaSet => rs !== undefined && specReplicas(rs) > 0);
}

/** The oldest ReplicaSet whose template equals the Deployment's (ignoring the hash label). */
export function findNewReplicaSet(d: Deployment, rsList: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...rsList].sort(byCreationTimestamp).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

/** FindOldReplicaSets: [the old ones with replicas, all the old ones]. */
export function findOldReplicaSets(d: Deployment, rsList: readonly ReplicaSet[]): [ReplicaSet[], ReplicaSet[]] {
  const newRS = findNewReplicaSet(d, rsList);
  const all = rsList.filter((rs) => !(newRS && rs.metadata.uid === newRS.metadata.uid));
  return [all.filter((rs) => specReplicas(rs) !== 0), all];
}

/** The one active ReplicaSet, or the newest when none is active; undefined when several are. */
export function findActiveOrLatest(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
  const active = filterActive([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}

export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = getDesiredReplicasAnnotation(rs);
  const replicas = deploymentReplicas(d);
  return desired !== undefined && specReplicas(rs) === replicas && desired === replicas && (rs.status?.availableReplicas ?? 0) === replicas;
}

const sum = (rss: readonly (ReplicaSet | undefined)[], f: (rs: ReplicaSet) => number): number =>
  rss.reduce((n, rs) => (rs ? n + f(rs) : n), 0);

/** Desired pods (spec.replicas) over the ReplicaSets. */
export const replicaCount = (rss: readonly (ReplicaSet | undefined)[]): number => sum(rss, specReplicas);
/** Pods that exist (status.replicas). */
export const actualReplicaCount = (rss: readonly (ReplicaSet | undefined)[]): number => sum(rss, (rs) => rs.status?.replicas ?? 0);
export const readyReplicaCount = (rss: readonly (ReplicaSet | undefined)[]): number => sum(rss, (rs) => rs.status?.readyReplicas ?? 0);
export const availableReplicaCount = (rss: readonly (ReplicaSet | undefined)[]): number => sum(rss, (rs) => rs.status?.availableReplicas ?? 0);

/**
 * Terminating pods over the ReplicaSets; unknown (undefined) when a ReplicaSet that has been
 * synced does not report them. A ReplicaSet never synced (observedGeneration 0) counts as 0.
 */
export function terminatingReplicaCount(rss: readonly (ReplicaSet | undefined)[]): number | undefined {
  let total = 0;
  for (const rs of rss) {
    if (!rs) continue;
    const terminating = rs.status?.terminatingReplicas;
    if (terminating === undefined) {
      if ((rs.status?.observedGeneration ?? 0) === 0) continue;
      return undefined;
    }
    total += terminating;
  }
  return total;
}
