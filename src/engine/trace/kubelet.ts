/**
 * What a kubelet records: its node's life (registered, stopped, started) and each step it takes
 * for a pod (admitted or rejected, sandbox, image pulls, containers created, started, exited,
 * killed, back-offs, probe results, the pod's end). Each record's cause is the previous step for
 * the same pod, the first one's the request that wrote the pod revision the kubelet acted on.
 */
import type { RecordBase } from './record';

export type KubeletAction =
  | 'node-registered'
  | 'node-stopped'
  | 'node-started'
  | 'pod-admitted'
  | 'pod-adopted'
  | 'pod-rejected'
  | 'behavior-invalid'
  | 'volume-mount-failed'
  | 'sandbox-created'
  | 'sandbox-failed'
  | 'image-pulling'
  | 'image-pulled'
  | 'image-pull-failed'
  | 'image-back-off'
  | 'container-config-error'
  | 'container-created'
  | 'container-started'
  | 'container-exited'
  | 'container-killing'
  | 'container-back-off'
  | 'probe-result'
  | 'pod-terminating'
  | 'pod-finished'
  | 'pod-deleted';

export interface KubeletRecord extends RecordBase {
  readonly type: 'kubelet.action';
  readonly node: string;
  readonly action: KubeletAction;
  /** "<namespace>/<name>" of the pod acted on. */
  readonly pod?: string;
  readonly container?: string;
  /** A short account: the image and durations, the exit code and reason, the probe's result. */
  readonly detail: string;
}
