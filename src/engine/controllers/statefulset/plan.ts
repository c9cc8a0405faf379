/**
 * One step of a StatefulSet (stateful_set_control.go updateStatefulSet) as a pure planner. With
 * OrderedReady management, pods are created one at a time in ordinal order, each only once its
 * predecessors are Running and Ready; extra pods go from the highest ordinal down, one at a
 * time, once the rest are healthy; a RollingUpdate replaces pods from the highest ordinal down to
 * the partition, one at a time, waiting for each replacement to be Running and Ready. Parallel
 * management creates and deletes without waiting.
 */
import { isPodAvailable } from '../util/pod-status';
import type { Pod } from '../util/types/workload';
import { newStatefulSetPod } from './identity';
import { POD_REVISION_LABEL, type StatefulSet, type StatefulSetStatus } from './types';

export interface Revisions {
  current: { name: string; template: StatefulSet['spec']['template'] };
  update: { name: string; template: StatefulSet['spec']['template'] };
}

export type StepAction = { kind: 'create'; ordinal: number; pod: Pod } | { kind: 'delete'; pod: Pod; reason: 'failed' | 'scale-down' | 'update' };

export interface Step {
  actions: StepAction[];
  /** Why the step stopped early (a pod to wait for), for the trace. */
  waiting?: string;
  /** A ready pod will count as available after minReadySeconds: look again then. */
  requeueAfterMs?: number;
  status: StatefulSetStatus;
}

const terminal = (p: Pod): boolean => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded';
const terminating = (p: Pod): boolean => p.metadata.deletionTimestamp !== undefined;
const runningAndReady = (p: Pod): boolean => p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const revisionOf = (p: Pod): string | undefined => p.metadata.labels?.[POD_REVISION_LABEL];

