/**
 * Typed views of the v1 objects the scheduler reads. Objects arrive as plain JSON (KubeObject)
 * from the informers; these interfaces name only the fields scheduling depends on.
 */
import type { KubeObject } from '../api/types';
import type { LabelSelector } from '../api/generated/meta-v1';
import type * as core from '../api/generated/core-v1';

export type {
  Affinity,
  Container,
  ContainerImage,
  ContainerPort,
  NodeAffinity,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PersistentVolume,
  PersistentVolumeClaim,
  PodAffinity,
  PodAffinityTerm,
  PodCondition,
  PodSpec,
  PodStatus,
  PreferredSchedulingTerm,
  ReplicationController,
  ResourceRequirements,
  Service,
  Taint,
  Toleration,
  TopologySpreadConstraint,
  Volume,
  WeightedPodAffinityTerm,
} from '../api/generated/core-v1';
export type { PodDisruptionBudget } from '../api/generated/policy-v1';
export type { StorageClass } from '../api/generated/storage-v1';

/** Requests, limits, allocatable: quantities as stored, or numbers where a test hands them over. */
export type ResourceList = Readonly<Record<string, string | number>>;

/** A pod as the scheduler's informers hand it over: named, namespaced, with a uid and a spec. */
export type Pod = core.Pod & { metadata: { name: string; namespace: string; uid: string }; spec: core.PodSpec };

/** A node as the scheduler's informers hand it over: named. */
export type Node = core.Node & { metadata: { name: string } };

/** A namespace as the scheduler's informers hand it over: named. */
export type Namespace = core.Namespace & { metadata: { name: string } };

/** ReplicaSet, StatefulSet: only the selector matters for default spreading. */
export interface SelectingWorkload extends KubeObject {
  spec?: { selector?: LabelSelector | null };
}

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

export const podKey = (pod: { metadata: { namespace?: string; name?: string } }): string =>
  `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;

/** PodPriority: a pod without a resolved priority has the static default, 0. */
export const podPriority = (pod: Pod): number => pod.spec.priority ?? 0;
