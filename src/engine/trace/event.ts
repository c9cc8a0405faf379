/**
 * A Kubernetes Event as the trace tells it: one record each time an Event is written (created,
 * or its count or series bumped), with the reporting component, the object it is about, and
 * the etcd revision of the write as its cause, so "Scheduled", "Pulled" or "ScalingReplicaSet"
 * sit in the same chain as the requests around them.
 */
import type { RecordBase } from './record';

export interface KubeEventRecord extends RecordBase {
  readonly type: 'kube.event';
  /** Normal or Warning. */
  readonly eventType: string;
  readonly reason: string;
  /** message (core/v1) or note (events.k8s.io/v1). */
  readonly message: string;
  /** The object the event is about: "Pod default/web-7d4b9c-x2x8k". */
  readonly regarding: string;
  /** How many times it has been seen so far (count, or series.count; 1 for a new event). */
  readonly count: number;
  /** The Event object: "default/web-7d4b9c-x2x8k.181a2b3c4d5e6f70". */
  readonly event: string;
  /** The etcd revision of the write. */
  readonly revision: number;
}
