/**
 * Typed views of the v1 objects a kubelet reads and writes. Objects arrive from the API server
 * as plain, defaulted JSON; these interfaces name only the fields the kubelet depends on, and
 * readers still guard against missing values (a pod created with a direct nodeName skips nothing
 * of defaulting, but tests and restores may hand over sparse objects).
 */
import type { Container, Pod } from '../api/generated/core-v1';

export type {
  Container,
  ContainerPort,
  ContainerState,
  ContainerStateRunning,
  ContainerStateTerminated,
  ContainerStateWaiting,
  ContainerStatus,
  HTTPHeader,
  LifecycleHandler,
  Node,
  NodeCondition,
  ObjectReference,
  Pod,
  PodCondition,
  PodIP,
  PodSpec,
  PodStatus,
  Probe,
  Taint,
  VolumeMount,
} from '../api/generated/core-v1';

/** Requests, limits, capacity: quantities as stored, or numbers where a test hands them over. */
export type ResourceList = Readonly<Record<string, string | number>>;

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
