/**
 * Proportional scaling: when a Deployment is resized in the middle of a rollout, every active
 * ReplicaSet grows or shrinks by its share, judged from the max-replicas annotation the last
 * scaling left on it.
 */
import { specReplicas, type ReplicaSet } from '../util/types/workload';
import { getMaxReplicasAnnotation } from './annotations';
import { maxSurge } from './strategy';
import { deploymentReplicas, type Deployment } from './types';

/** How many replicas to add to (or, negative, remove from) this ReplicaSet, within what is left to distribute. */
export function getProportion(rs: ReplicaSet | undefined, d: Deployment, toAdd: number, added: number): number {
  if (!rs || specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = getReplicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** The change that keeps this ReplicaSet's share of the Deployment's maximum size. */
export function getReplicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (deploymentReplicas(d) === 0) return -specReplicas(rs);
  const maxReplicas = deploymentReplicas(d) + maxSurge(d);
  let before = getMaxReplicasAnnotation(rs);
  if (before === undefined || before === 0) {
    // Someone removed or zeroed the annotation: judge by the pods the Deployment last reported.
    before = d.status?.replicas ?? 0;
    if (before === 0) return 0;
  }
  return roundHalfAwayFromZero((specReplicas(rs) * maxReplicas) / before) - specReplicas(rs);
}

/** integer.RoundToInt32 (math.Round). */
const roundHalfAwayFromZero = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));
