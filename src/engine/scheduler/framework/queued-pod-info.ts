/**
 * framework.QueuedPodInfo: a pod waiting in the scheduling queue, with what the queue needs to
 * order it, back it off and decide which cluster events may make it schedulable.
 */
import type { Pod } from '../api';
import type { PodInfo } from '../cache/pod-info';

export interface EventRegistration {
  readonly resource: string;
  readonly action: number;
}

export class QueuedPodInfo {
  /** When the pod was (last) added to the queue: the PrioritySort tie-breaker and the backoff base. */
  timestamp: number;
  /** Scheduling attempts so far (incremented on every pop). */
  attempts = 0;
  initialAttemptTimestamp: number | undefined;
  /** Plugins that rejected the pod in its last attempt. */
  unschedulablePlugins = new Set<string>();
  /** Plugins that reported the pod Pending in its last attempt. */
  pendingPlugins = new Set<string>();
  /** The PreEnqueue plugin holding the pod back ('' when not gated). */
  gatingPlugin = '';
  gatingPluginEvents: readonly EventRegistration[] = [];
  /** Cached backoff expiry (ms); 0 until computed. */
  backoffExpiration = 0;
  unschedulableCount = 0;
  consecutiveErrorsCount = 0;

  constructor(
    public podInfo: PodInfo,
    now: number,
  ) {
    this.timestamp = now;
  }

  get pod(): Pod {
    return this.podInfo.pod;
  }

  get key(): string {
    return this.podInfo.key;
  }

  gated(): boolean {
    return this.gatingPlugin !== '';
  }
}
