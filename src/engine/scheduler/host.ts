/**
 * The narrow adapter between the scheduler and the rest of the cluster. Outbound, everything the
 * scheduler does to the cluster is an API request the host issues as system:kube-scheduler
 * (docs/architecture.md, invariant 1); inbound, the host feeds informer events to Scheduler.onAdd/onUpdate/
 * onDelete and answers lister reads from its informer caches.
 */
import type {
  Namespace,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodCondition,
  PodDisruptionBudget,
  ReplicationController,
  SelectingWorkload,
  Service,
  StorageClass,
} from './api';

export interface PodStatusUpdate {
  /** Set (or replace) this condition, as podutil.UpdatePodCondition does. */
  condition?: PodCondition;
  /** Set status.nominatedNodeName; '' clears it. Absent: leave it as it is. */
  nominatedNodeName?: string;
}

/** An events.k8s.io/v1 Event reported by controller "default-scheduler". */
export interface SchedulerEvent {
  regarding: Pod;
  related?: Pod;
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note: string;
}

/** What the listers read, by the informer cache a host keeps it in. */
export interface ListedObjects {
  namespaces: Namespace;
  services: Service;
  replicaSets: SelectingWorkload;
  statefulSets: SelectingWorkload;
  replicationControllers: ReplicationController;
  podDisruptionBudgets: PodDisruptionBudget;
  persistentVolumeClaims: PersistentVolumeClaim;
  persistentVolumes: PersistentVolume;
  storageClasses: StorageClass;
}

/** Reads from the host's informer caches (synchronous, like client-go listers). */
export interface SchedulerListers {
  namespace(name: string): ListedObjects['namespaces'] | undefined;
  namespaces(): readonly ListedObjects['namespaces'][];
  services(namespace: string): readonly ListedObjects['services'][];
  replicaSet(namespace: string, name: string): ListedObjects['replicaSets'] | undefined;
  statefulSet(namespace: string, name: string): ListedObjects['statefulSets'] | undefined;
  replicationController(namespace: string, name: string): ListedObjects['replicationControllers'] | undefined;
  podDisruptionBudgets(): readonly ListedObjects['podDisruptionBudgets'][];
  persistentVolumeClaim(namespace: string, name: string): ListedObjects['persistentVolumeClaims'] | undefined;
  persistentVolume(name: string): ListedObjects['persistentVolumes'] | undefined;
  storageClass(name: string): ListedObjects['storageClasses'] | undefined;
}

export interface SchedulerHost {
  readonly listers: SchedulerListers;
  /** POST pods/{name}/binding. Rejects with the API server's error (its message is reported). */
  bind(pod: Pod, nodeName: string): Promise<void>;
  /** PATCH pods/{name}/status with the PodScheduled condition and/or nominatedNodeName. */
  updatePodStatus(pod: Pod, update: PodStatusUpdate): Promise<void>;
  /** Preemption: add the DisruptionTarget condition to the victim's status, then DELETE it. */
  deletePod(victim: Pod, condition: PodCondition): Promise<void>;
  recordEvent(event: SchedulerEvent): void;
}

/** The kinds whose informer events the scheduler consumes. */
export type WatchedKind = 'Pod' | 'Node' | 'Namespace' | 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass';
