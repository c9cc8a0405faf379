/**
 * A kubelet that starts with pods already running on its node (the cluster was restored from a
 * snapshot) takes them back, as a restarted kubelet finds its containers in the runtime: it
 * does not run them again. The simulated runtime keeps nothing across a restore, so the pod's
 * status is the record of what ran: each container comes back with its ID, image, start time,
 * restart count and last termination; running ones carry on from the time they started.
 */
import { isSidecar, type Container, type ContainerStateTerminated, type ContainerStatus, type Pod } from './api';
import type { ContainerBehavior } from './behavior';
import { RUNTIME_PREFIX, type ContainerInstance, type ContainerKind, type ContainerRecord } from './containers';
import { parseImageRef, type ImageRef } from './image-ref';
import { LogBuffer } from './logs';

/** The pod ran on this node before this kubelet started: its status names a container. */
export function ranBefore(pod: Pod): boolean {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  return statuses.some((s) => (s.containerID ?? '') !== '');
}

export interface AdoptedContainers {
  records: Map<string, ContainerRecord>;
  /** The instances whose processes run on (their probes and exits resume). */
  running: ContainerInstance[];
  images: ImageRef[];
}

function imageOf(status: ContainerStatus, spec: Container): ImageRef | undefined {
  for (const image of [status.image, spec.image]) {
    if (!image) continue;
    const ref = parseImageRef(image);
    if (ref.ok) return ref.value;
  }
  return undefined;
}

function instance(id: string, spec: Container, image: ImageRef, behavior: ContainerBehavior, startedAt: number | undefined, started: boolean): ContainerInstance {
  return { id, spec, image, behavior, logs: new LogBuffer(RUNTIME_PREFIX + id), createdAt: startedAt ?? 0, startedAt, stopping: false, killedForRestart: false, started, probes: {} };
}

function terminatedInstance(t: ContainerStateTerminated, spec: Container, image: ImageRef, behavior: ContainerBehavior, ms: (t?: string | null) => number | undefined): ContainerInstance | undefined {
  const id = (t.containerID ?? '').replace(RUNTIME_PREFIX, '');
  if (!id) return undefined;
  const i = instance(id, spec, image, behavior, ms(t.startedAt), false);
  i.exit = { code: t.exitCode ?? 0, reason: t.reason ?? '' };
  i.finishedAt = ms(t.finishedAt);
  i.logs.end();
  return i;
}

/** The pod's containers as its status reports them; `ms` reads an RFC 3339 time. */
export function adoptContainers(pod: Pod, behaviorOf: (name: string) => ContainerBehavior, ms: (t?: string | null) => number | undefined): AdoptedContainers {
  const out: AdoptedContainers = { records: new Map(), running: [], images: [] };
  const specs: [Container, ContainerKind][] = [
    ...(pod.spec?.initContainers ?? []).map((c): [Container, ContainerKind] => [c, isSidecar(c) ? 'sidecar' : 'init']),
    ...(pod.spec?.containers ?? []).map((c): [Container, ContainerKind] => [c, 'regular']),
  ];
  const statuses = new Map([...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].map((s) => [s.name, s]));
  for (const [spec, kind] of specs) {
    const status = statuses.get(spec.name);
    const image = status && imageOf(status, spec);
    if (!status || !image) continue;
    const behavior = behaviorOf(spec.name);
    const record: ContainerRecord = { name: spec.name, kind, restartCount: status.restartCount ?? 0 };
    const state = status.state ?? {};
    const last = status.lastState?.terminated ? terminatedInstance(status.lastState.terminated, spec, image, behavior, ms) : undefined;
    const id = (status.containerID ?? '').replace(RUNTIME_PREFIX, '');
    if (state.running && id) {
      const i = instance(id, spec, image, behavior, ms(state.running.startedAt), status.started ?? true);
      record.current = i;
      record.previous = last;
      out.running.push(i);
    } else if (state.terminated) {
      record.current = terminatedInstance(state.terminated, spec, image, behavior, ms);
    } else if (state.waiting && last) {
      // Exited and waiting to restart (CrashLoopBackOff): the exited instance is the current one.
      record.current = last;
      record.waiting = state.waiting.message ? { reason: state.waiting.reason ?? '', message: state.waiting.message } : { reason: state.waiting.reason ?? '' };
    } else {
      continue;
    }
    out.records.set(spec.name, record);
    out.images.push(image);
  }
  return out;
}
