/**
 * What a control loop records for each reconcile: which key it synced and why (the informer
 * event's revision and the request that wrote it, a requeue, a retry, a resync), what it saw,
 * the API requests it sent, and how it ended: done, requeued after a delay, or failed and
 * requeued with the rate limiter's backoff.
 */
import type { RecordBase } from './record';

/** event: an informer event; resync: the periodic resync; requeue: the loop asked for it; retry: after an error. */
export type ReconcileTrigger = 'event' | 'resync' | 'requeue' | 'retry' | 'enqueue';

export type ReconcileOutcome = 'done' | 'requeue-after' | 'error';

export interface ReconcileRecord extends RecordBase {
  readonly type: 'controller.reconcile';
  /** The control loop: "deployment", "replicaset", "endpointslice". */
  readonly controller: string;
  /** The workqueue key: "<namespace>/<name>" or "<name>". */
  readonly key: string;
  readonly trigger: ReconcileTrigger;
  /** The resourceVersion (etcd revision) of the object whose event queued the key. */
  readonly revision?: number;
  /** A short account, by the controller, of the state it acted on. */
  readonly observed?: string;
  /**
   * The failed reconcile this one also retries: an informer event queued the key while its retry
   * waited, so the trigger (and the cause) is the event, and the retry is this link.
   */
  readonly retryOf?: number;
  /** The trace ids of the API requests the reconcile sent, in order. */
  readonly requests: readonly number[];
  readonly outcome: ReconcileOutcome;
  /** For requeue-after: the delay the loop asked for (ms). */
  readonly requeueAfterMs?: number;
  /** For errors: the error text, the rate limiter's backoff before the retry (ms) and the retries so far. */
  readonly error?: string;
  readonly backoffMs?: number;
  readonly retries?: number;
  /** For errors: the loop gave up on the key after its maximum number of retries. */
  readonly dropped?: boolean;
  /** The horizontal-pod-autoscaler's decision: the metrics it used and the replica count it chose. */
  readonly autoscaler?: AutoscalerDecision;
}

/** One metric of an HPA as its reconcile read it. */
export interface AutoscalerMetric {
  /** "cpu", "memory of container web", "pods metric qps". */
  readonly metric: string;
  /** "42%", "250m", "<unknown>". */
  readonly current: string;
  /** "50%", "500m". */
  readonly target: string;
  /** The average usage behind a utilization ("120m"). */
  readonly value?: string;
  /** The replica count this metric proposes. */
  readonly replicas?: number;
  /** How the pods counted: ready with a sample, unready, without a sample, ignored (deleted or failed). */
  readonly ready?: number;
  readonly unready?: number;
  readonly missing?: number;
  readonly ignored?: number;
  readonly error?: string;
}

export interface AutoscalerDecision {
  /** The target's spec.replicas. */
  currentReplicas: number;
  /** The replica count the reconcile left the target at. */
  desiredReplicas: number;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /** The metrics' proposal, before stabilization and limits. */
  proposal?: number;
  readonly metrics: AutoscalerMetric[];
  /** ScaleUpStabilized / ScaleDownStabilized when the window changed the proposal. */
  stabilized?: string;
  /** ScalingLimited's reason when the limits changed it. */
  limited?: string;
  /** The SuccessfulRescale reason. */
  reason?: string;
  rescaled?: boolean;
  error?: string;
}
