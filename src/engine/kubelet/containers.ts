/**
 * The simulated container runtime's view of a pod's containers: for each container of the spec
 * a record of its current and previous instance (containerd keeps the last dead one, which is
 * what `lastState` and `kubectl logs --previous` show), its restart count, and the reason the
 * kubelet last failed to start it. `containerStatus` turns a record into the API's
 * ContainerStatus the way the kubelet's convertToAPIContainerStatuses does.
 */
import type { Container, ContainerState, ContainerStateTerminated, ContainerStatus, Pod, VolumeMount } from './api';
import type { ContainerBehavior } from './behavior';
import type { ImageRef } from './image-ref';
import type { LogBuffer } from './logs';
import type { ProbeState, ProbeType } from './probes';

export type ContainerKind = 'init' | 'sidecar' | 'regular';

export const RUNTIME_PREFIX = 'containerd://';

export const WAITING = {
  containerCreating: 'ContainerCreating',
  podInitializing: 'PodInitializing',
  crashLoopBackOff: 'CrashLoopBackOff',
  errImagePull: 'ErrImagePull',
  imagePullBackOff: 'ImagePullBackOff',
  errImageNeverPull: 'ErrImageNeverPull',
  invalidImageName: 'InvalidImageName',
  createContainerConfigError: 'CreateContainerConfigError',
} as const;

export const TERMINATED = { completed: 'Completed', error: 'Error', oomKilled: 'OOMKilled' } as const;

export interface ExitInfo {
  code: number;
  reason: string;
}

export interface ContainerInstance {
  /** 64 hex digits; the API shows it as containerd://<id>. */
  readonly id: string;
  readonly spec: Container;
  readonly image: ImageRef;
  readonly behavior: ContainerBehavior;
  readonly logs: LogBuffer;
  readonly createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exit?: ExitInfo;
  /** SIGTERM has been sent. */
  stopping: boolean;
  /** Why the kubelet is stopping it (liveness/startup failure, spec change), for the restart decision. */
  killedForRestart: boolean;
  /** The startup probe passed (or there is none). */
  started: boolean;
  readonly probes: Partial<Record<ProbeType, ProbeState>>;
}

export interface ContainerRecord {
  readonly name: string;
  readonly kind: ContainerKind;
  current?: ContainerInstance;
  previous?: ContainerInstance;
  /** Instances created so far, minus one. */
  restartCount: number;
  /** The kubelet's reason cache: why the last attempt to start the container did not. */
  waiting?: { reason: string; message?: string };
}

export function isRunning(i: ContainerInstance | undefined): boolean {
  return i !== undefined && i.startedAt !== undefined && i.exit === undefined;
}

export function hasExited(i: ContainerInstance | undefined): i is ContainerInstance & { exit: ExitInfo } {
  return i !== undefined && i.exit !== undefined;
}

/** Ready: running, started, and its readiness probe (if any) succeeding. */
export function isReady(i: ContainerInstance | undefined): boolean {
  if (!i || !isRunning(i) || !i.started) return false;
  const readiness = i.probes.readiness;
  return readiness === undefined || readiness.result === 'success';
}

export function terminatedState(i: ContainerInstance & { exit: ExitInfo }, rfc3339: (ms: number) => string): ContainerStateTerminated {
  return {
    exitCode: i.exit.code,
    reason: i.exit.reason,
    startedAt: rfc3339(i.startedAt ?? i.createdAt),
    finishedAt: rfc3339(i.finishedAt ?? i.createdAt),
    containerID: RUNTIME_PREFIX + i.id,
  };
}

export function containerStatus(pod: Pod, record: ContainerRecord, spec: Container, defaultWaiting: string, rfc3339: (ms: number) => string): ContainerStatus {
  const cur = record.current;
  if (!cur) {
    return {
      name: record.name,
      state: { waiting: waitingOf(record, defaultWaiting) },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: spec.image ?? '',
      imageID: '',
      started: false,
    };
  }
  const previous = hasExited(record.previous) ? { terminated: terminatedState(record.previous, rfc3339) } : {};
  let state: ContainerState;
  let lastState: ContainerState = previous;
  if (hasExited(cur)) {
    if (record.waiting) {
      state = { waiting: waitingOf(record, defaultWaiting) };
      lastState = { terminated: terminatedState(cur, rfc3339) };
    } else {
      state = { terminated: terminatedState(cur, rfc3339) };
    }
  } else if (cur.startedAt !== undefined) {
    state = { running: { startedAt: rfc3339(cur.startedAt) } };
  } else {
    state = { waiting: { reason: defaultWaiting } };
  }
  const status: ContainerStatus = {
    name: record.name,
    state,
    lastState,
    ready: isReady(cur),
    restartCount: record.restartCount,
    image: cur.image.tagged,
    imageID: cur.image.digested,
    containerID: RUNTIME_PREFIX + cur.id,
    started: isRunning(cur) && cur.started,
  };
  const resources = cur.spec.resources;
  if (isRunning(cur) && resources && (resources.requests || resources.limits)) status.resources = { ...resources };
  const mounts = volumeMountStatuses(cur.spec.volumeMounts);
  if (mounts.length > 0) status.volumeMounts = mounts;
  if (isRunning(cur)) Object.assign(status, { user: linuxUser(pod) });
  return status;
}

function waitingOf(record: ContainerRecord, defaultWaiting: string): { reason: string; message?: string } {
  if (!record.waiting) return { reason: defaultWaiting };
  return record.waiting.message ? { reason: record.waiting.reason, message: record.waiting.message } : { reason: record.waiting.reason };
}

function volumeMountStatuses(mounts: VolumeMount[] | undefined): VolumeMount[] {
  return (mounts ?? []).map((m) => (m.readOnly ? { name: m.name, mountPath: m.mountPath, readOnly: true, recursiveReadOnly: 'Disabled' } : { name: m.name, mountPath: m.mountPath }));
}

/** The identity the runtime reports the process runs as: the pod's runAsUser/runAsGroup, else root. */
function linuxUser(pod: Pod): { linux: { uid: number; gid: number; supplementalGroups: number[] } } {
  const sc = (pod.spec as { securityContext?: { runAsUser?: number; runAsGroup?: number; supplementalGroups?: number[] } } | undefined)?.securityContext;
  const uid = sc?.runAsUser ?? 0;
  const gid = sc?.runAsGroup ?? 0;
  const groups = [...new Set([gid, ...(sc?.supplementalGroups ?? [])])].sort((a, b) => a - b);
  return { linux: { uid, gid, supplementalGroups: groups } };
}
