/**
 * What every kind of sync shares (sync.go): finding or creating the new ReplicaSet and keeping
 * revisions in step, scaling ReplicaSets with their events, proportional scaling when the
 * Deployment is resized, revision-history cleanup, and the status computed from the ReplicaSets.
 */
import { goQuote } from '../../api/gofmt';
import type { LabelSelector } from '../../api/labels';
import { deepEqual } from '../../api/deep-equal';
import { specReplicas, type ReplicaSet } from '../util/types/workload';
import {
  MAX_REV_HISTORY_LENGTH_IN_CHARS,
  maxRevision,
  recordsOtherSize,
  replicasAnnotationsNeedUpdate,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from './annotations';
import { getCondition, newCondition, setCondition } from './conditions';
import { Plan } from './plan';
import { getProportion } from './proportion';
import {
  actualReplicaCount,
  availableReplicaCount,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  filterActive,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  isSaturated,
  readyReplicaCount,
  replicaCount,
  terminatingReplicaCount,
} from './replica-sets';
import { hasProgressDeadline, hasRevisionHistoryLimit, isRollingUpdate, maxSurge, maxUnavailable, newRSNewReplicas, UnsupportedStrategyError } from './strategy';
import { computeHash, equalIgnoreHash } from '../util/template-hash';
import {
  AVAILABLE,
  POD_TEMPLATE_HASH_LABEL,
  PROGRESSING,
  Reason,
  REVISION_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
  deploymentReplicas,
  type Deployment,
  type DeploymentStatus,
} from './types';
import { setOwn } from '../../api/own';

/** A sync that cannot go on for a reason found while planning; the loop retries with backoff. */
export class SyncError extends Error {}

/** Scaling without a rollout: paused Deployments and replica-count changes (sync). */
export function sync(plan: Plan, d: Deployment, rsList: readonly ReplicaSet[]): void {
  const [newRS, oldRSs] = getAllReplicaSetsAndSyncRevision(plan, d, rsList, false);
  scale(plan, d, newRS, oldRSs);
  // A paused Deployment keeps its history trimmed, unless a rollback is still to be done.
  if (d.spec.paused && rollbackRevision(d) === undefined) cleanupDeployment(plan, oldRSs, d);
  syncDeploymentStatus(plan, [...oldRSs, newRS], newRS, d);
}

/** The revision the deprecated rollbackTo annotation asks for; undefined when absent or malformed. */
export function rollbackRevision(d: Deployment): number | undefined {
  const v = d.metadata.annotations?.[ROLLBACK_TO_ANNOTATION];
  if (v === undefined || v === '' || !/^[+-]?[0-9]+$/.test(v)) return undefined;
  return Number(v);
}

/** Records Progressing=Unknown when a Deployment is paused or resumed, so the pause does not count against the deadline. */
export function checkPausedConditions(plan: Plan, d: Deployment): void {
  if (!hasProgressDeadline(d)) return;
  const cond = getCondition(d.status, PROGRESSING);
  // A reported timeout is not overwritten by a pause.
  if (cond?.reason === Reason.TimedOut) return;
  const pausedCondExists = cond?.reason === Reason.Paused;
  const status = (d.status ??= {});
  if (d.spec.paused && !pausedCondExists) {
    setCondition(status, newCondition(PROGRESSING, 'Unknown', Reason.Paused, 'Deployment is paused', plan.now()));
  } else if (!d.spec.paused && pausedCondExists) {
    setCondition(status, newCondition(PROGRESSING, 'Unknown', Reason.Resumed, 'Deployment is resumed', plan.now()));
  } else {
    return;
  }
  plan.updateDeploymentStatus(d);
}

/** A resize rather than a rollout: some active ReplicaSet was last scaled for another size. */
export function isScalingEvent(plan: Plan, d: Deployment, rsList: readonly ReplicaSet[]): boolean {
  const [newRS, oldRSs] = getAllReplicaSetsAndSyncRevision(plan, d, rsList, false);
  return filterActive([...oldRSs, newRS]).some((rs) => recordsOtherSize(d, rs));
}

/** [the new ReplicaSet (created if asked and missing), all the old ones]. */
export function getAllReplicaSetsAndSyncRevision(
  plan: Plan,
  d: Deployment,
  rsList: readonly ReplicaSet[],
  createIfNotExisted: boolean,
): [ReplicaSet | undefined, ReplicaSet[]] {
  const [, allOldRSs] = findOldReplicaSets(d, rsList);
  return [getNewReplicaSet(plan, d, rsList, allOldRSs, createIfNotExisted), allOldRSs];
}

function getNewReplicaSet(plan: Plan, d: Deployment, rsList: readonly ReplicaSet[], oldRSs: readonly ReplicaSet[], createIfNotExisted: boolean): ReplicaSet | undefined {
  const existing = findNewReplicaSet(d, rsList);
  const newRevision = String(maxRevision(oldRSs) + 1);

  if (existing) {
    const rsCopy = structuredClone(existing);
    const annotationsUpdated = setNewReplicaSetAnnotations(d, rsCopy, newRevision, true, MAX_REV_HISTORY_LENGTH_IN_CHARS);
    const minReadySeconds = d.spec.minReadySeconds ?? 0;
    if (annotationsUpdated || (rsCopy.spec.minReadySeconds ?? 0) !== minReadySeconds) {
      setMinReadySeconds(rsCopy, minReadySeconds);
      return plan.updateReplicaSet(rsCopy);
    }
    let needsUpdate = setDeploymentRevision(d, rsCopy.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
    // A Deployment that gains a deadline only now starts counting from the moment its new ReplicaSet is seen.
    if (hasProgressDeadline(d) && !getCondition(d.status, PROGRESSING)) {
      const msg = `Found new replica set ${goQuote(rsCopy.metadata.name ?? '')}`;
      setCondition((d.status ??= {}), newCondition(PROGRESSING, 'True', Reason.FoundNewReplicaSet, msg, plan.now()));
      needsUpdate = true;
    }
    if (needsUpdate) plan.updateDeploymentStatus(d);
    return rsCopy;
  }

  if (!createIfNotExisted) return undefined;

  const newRS = newReplicaSetFor(d);
  const replicas = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
  if (replicas instanceof UnsupportedStrategyError) throw new SyncError(replicas.message);
  newRS.spec.replicas = replicas;
  setNewReplicaSetAnnotations(d, newRS, newRevision, false, MAX_REV_HISTORY_LENGTH_IN_CHARS);
  const created = plan.createReplicaSet(newRS, d);
  if (replicas > 0) plan.event('Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name ?? ''} from 0 to ${replicas}`);

  let needsUpdate = setDeploymentRevision(d, newRevision);
  if (hasProgressDeadline(d)) {
    const msg = `Created new replica set ${goQuote(created.metadata.name ?? '')}`;
    setCondition((d.status ??= {}), newCondition(PROGRESSING, 'True', Reason.NewReplicaSetCreated, msg, plan.now()));
    needsUpdate = true;
  }
  if (needsUpdate) plan.updateDeploymentStatus(d);
  return created;
}

function setMinReadySeconds(rs: ReplicaSet, minReadySeconds: number): void {
  if (minReadySeconds === 0) delete rs.spec.minReadySeconds;
  else rs.spec.minReadySeconds = minReadySeconds;
}

/** The ReplicaSet for the Deployment's current template, named and labelled by the template's hash. */
export function newReplicaSetFor(d: Deployment): ReplicaSet {
  const template = structuredClone(d.spec.template ?? {});
  const hash = computeHash(template, d.status?.collisionCount);
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  template.metadata = { ...template.metadata, labels };
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name ?? ''}-${hash}`,
      namespace: d.metadata.namespace,
      labels: { ...labels },
      ownerReferences: [controllerRef(d)],
    },
    spec: { replicas: 0, selector: selectorWithLabel(d.spec.selector, POD_TEMPLATE_HASH_LABEL, hash), template },
  };
  setMinReadySeconds(rs, d.spec.minReadySeconds ?? 0);
  return rs;
}

/** metav1.NewControllerRef for a Deployment. */
export function controllerRef(d: Deployment) {
  return { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name ?? '', uid: d.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** CloneSelectorAndAddLabel. */
function selectorWithLabel(selector: LabelSelector | null | undefined, key: string, value: string): LabelSelector {
  const out: LabelSelector = { matchLabels: { ...(selector?.matchLabels ?? {}), [key]: value } };
  if (selector?.matchExpressions) out.matchExpressions = structuredClone(selector.matchExpressions);
  return out;
}

/** How creating the new ReplicaSet failed, as the control loop saw it. */
export interface CreateFailure {
  alreadyExists: boolean;
  namespaceTerminating: boolean;
  message: string;
  /** With alreadyExists: the ReplicaSet of that name in the cache. */
  existing?: ReplicaSet;
}

/**
 * After a failed create of the new ReplicaSet: 'adopted' when the one that exists is this
 * Deployment's own with its template (a stale cache; the next sync finds it); otherwise the
 * writes to make before the sync fails: a hash collision bumps status.collisionCount so that the
 * next name differs, any other failure is reported in the Progressing condition and an event.
 */
export function planCreateFailure(d: Deployment, rs: ReplicaSet, failure: CreateFailure, nowMs: number): Plan | 'adopted' {
  const plan = new Plan(nowMs);
  const copy = structuredClone(d);
  if (failure.alreadyExists) {
    const existing = failure.existing;
    const ref = existing?.metadata.ownerReferences?.find((r) => r.controller === true);
    if (existing && ref?.uid === d.metadata.uid && equalIgnoreHash(d.spec.template, existing.spec.template)) return 'adopted';
    const status = (copy.status ??= {});
    status.collisionCount = (status.collisionCount ?? 0) + 1;
    plan.updateDeploymentStatus(copy);
    return plan;
  }
  if (failure.namespaceTerminating) return plan;
  const msg = `Failed to create new replica set ${goQuote(rs.metadata.name ?? '')}: ${failure.message}`;
  if (hasProgressDeadline(copy)) {
    setCondition((copy.status ??= {}), newCondition(PROGRESSING, 'False', Reason.FailedRSCreate, msg, plan.now()));
    plan.updateDeploymentStatus(copy);
  }
  plan.event('Warning', Reason.FailedRSCreate, msg);
  return plan;
}

/** Scales to newScale (recording the Deployment's size on it) with a ScalingReplicaSet event; [scaled, the ReplicaSet as written]. */
export function scaleReplicaSetAndRecordEvent(plan: Plan, rs: ReplicaSet, newScale: number, d: Deployment): [boolean, ReplicaSet] {
  if (specReplicas(rs) === newScale) return [false, rs];
  return scaleReplicaSet(plan, rs, newScale, d, specReplicas(rs) < newScale ? 'up' : 'down');
}

function scaleReplicaSet(plan: Plan, rs: ReplicaSet, newScale: number, d: Deployment, operation: string): [boolean, ReplicaSet] {
  const desired = deploymentReplicas(d);
  const max = desired + maxSurge(d);
  const sizeNeedsUpdate = specReplicas(rs) !== newScale;
  if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, desired, max)) return [false, rs];
  const oldScale = specReplicas(rs);
  const rsCopy = structuredClone(rs);
  rsCopy.spec.replicas = newScale;
  setReplicasAnnotations(rsCopy, desired, max);
  const written = plan.updateReplicaSet(rsCopy);
  if (sizeNeedsUpdate) plan.event('Normal', 'ScalingReplicaSet', `Scaled ${operation} replica set ${written.metadata.name ?? ''} from ${oldScale} to ${newScale}`);
  return [sizeNeedsUpdate, written];
}

/**
 * Resizes the ReplicaSets to a new spec.replicas. With one active ReplicaSet it takes the whole
 * size; during a rolling update every active one gets its share, and what rounding leaves over
 * goes to the largest.
 */
export function scale(plan: Plan, d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): void {
  const replicas = deploymentReplicas(d);
  const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
  if (activeOrLatest) {
    if (specReplicas(activeOrLatest) !== replicas) scaleReplicaSetAndRecordEvent(plan, activeOrLatest, replicas, d);
    return;
  }
  // A saturated new ReplicaSet (an adopted one, say) leaves nothing for the old ones.
  if (isSaturated(d, newRS)) {
    for (const old of filterActive(oldRSs)) scaleReplicaSetAndRecordEvent(plan, old, 0, d);
    return;
  }
  if (!isRollingUpdate(d)) return;

  const allRSs = filterActive([...oldRSs, newRS]);
  const allowedSize = replicas > 0 ? replicas + maxSurge(d) : 0;
  const toAdd = allowedSize - replicaCount(allRSs);
  let operation = '';
  if (toAdd > 0) {
    allRSs.sort(bySizeNewer);
    operation = 'up';
  } else if (toAdd < 0) {
    allRSs.sort(bySizeOlder);
    operation = 'down';
  }
  let added = 0;
  const sizes = allRSs.map((rs) => {
    if (toAdd === 0) return specReplicas(rs);
    const proportion = getProportion(rs, d, toAdd, added);
    added += proportion;
    return specReplicas(rs) + proportion;
  });
  if (toAdd !== 0 && sizes.length > 0) sizes[0] = Math.max(0, sizes[0]! + toAdd - added);
  allRSs.forEach((rs, i) => scaleReplicaSet(plan, rs, sizes[i]!, d, operation));
}

/** Deletes the oldest fully scaled-down ReplicaSets beyond revisionHistoryLimit. */
export function cleanupDeployment(plan: Plan, oldRSs: readonly ReplicaSet[], d: Deployment): void {
  if (!hasRevisionHistoryLimit(d)) return;
  const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
  const diff = cleanable.length - (d.spec.revisionHistoryLimit ?? 0);
  if (diff <= 0) return;
  cleanable.sort(byRevision);
  for (const rs of cleanable.slice(0, diff)) {
    // Only ReplicaSets whose controller has seen them scaled to zero and that have no pods left.
    const busy = (rs.status?.replicas ?? 0) !== 0 || specReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0);
    if (!busy) plan.deleteReplicaSet(rs);
  }
}

/** Writes the status computed from the ReplicaSets, when it differs. */
export function syncDeploymentStatus(plan: Plan, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, d: Deployment): void {
  const status = calculateStatus(allRSs, newRS, d, plan.now());
  if (statusEqual(d.status, status)) return;
  d.status = status;
  plan.updateDeploymentStatus(d);
}

/** The Deployment's status from its ReplicaSets' statuses, with the Available condition. */
export function calculateStatus(allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, d: Deployment, now: string): DeploymentStatus {
  const available = availableReplicaCount(allRSs);
  const unavailable = Math.max(0, replicaCount(allRSs) - available);
  const status = omitZeros({
    observedGeneration: d.metadata.generation ?? 0,
    replicas: actualReplicaCount(allRSs),
    updatedReplicas: actualReplicaCount([newRS]),
    readyReplicas: readyReplicaCount(allRSs),
    availableReplicas: available,
    unavailableReplicas: unavailable,
  });
  const terminating = terminatingReplicaCount(allRSs);
  if (terminating !== undefined) status.terminatingReplicas = terminating;
  if (d.status?.conditions?.length) status.conditions = d.status.conditions.map((c) => ({ ...c }));
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;

  if (available >= deploymentReplicas(d) - maxUnavailable(d)) {
    setCondition(status, newCondition(AVAILABLE, 'True', Reason.MinimumReplicasAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition(AVAILABLE, 'False', Reason.MinimumReplicasUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

/** Go's omitempty: zero counts are not written. */
function omitZeros(counts: Record<string, number>): DeploymentStatus {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(counts)) if (v !== 0) setOwn(out, k, v);
  return out as DeploymentStatus;
}

export function statusEqual(a: DeploymentStatus | undefined, b: DeploymentStatus): boolean {
  return deepEqual(normalizeStatus(a ?? {}), normalizeStatus(b));
}

function normalizeStatus(s: DeploymentStatus): DeploymentStatus {
  const { terminatingReplicas, collisionCount, conditions, ...counts } = s;
  const out = omitZeros(counts as Record<string, number>);
  if (terminatingReplicas !== undefined) out.terminatingReplicas = terminatingReplicas;
  if (collisionCount !== undefined) out.collisionCount = collisionCount;
  if (conditions?.length) out.conditions = conditions;
  return out;
}
