/**
 * The simulated processes behind container instances: a started process writes its start-up
 * lines, starts answering after its start delay, and ends when its behavior says (crash, exit,
 * OOM kill) or when it is stopped. Stopping follows the runtime's StopContainer: SIGTERM, then
 * SIGKILL once the timeout runs out (exit code 137); a process that handles SIGTERM exits 0
 * after its shutdown delay.
 */
import type { Random } from '../random';
import type { Container } from './api';
import type { ContainerBehavior } from './behavior';
import { TERMINATED, type ContainerInstance, type ExitInfo } from './containers';
import type { ImageRef } from './image-ref';
import { LogBuffer } from './logs';
import type { KubeletTimer, TimerGroup } from './timers';

/** The shortest stop timeout the kubelet gives a container (minimumGracePeriodInSeconds). */
export const MINIMUM_GRACE_PERIOD_MS = 2000;

export interface ProcessHost {
  readonly timers: TimerGroup;
  readonly random: Random;
  now(): number;
  /** The process ended (on its own or stopped). */
  exited(instance: ContainerInstance): void;
}

interface ProcessState {
  exitTimer?: KubeletTimer;
  exitAt?: number;
  killTimer?: KubeletTimer;
  waiters: (() => void)[];
}

const processes = new WeakMap<ContainerInstance, ProcessState>();

export function createInstance(random: Random, spec: Container, image: ImageRef, behavior: ContainerBehavior, now: number): ContainerInstance {
  const id = randomHex(random);
  return {
    id,
    spec,
    image,
    behavior,
    logs: new LogBuffer(`containerd://${id}`),
    createdAt: now,
    stopping: false,
    killedForRestart: false,
    started: false,
    probes: {},
  };
}

/** Starts the instance's process; `label` names its timers ("default/web nginx"). */
export function startProcess(host: ProcessHost, instance: ContainerInstance, label: string): void {
  instance.startedAt = host.now();
  runProcess(host, instance, label);
}

/**
 * Takes over the process of an instance that was already running when the kubelet started
 * (a restored cluster): its start-up lines and its end keep to the time it started.
 */
export function resumeProcess(host: ProcessHost, instance: ContainerInstance, label: string): void {
  instance.startedAt ??= host.now();
  runProcess(host, instance, label);
}

function runProcess(host: ProcessHost, instance: ContainerInstance, label: string): void {
  const now = host.now();
  const started = instance.startedAt ?? now;
  const state: ProcessState = { waiters: [] };
  processes.set(instance, state);
  const b = instance.behavior;
  const port = instance.spec.ports?.[0]?.containerPort;
  instance.logs.append(started, `starting ${instance.spec.name} (image ${instance.image.tagged})`);
  const listening = port !== undefined ? `listening on :${port}` : 'ready';
  if (started + b.startDelayMs <= now) instance.logs.append(started + b.startDelayMs, listening);
  else host.timers.set(started + b.startDelayMs - now, () => instance.logs.append(host.now(), listening), { daemon: true, label: `${label}: log` });
  if (b.exit) {
    const exit = b.exit;
    scheduleExit(host, instance, Math.max(0, started + exit.afterMs - now), () => {
      if (exit.kind === 'oom') {
        instance.logs.append(host.now(), 'allocating memory beyond the container limit');
        return { code: 137, reason: TERMINATED.oomKilled };
      }
      instance.logs.append(host.now(), exit.code === 0 ? 'work complete, exiting with code 0' : `fatal error: simulated crash, exiting with code ${exit.code}`);
      return { code: exit.code, reason: exit.code === 0 ? TERMINATED.completed : TERMINATED.error };
    }, label);
  }
}

/**
 * StopContainer: SIGTERM now, SIGKILL after `timeoutMs` (at least the 2 s minimum).
 * Resolves when the process has exited.
 */
export function stopProcess(host: ProcessHost, instance: ContainerInstance, timeoutMs: number, label: string): Promise<void> {
  const state = processes.get(instance);
  if (!state || instance.exit) return Promise.resolve();
  const done = new Promise<void>((resolve) => state.waiters.push(resolve));
  if (instance.stopping) return done;
  instance.stopping = true;
  const b = instance.behavior;
  if (b.ignoreSigterm) {
    instance.logs.append(host.now(), 'received SIGTERM, ignoring it');
  } else {
    instance.logs.append(host.now(), 'received SIGTERM, shutting down');
    scheduleExit(host, instance, b.shutdownDelayMs, () => {
      instance.logs.append(host.now(), 'shutdown complete');
      return { code: 0, reason: TERMINATED.completed };
    }, label);
  }
  state.killTimer = host.timers.set(
    Math.max(timeoutMs, MINIMUM_GRACE_PERIOD_MS),
    () => finish(host, instance, { code: 137, reason: TERMINATED.error }),
    { label: `${label}: SIGKILL` },
  );
  return done;
}

/** Ends the process at once without a trace in the API (its pod is gone). */
export function discardProcess(host: ProcessHost, instance: ContainerInstance): void {
  const state = processes.get(instance);
  if (!state || instance.exit) return;
  host.timers.clear(state.exitTimer);
  host.timers.clear(state.killTimer);
  instance.exit = { code: 137, reason: TERMINATED.error };
  instance.finishedAt = host.now();
  instance.logs.end();
  for (const w of state.waiters.splice(0)) w();
}

function scheduleExit(host: ProcessHost, instance: ContainerInstance, afterMs: number, how: () => ExitInfo, label: string): void {
  const state = processes.get(instance);
  if (!state) return;
  const at = host.now() + afterMs;
  if (state.exitAt !== undefined && state.exitAt <= at) return;
  host.timers.clear(state.exitTimer);
  state.exitAt = at;
  state.exitTimer = host.timers.set(afterMs, () => finish(host, instance, how()), { label: `${label}: exit` });
}

function finish(host: ProcessHost, instance: ContainerInstance, exit: ExitInfo): void {
  const state = processes.get(instance);
  if (!state || instance.exit) return;
  host.timers.clear(state.exitTimer);
  host.timers.clear(state.killTimer);
  instance.exit = exit;
  instance.finishedAt = host.now();
  instance.logs.end();
  host.exited(instance);
  for (const w of state.waiters.splice(0)) w();
}

function randomHex(random: Random): string {
  let out = '';
  for (let i = 0; i < 8; i++) out += random.nextUint32().toString(16).padStart(8, '0');
  return out;
}
