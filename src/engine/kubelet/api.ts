/**
 * Typed views of the v1 objects a kubelet reads and writes. Objects arrive from the API server
 * as plain, defaulted JSON; these interfaces name only the fields the kubelet depends on, and
 * readers still guard against missing values (a pod created with a direct nodeName skips nothing
 * of defaulting, but tests and restores may hand over sparse objects).
 */
import type { KubeObject } from '../api/types';

export type ResourceList = Readonly<Record<string, string | number>>;

export interface ContainerPort {
  name?: string;
  containerPort?: number;
  protocol?: string;
}

export interface HTTPHeader {
  name: string;
  value: string;
}

export interface Probe {
  exec?: { command?: string[] };
  httpGet?: { path?: string; port?: number | string; host?: string; scheme?: string; httpHeaders?: HTTPHeader[] };
  tcpSocket?: { port?: number | string; host?: string };
  grpc?: { port?: number; service?: string };
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface LifecycleHandler {
  exec?: { command?: string[] };
  httpGet?: { path?: string; port?: number | string };
  tcpSocket?: { port?: number | string };
  sleep?: { seconds?: number };
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  recursiveReadOnly?: string;
}

export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  ports?: ContainerPort[];
  resources?: { requests?: ResourceList; limits?: ResourceList };
  restartPolicy?: string;
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { postStart?: LifecycleHandler; preStop?: LifecycleHandler };
  volumeMounts?: VolumeMount[];
}

export interface PodSpec {
  nodeName?: string;
  containers?: Container[];
  initContainers?: Container[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  nodeSelector?: Record<string, string>;
  overhead?: ResourceList;
  readinessGates?: { conditionType: string }[];
  hostNetwork?: boolean;
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

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}

export interface ContainerStateRunning {
  startedAt?: string;
}

export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}

export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  volumeMounts?: VolumeMount[];
}

export interface PodIP {
  ip: string;
}

export interface PodStatus {
  observedGeneration?: number;
  phase?: string;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: PodIP[];
  podIP?: string;
  podIPs?: PodIP[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: string;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: PodStatus;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface NodeCondition {
  type: string;
  status: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Node extends KubeObject {
  spec?: { podCIDR?: string; podCIDRs?: string[]; taints?: Taint[]; unschedulable?: boolean; providerID?: string };
  status?: {
    capacity?: ResourceList;
    allocatable?: ResourceList;
    conditions?: NodeCondition[];
    addresses?: { type: string; address: string }[];
    [key: string]: unknown;
  };
}

export interface ObjectReference {
  apiVersion?: string;
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** A pod's "name_namespace(uid)", as the kubelet's format.Pod writes it in messages. */
export function formatPod(pod: Pod): string {
  return `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
}

export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

/** An init container with restartPolicy Always: a sidecar. */
export function isSidecar(c: Container): boolean {
  return c.restartPolicy === 'Always';
}
