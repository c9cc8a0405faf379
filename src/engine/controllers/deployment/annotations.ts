/**
 * The revision bookkeeping a Deployment keeps in annotations: which rollout each ReplicaSet
 * served (revision, revision-history), and the size the Deployment had when it last scaled each
 * ReplicaSet (desired-replicas, max-replicas), which proportional scaling reads back.
 */
import { goQuote } from '../../api/gofmt';
import { specReplicas, type ReplicaSet } from '../util/types/workload';
import { maxSurge } from './strategy';
import {
  DESIRED_REPLICAS_ANNOTATION,
  LAST_APPLIED_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
  deploymentReplicas,
  type Deployment,
} from './types';
import { own, setOwn } from '../../api/own';

/** The revision-history annotation stays within this many characters, dropping the oldest. */
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

export class RevisionError extends Error {}

/** strconv.ParseInt(v, 10, 64) of the revision annotation; 0 when there is none. */
export function revision(obj: { metadata: { annotations?: Record<string, string> } }): number | RevisionError {
  const v = obj.metadata.annotations?.[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  return parseInt64(v);
}

function parseInt64(v: string): number | RevisionError {
  if (!/^[+-]?[0-9]+$/.test(v)) return new RevisionError(`strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`);
  const n = BigInt(v);
  if (n > 2n ** 63n - 1n || n < -(2n ** 63n)) return new RevisionError(`strconv.ParseInt: parsing ${goQuote(v)}: value out of range`);
  return Number(n);
}

/** The highest revision among the ReplicaSets (unparsable ones are skipped). */
export function maxRevision(rss: readonly ReplicaSet[]): number {
  let max = 0;
  for (const rs of rss) {
    const v = revision(rs);
    if (!(v instanceof RevisionError) && v > max) max = v;
  }
  return max;
}

/** The second highest revision: the one `rollout undo` goes back to. */
export function lastRevision(rss: readonly (ReplicaSet | undefined)[]): number {
  let max = 0;
  let second = 0;
  for (const rs of rss) {
    if (!rs) continue;
    const v = revision(rs);
    if (v instanceof RevisionError) continue;
    if (v >= max) {
      second = max;
      max = v;
    } else if (v > second) {
      second = v;
    }
  }
  return second;
}

/**
 * annotationsToSkip: the annotations a Deployment keeps as its own. They are not copied onto its
 * ReplicaSets, and a rollback (the controller's and `kubectl rollout undo`'s) leaves them as they are.
 */
export const ANNOTATIONS_TO_SKIP: ReadonlySet<string> = new Set([
  LAST_APPLIED_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
]);

/** Copies the Deployment's own annotations onto its ReplicaSet; true if any changed. */
function copyDeploymentAnnotations(d: Deployment, rs: ReplicaSet): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (ANNOTATIONS_TO_SKIP.has(k) || own(annotations, k) === v) continue;
    setOwn(annotations, k, v);
    changed = true;
  }
  return changed;
}

/**
 * SetNewReplicaSetAnnotations: copies the Deployment's annotations, raises the revision to
 * newRevision (keeping the revisions a reused ReplicaSet served before in revision-history), and
 * on creation records desired and max replicas. Returns whether anything changed.
 */
export function setNewReplicaSetAnnotations(d: Deployment, rs: ReplicaSet, newRevision: string, exists: boolean, historyLimitInChars: number): boolean {
  let changed = copyDeploymentAnnotations(d, rs);
  const annotations = (rs.metadata.annotations ??= {});
  const oldRevision = annotations[REVISION_ANNOTATION];
  let oldRevisionInt = 0;
  if (oldRevision !== undefined && oldRevision !== '') {
    const parsed = parseInt64(oldRevision);
    if (parsed instanceof RevisionError) return false;
    oldRevisionInt = parsed;
  }
  const newRevisionInt = parseInt64(newRevision);
  if (newRevisionInt instanceof RevisionError) return false;
  if (oldRevisionInt < newRevisionInt) {
    annotations[REVISION_ANNOTATION] = newRevision;
    changed = true;
    if (oldRevision !== undefined) appendRevisionHistory(annotations, oldRevision, historyLimitInChars);
  }
  if (!exists && setReplicasAnnotations(rs, deploymentReplicas(d), deploymentReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

function appendRevisionHistory(annotations: Record<string, string>, oldRevision: string, limitInChars: number): void {
  const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
  if (history === '') {
    annotations[REVISION_HISTORY_ANNOTATION] = oldRevision;
    return;
  }
  const revisions = history.split(',');
  let totalLen = history.length + oldRevision.length + 1;
  let start = 0;
  while (totalLen > limitInChars && start < revisions.length) {
    totalLen -= revisions[start]!.length + 1;
    start++;
  }
  // When even the newest entry alone is too long, upstream keeps the history as it was.
  if (totalLen <= limitInChars) annotations[REVISION_HISTORY_ANNOTATION] = [...revisions.slice(start), oldRevision].join(',');
}

/** Records the Deployment's size and maximum (replicas + maxSurge) on the ReplicaSet; true if changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  let changed = false;
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    changed = true;
  }
  if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    annotations[MAX_REPLICAS_ANNOTATION] = String(max);
    changed = true;
  }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = rs.metadata.annotations;
  return annotations?.[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || annotations[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/** A rollback copies the target ReplicaSet's annotations back onto the Deployment. */
export function setDeploymentAnnotationsTo(d: Deployment, rs: ReplicaSet): void {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (ANNOTATIONS_TO_SKIP.has(k)) setOwn(kept, k, v);
  for (const [k, v] of Object.entries(rs.metadata.annotations ?? {})) if (!ANNOTATIONS_TO_SKIP.has(k)) setOwn(kept, k, v);
  d.metadata.annotations = kept;
}

/** Sets the Deployment's revision annotation; true if it changed. */
export function setDeploymentRevision(d: Deployment, rev: string): boolean {
  const annotations = (d.metadata.annotations ??= {});
  if (annotations[REVISION_ANNOTATION] === rev) return false;
  annotations[REVISION_ANNOTATION] = rev;
  return true;
}

export const getDesiredReplicasAnnotation = (rs: ReplicaSet): number | undefined => nonNegativeInt32Annotation(rs, DESIRED_REPLICAS_ANNOTATION);
export const getMaxReplicasAnnotation = (rs: ReplicaSet): number | undefined => nonNegativeInt32Annotation(rs, MAX_REPLICAS_ANNOTATION);

/** strconv.ParseUint(v, 10, 31): a value in [0, MaxInt32], or undefined when missing or malformed. */
export function nonNegativeInt32Annotation(rs: ReplicaSet, key: string): number | undefined {
  const v = own(rs.metadata.annotations, key);
  if (v === undefined || !/^[0-9]+$/.test(v)) return undefined;
  const n = BigInt(v);
  return n <= 2147483647n ? Number(n) : undefined;
}

/** Scaling that does not come from a rollout (replicas changed): some active ReplicaSet records another size. */
export function recordsOtherSize(d: Deployment, rs: ReplicaSet): boolean {
  const desired = getDesiredReplicasAnnotation(rs);
  return desired !== undefined && specReplicas(rs) > 0 && desired !== deploymentReplicas(d);
}
