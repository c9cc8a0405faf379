/**
 * What one sync of a Deployment decides to do, in order. The planners (sync, rolling, recreate,
 * rollback, progress) are pure: they read the cached objects, record each write here as if it
 * succeeded and go on with the written object, exactly as upstream goes on with the API's answer.
 * The control loop then sends the writes in order and stops at the first failure, as upstream
 * returns at its first error.
 */
import { rfc3339 } from '../../api/time';
import type { ReplicaSet } from '../util/types/workload';
import type { Deployment } from './types';

export type EventType = 'Normal' | 'Warning';

export type DeploymentAction =
  /** deployment: the Deployment as the sync holds it then, which the failure handling writes. */
  | { kind: 'createReplicaSet'; replicaSet: ReplicaSet; deployment: Deployment }
  /** resourceVersionFrom: the index of the earlier write whose answer this update builds on. */
  | { kind: 'updateReplicaSet'; replicaSet: ReplicaSet; resourceVersionFrom?: number }
  | { kind: 'deleteReplicaSet'; namespace: string; name: string }
  | { kind: 'updateDeploymentStatus'; deployment: Deployment }
  | { kind: 'updateDeployment'; deployment: Deployment }
  | { kind: 'event'; eventType: EventType; reason: string; message: string };

/** After the writes: look again after a delay (a progress check), or soon with backoff. */
export type Requeue = { after: number } | 'rateLimited';

export class Plan {
  readonly actions: DeploymentAction[] = [];
  requeue: Requeue | undefined;
  private readonly writtenBy = new WeakMap<object, number>();

  constructor(readonly nowMs: number) {}

  /** metav1.Now() as the API stores it (second precision). */
  now(): string {
    return rfc3339(this.nowMs);
  }

  createReplicaSet(rs: ReplicaSet, d: Deployment): ReplicaSet {
    return this.record({ kind: 'createReplicaSet', replicaSet: structuredClone(rs), deployment: structuredClone(d) }, structuredClone(rs));
  }

  updateReplicaSet(rs: ReplicaSet): ReplicaSet {
    const from = this.writtenBy.get(rs);
    const copy = structuredClone(rs);
    const action: DeploymentAction = from === undefined ? { kind: 'updateReplicaSet', replicaSet: copy } : { kind: 'updateReplicaSet', replicaSet: copy, resourceVersionFrom: from };
    return this.record(action, structuredClone(rs));
  }

  deleteReplicaSet(rs: ReplicaSet): void {
    this.actions.push({ kind: 'deleteReplicaSet', namespace: rs.metadata.namespace ?? '', name: rs.metadata.name ?? '' });
  }

  /**
   * Upstream drops the answer to its Deployment writes and keeps its own copy, whose
   * resourceVersion is then stale: a second write of the Deployment in the same sync conflicts.
   */
  updateDeploymentStatus(d: Deployment): void {
    this.actions.push({ kind: 'updateDeploymentStatus', deployment: structuredClone(d) });
  }

  updateDeployment(d: Deployment): void {
    this.actions.push({ kind: 'updateDeployment', deployment: structuredClone(d) });
  }

  event(eventType: EventType, reason: string, message: string): void {
    this.actions.push({ kind: 'event', eventType, reason, message });
  }

  private record(action: DeploymentAction, answer: ReplicaSet): ReplicaSet {
    this.writtenBy.set(answer, this.actions.length);
    this.actions.push(action);
    return answer;
  }
}