export function planStatefulSet(set: StatefulSet, podsByOrdinal: ReadonlyMap<number, Pod>, revisions: Revisions, nowMs: number): Step {
  const start = set.spec.ordinals?.start ?? 0;
  const replicas = set.spec.replicas ?? 1;
  const monotonic = (set.spec.podManagementPolicy ?? 'OrderedReady') !== 'Parallel';
  const rolling = (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  const partition = rolling ? set.spec.updateStrategy?.rollingUpdate?.partition ?? 0 : 0;
  const minReady = set.spec.minReadySeconds ?? 0;
  const status = computeStatus(set, [...podsByOrdinal.values()], revisions, nowMs);
  const actions: StepAction[] = [];
  const done = (waiting?: string, requeueAfterMs?: number): Step => {
    const step: Step = { actions, status };
    if (waiting) step.waiting = waiting;
    if (requeueAfterMs !== undefined) step.requeueAfterMs = requeueAfterMs;
    return step;
  };
  const newPod = (ordinal: number): Pod => {
    const useCurrent = rolling && ordinal < start + partition;
    const rev = useCurrent ? revisions.current : revisions.update;
    return newStatefulSetPod(set, rev.template, rev.name, ordinal);
  };
  const created = (pod: Pod): void => {
    status.replicas++;
    if (revisionOf(pod) === revisions.current.name) status.currentReplicas = (status.currentReplicas ?? 0) + 1;
    if (revisionOf(pod) === revisions.update.name) status.updatedReplicas = (status.updatedReplicas ?? 0) + 1;
  };
  if (set.metadata.deletionTimestamp) return done();

  const condemned = [...podsByOrdinal.entries()].filter(([o]) => o < start || o >= start + replicas).sort(([a], [b]) => a - b);
  for (let ordinal = start; ordinal < start + replicas; ordinal++) {
    let pod = podsByOrdinal.get(ordinal);
    if (pod && terminal(pod) && !terminating(pod)) {
      actions.push({ kind: 'delete', pod, reason: 'failed' });
      pod = undefined;
    }
    if (!pod) {
      const fresh = newPod(ordinal);
      actions.push({ kind: 'create', ordinal, pod: fresh });
      created(fresh);
      if (monotonic) return done();
      continue;
    }
    if (!monotonic) continue;
    if (terminating(pod)) return done(`waiting for ${pod.metadata.name ?? ''} to terminate`);
    if (!runningAndReady(pod)) return done(`waiting for ${pod.metadata.name ?? ''} to be Running and Ready`);
    if (!isPodAvailable(pod, minReady, nowMs)) return done(`waiting for ${pod.metadata.name ?? ''} to be available`, minReady * 1000);
  }

  for (let i = condemned.length - 1; i >= 0; i--) {
    const pod = condemned[i]![1];
    if (terminating(pod)) {
      if (monotonic) return done(`waiting for ${pod.metadata.name ?? ''} to terminate before scaling down`);
      continue;
    }
    if (monotonic && !runningAndReady(pod) && i !== 0 && condemned.slice(0, i).some(([, p]) => !runningAndReady(p))) {
      return done(`waiting for ${pod.metadata.name ?? ''} to be Running and Ready before scaling down`);
    }
    actions.push({ kind: 'delete', pod, reason: 'scale-down' });
    if (monotonic) return done();
  }

  if (!rolling) return done();
  for (let ordinal = start + replicas - 1; ordinal >= start + partition; ordinal--) {
    const pod = podsByOrdinal.get(ordinal);
    if (!pod) continue;
    if (revisionOf(pod) !== revisions.update.name && !terminating(pod)) {
      actions.push({ kind: 'delete', pod, reason: 'update' });
      return done();
    }
    if (!runningAndReady(pod) || terminating(pod)) return done(`waiting for ${pod.metadata.name ?? ''} to be updated and Ready`);
  }
  return done();
}

export function computeStatus(set: StatefulSet, pods: readonly Pod[], revisions: Revisions, nowMs: number): StatefulSetStatus {
  const minReady = set.spec.minReadySeconds ?? 0;
  let replicas = 0;
  let ready = 0;
  let available = 0;
  let current = 0;
  let updated = 0;
  for (const pod of pods) {
    replicas++;
    if (runningAndReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, nowMs)) available++;
    }
    if (!terminating(pod)) {
      if (revisionOf(pod) === revisions.current.name) current++;
      if (revisionOf(pod) === revisions.update.name) updated++;
    }
  }
  const status: StatefulSetStatus = { observedGeneration: set.metadata.generation ?? 0, replicas, availableReplicas: available };
  if (ready > 0) status.readyReplicas = ready;
  if (current > 0) status.currentReplicas = current;
  if (updated > 0) status.updatedReplicas = updated;
  status.currentRevision = revisions.current.name;
  status.updateRevision = revisions.update.name;
  status.collisionCount = set.status?.collisionCount ?? 0;
  return status;
}

/** completeRollingUpdate: once every replica is updated and ready, the update revision becomes current. */
export function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): void {
  if ((set.spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return;
  if ((status.updatedReplicas ?? 0) === status.replicas && (status.readyReplicas ?? 0) === status.replicas) {
    if (status.updatedReplicas) status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

/** The status in Go's field order (omitting the omitempty zeros), as kube-controller-manager sends it. */
export function orderedStatus(s: StatefulSetStatus): StatefulSetStatus {
  const out: Partial<StatefulSetStatus> = {};
  if (s.observedGeneration) out.observedGeneration = s.observedGeneration;
  out.replicas = s.replicas;
  if (s.readyReplicas) out.readyReplicas = s.readyReplicas;
  if (s.currentReplicas) out.currentReplicas = s.currentReplicas;
  if (s.updatedReplicas) out.updatedReplicas = s.updatedReplicas;
  if (s.currentRevision) out.currentRevision = s.currentRevision;
  if (s.updateRevision) out.updateRevision = s.updateRevision;
  if (s.collisionCount !== undefined) out.collisionCount = s.collisionCount;
  out.availableReplicas = s.availableReplicas;
  return out as StatefulSetStatus;
}
