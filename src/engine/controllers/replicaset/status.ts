/**
 * A ReplicaSet's status (replica_set_utils.go): counts over its active pods, the pods still
 * terminating, and the ReplicaFailure condition while creating or deleting pods fails.
 */
import { labelSelectorAsSelector } from '../../api/labels';
import { deepEqual } from '../../api/deep-equal';
import { isPodAvailable, isPodReady } from '../util/pod-status';
import { rfc3339 } from '../../api/time';
import { specReplicas, type Pod, type ReplicaSet, type ReplicaSetCondition, type ReplicaSetStatus } from '../util/types/workload';

export const REPLICA_FAILURE = 'ReplicaFailure';

/** A status as the controller computes it: a zero count is left out (Go's encoder writes `replicas: 0` on the way to storage). */
export type ComputedStatus = Partial<ReplicaSetStatus>;

export function calculateStatus(rs: ReplicaSet, activePods: readonly Pod[], terminatingPods: readonly Pod[], manageReplicasErr: Error | undefined, nowMs: number): ComputedStatus {
  const status: ComputedStatus = structuredClone(rs.status ?? {});
  // Parsed once: an unparsable template selector matches no pod.
  const templateSelector = labelSelectorAsSelector({ matchLabels: rs.spec.template?.metadata?.labels ?? {} });
  const minReadySeconds = rs.spec.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of activePods) {
    if (templateSelector.ok && templateSelector.value.matches(pod.metadata.labels ?? {})) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, nowMs)) available++;
    }
  }

  const failure = status.conditions?.find((c) => c.type === REPLICA_FAILURE);
  if (manageReplicasErr && !failure) {
    const diff = activePods.length - specReplicas(rs);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    const condition: ReplicaSetCondition = { type: REPLICA_FAILURE, status: 'True', lastTransitionTime: rfc3339(nowMs), message: manageReplicasErr.message };
    if (reason) condition.reason = reason;
    status.conditions = [...(status.conditions ?? []), condition];
  } else if (!manageReplicasErr && failure) {
    const rest = (status.conditions ?? []).filter((c) => c.type !== REPLICA_FAILURE);
    if (rest.length > 0) status.conditions = rest;
    else delete status.conditions;
  }

  setCount(status, 'replicas', activePods.length);
  setCount(status, 'fullyLabeledReplicas', fullyLabeled);
  setCount(status, 'readyReplicas', ready);
  setCount(status, 'availableReplicas', available);
  status.terminatingReplicas = terminatingPods.length;
  return status;
}

/** Go's omitempty: a zero count is not written. */
function setCount(status: ComputedStatus, key: 'replicas' | 'fullyLabeledReplicas' | 'readyReplicas' | 'availableReplicas', n: number): void {
  if (n === 0) delete status[key];
  else status[key] = n;
}

/** Whether the status must be written: counts or conditions changed, or a new generation was not yet observed. */
export function statusNeedsUpdate(rs: ReplicaSet, next: ComputedStatus): boolean {
  const cur: ComputedStatus = rs.status ?? {};
  return !(
    (cur.replicas ?? 0) === (next.replicas ?? 0) &&
    (cur.fullyLabeledReplicas ?? 0) === (next.fullyLabeledReplicas ?? 0) &&
    (cur.readyReplicas ?? 0) === (next.readyReplicas ?? 0) &&
    (cur.availableReplicas ?? 0) === (next.availableReplicas ?? 0) &&
    cur.terminatingReplicas === next.terminatingReplicas &&
    (rs.metadata.generation ?? 0) === (cur.observedGeneration ?? 0) &&
    deepEqual(cur.conditions ?? [], next.conditions ?? [])
  );
}

/** The status with the generation it was computed for. */
export function withObservedGeneration(rs: ReplicaSet, status: ComputedStatus): ComputedStatus {
  const out = { ...status };
  const generation = rs.metadata.generation ?? 0;
  if (generation === 0) delete out.observedGeneration;
  else out.observedGeneration = generation;
  return out;
}
