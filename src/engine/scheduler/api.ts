/**
 * Typed views of the v1 objects the scheduler reads. Objects arrive as plain JSON (KubeObject)
 * from the informers; these interfaces name only the fields scheduling depends on.
 */
import type { KubeObject, ObjectMeta } from '../api/types';
import type { LabelSelector } from '../api/labels';

export type ResourceList = Readonly<Record<string, string | number>>;

export interface ResourceRequirements {
  requests?: ResourceList;
  limits?: ResourceList;
}

export interface ContainerPort {
  containerPort?: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

export interface Container {
  name: string;
  image?: string;
  ports?: ContainerPort[];
  resources?: ResourceRequirements;
  restartPolicy?: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[] | null;
  matchFields?: NodeSelectorRequirement[] | null;
}

export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector | null;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[] | null;
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector | null;
  namespaces?: string[] | null;
  namespaceSelector?: LabelSelector | null;
  topologyKey: string;
  matchLabelKeys?: string[] | null;
  mismatchLabelKeys?: string[] | null;
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[] | null;
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[] | null;
}

export interface Affinity {
  nodeAffinity?: NodeAffinity | null;
  podAffinity?: PodAffinity | null;
  podAntiAffinity?: PodAffinity | null;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: string;
  labelSelector?: LabelSelector | null;
  minDomains?: number | null;
  nodeAffinityPolicy?: string | null;
  nodeTaintsPolicy?: string | null;
  matchLabelKeys?: string[] | null;
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean } | null;
  ephemeral?: unknown;
  [source: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  schedulerName?: string;
  priority?: number;
  priorityClassName?: string;
  preemptionPolicy?: string;
  nodeSelector?: Record<string, string> | null;
  affinity?: Affinity | null;
  tolerations?: Toleration[] | null;
  containers: Container[];
  initContainers?: Container[] | null;
  overhead?: ResourceList | null;
  resources?: ResourceRequirements | null;
  topologySpreadConstraints?: TopologySpreadConstraint[] | null;
  volumes?: Volume[] | null;
  schedulingGates?: { name: string }[] | null;
  resourceClaims?: { name: string }[] | null;
}

export interface PodCondition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodStatus {
  phase?: string;
  conditions?: PodCondition[];
  nominatedNodeName?: string;
  startTime?: string;
}

export interface Pod extends KubeObject {
  metadata: ObjectMeta & { name: string; namespace: string; uid: string };
  spec: PodSpec;
  status?: PodStatus;
}

export interface ContainerImage {
  names?: string[] | null;
  sizeBytes?: number;
}

export interface Node extends KubeObject {
  metadata: ObjectMeta & { name: string };
  spec?: { unschedulable?: boolean; taints?: Taint[] | null; podCIDR?: string };
  status?: {
    allocatable?: ResourceList;
    capacity?: ResourceList;
    images?: ContainerImage[] | null;
  };
}

export interface Namespace extends KubeObject {
  metadata: ObjectMeta & { name: string };
}

export interface Service extends KubeObject {
  spec?: { selector?: Record<string, string> | null };
}

/** ReplicaSet, StatefulSet: only the selector matters for default spreading. */
export interface SelectingWorkload extends KubeObject {
  spec?: { selector?: LabelSelector | null };
}

export interface ReplicationController extends KubeObject {
  spec?: { selector?: Record<string, string> | null };
}

export interface PodDisruptionBudget extends KubeObject {
  spec?: { selector?: LabelSelector | null };
  status?: { disruptionsAllowed?: number; disruptedPods?: Record<string, string> | null };
}

export interface PersistentVolumeClaim extends KubeObject {
  spec?: { volumeName?: string; storageClassName?: string | null; accessModes?: string[] };
  status?: { phase?: string };
}

export interface PersistentVolume extends KubeObject {
  spec?: { nodeAffinity?: { required?: NodeSelector | null } | null };
}

export interface StorageClass extends KubeObject {
  volumeBindingMode?: string;
}

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

export const podKey = (pod: { metadata: { namespace?: string; name?: string } }): string =>
  `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;

/** PodPriority: a pod without a resolved priority has the static default, 0. */
export const podPriority = (pod: Pod): number => pod.spec.priority ?? 0;
