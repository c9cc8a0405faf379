/**
 * The runtime manager's container operations (pkg/kubelet/kuberuntime/kuberuntime_container.go):
 * startContainer behind the restart back-off (doBackOff), the image (image-manager.ts) and the
 * container's ConfigMap and Secret references, then create and start with their events;
 * killContainer with the Killing event, the preStop hook and the grace period; the order in
 * which a pod's containers are stopped (regular and init containers together, then sidecars in
 * reverse).
 */
import { isSidecar, type Container } from './api';
import { MAX_BACKOFF_MS } from './backoff';
import { containerConfigError } from './config-refs';
import { isRunning, hasExited, WAITING, type ContainerInstance, type ContainerKind } from './containers';
import { containerRef, MESSAGE, REASON } from './events';
import { ensureImage } from './image-manager';
import type { PodWorker } from './pod-workers';
import { startProbes, stopProbes } from './prober';
import { createInstance, startProcess, stopProcess } from './runtime';
import { preStopDurationMs } from './termination';

/** CreateContainer takes this long (the Created and Started events come together after it). */
export const CONTAINER_CREATE_MS = 100;
/** A container whose configuration fails is tried again after the pod worker's back-off period. */
export const SYNC_RETRY_MS = 10_000;
/** How long retries of a failing configuration keep the cluster from settling. */
const CONFIG_RETRY_WINDOW_MS = 5 * 60_000;

/** startContainer with the kubelet's doBackOff in front: false if the container did not start. */
export async function startContainer(w: PodWorker, spec: Container, kind: ContainerKind): Promise<boolean> {
  const record = w.recordFor(spec.name, kind);
  const ref = containerRef(w.pod, spec.name, kind !== 'regular');
  const cur = record.current;
  if (hasExited(cur)) {
    const key = `${w.uid}_${spec.name}`;
    const finishedAt = cur.finishedAt ?? w.now();
    if (w.ctx.restartBackoff.isInBackOffSince(key, finishedAt, w.now())) {
      const backoff = w.ctx.restartBackoff.get(key);
      w.setWaiting(record, WAITING.crashLoopBackOff, MESSAGE.crashLoopWaiting(spec.name, w.pod, backoff), () => {
        w.event(ref, 'Warning', REASON.backOff, MESSAGE.backOffRestart(spec.name, w.pod));
        w.note('container-back-off', `restart in ${backoff / 1000}s`, spec.name);
      });
      w.wake(`restart ${spec.name}`, finishedAt + backoff, backoff >= MAX_BACKOFF_MS);
      return false;
    }
    w.ctx.restartBackoff.next(key, finishedAt, w.now());
  }
  const image = await ensureImage(w, spec, record, ref);
  if (!image || w.stopped()) return false;
  const configError = await containerConfigError(spec, w.pod.metadata.namespace ?? '', (kind, name) => w.ctx.lookup(w.pod, kind, name));
  if (w.stopped()) return false;
  if (configError) {
    w.setWaiting(record, WAITING.createContainerConfigError, configError, () => {
      w.event(ref, 'Warning', REASON.failed, MESSAGE.error(configError));
      w.note('container-config-error', configError, spec.name);
    });
    const since = (w.configFailingSince ??= w.now());
    w.wake('config', w.now() + SYNC_RETRY_MS, w.now() - since >= CONFIG_RETRY_WINDOW_MS);
    return false;
  }
  w.configFailingSince = undefined;
  await w.sleep(CONTAINER_CREATE_MS, `create ${spec.name}`);
  if (w.stopped()) return false;
  const instance = createInstance(w.ctx.random, spec, image, w.behaviorOf(spec.name), w.now());
  if (cur) {
    record.previous = cur;
    record.restartCount++;
  }
  record.current = instance;
  record.waiting = undefined;
  w.event(ref, 'Normal', REASON.created, MESSAGE.created);
  w.note('container-created', `containerd://${instance.id.slice(0, 12)}`, spec.name);
  startProcess(w, instance, w.label(spec.name));
  w.event(ref, 'Normal', REASON.started, MESSAGE.started);
  w.note('container-started', `restart count ${record.restartCount}`, spec.name);
  startProbes(w, instance, w.label(spec.name));
  w.requestSync();
  return true;
}

export function killForRestart(w: PodWorker, instance: ContainerInstance, message: string, graceMs: number): void {
  instance.killedForRestart = true;
  stopProbes(w, instance);
  w.ctx.timers.set(0, () => killContainer(w, instance, graceMs, message), { label: `${w.label(instance.spec.name)}: kill` });
}

/** killContainer: the Killing event, the preStop hook, then SIGTERM and SIGKILL at the timeout. */
export async function killContainer(w: PodWorker, instance: ContainerInstance, timeoutMs: number, message?: string): Promise<void> {
  if (instance.exit) return;
  const name = instance.spec.name;
  const kind = w.records.get(name)?.kind ?? 'regular';
  w.event(containerRef(w.pod, name, kind !== 'regular'), 'Normal', REASON.killing, message ?? MESSAGE.stopping(name));
  w.note('container-killing', message ?? `grace period ${timeoutMs / 1000}s`, name);
  let remaining = timeoutMs;
  const preStop = instance.spec.lifecycle?.preStop;
  if (preStop && remaining > 0) {
    const hookMs = Math.min(preStopDurationMs(preStop), remaining);
    if (hookMs > 0) await w.sleep(hookMs, `${name} preStop`);
    remaining -= hookMs;
  }
  await stopProcess(w, instance, remaining, w.label(name));
}

export function stopPlan(w: PodWorker) {
  const running = (cs: readonly Container[]) =>
    cs.map((c) => w.records.get(c.name)?.current).filter((i): i is ContainerInstance => i !== undefined && isRunning(i));
  const inits = w.pod.spec?.initContainers ?? [];
  return {
    regular: [...running(inits.filter((c) => !isSidecar(c))), ...running(w.pod.spec?.containers ?? [])],
    sidecars: running(inits.filter(isSidecar)).reverse(),
    now: () => w.now(),
    kill: (i: ContainerInstance, timeoutMs: number) => killContainer(w, i, timeoutMs),
  };
}
