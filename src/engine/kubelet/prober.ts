/**
 * The prober workers of one container instance, on its timeline: the startup probe from
 * initialDelaySeconds after the process started, every periodSeconds; readiness and liveness
 * once the container has started (and not before their own initial delay). Every failed answer
 * is reported (the kubelet's Unhealthy event); a change of result is reported once the
 * threshold is reached.
 *
 * A probe whose answers cannot change anything any more runs on a daemon timer, so a cluster
 * whose probes only confirm what is known can settle; a probe that is about to change a result,
 * or whose application will answer differently later on, keeps it awake.
 */
import type { Probe } from './api';
import { isRunning, type ContainerInstance } from './containers';
import { probeAnswer, ProbeState, probeTiming, type ProbeResult, type ProbeTarget, type ProbeType } from './probes';
import type { KubeletTimer, TimerGroup } from './timers';

export interface ProberHost {
  readonly timers: TimerGroup;
  now(): number;
  target(instance: ContainerInstance): ProbeTarget;
  /** A probe's result changed (startup success, readiness either way, liveness/startup failure). */
  resultChanged(instance: ContainerInstance, type: ProbeType, result: ProbeResult): void;
  /** One failed answer (the Unhealthy event). */
  failed(instance: ContainerInstance, type: ProbeType, output: string): void;
}

const workers = new WeakMap<ContainerInstance, Map<ProbeType, KubeletTimer>>();

function probeOf(instance: ContainerInstance, type: ProbeType): Probe | undefined {
  return type === 'startup' ? instance.spec.startupProbe : type === 'readiness' ? instance.spec.readinessProbe : instance.spec.livenessProbe;
}

/** Sets up the probes of a just-started instance. */
export function startProbes(host: ProberHost, instance: ContainerInstance, label: string): void {
  workers.set(instance, new Map());
  for (const type of ['startup', 'readiness', 'liveness'] as const) {
    const probe = probeOf(instance, type);
    if (probe) instance.probes[type] = new ProbeState(type, probeTiming(probe));
  }
  if (instance.probes.startup) schedule(host, instance, 'startup', label, firstProbeAt(instance, 'startup', host.now()));
  else {
    instance.started = true;
    startAfterStartup(host, instance, label);
  }
}

/** Stops some (or all) of an instance's probes. */
export function stopProbes(host: ProberHost, instance: ContainerInstance, types: readonly ProbeType[] = ['startup', 'readiness', 'liveness']): void {
  const timers = workers.get(instance);
  if (!timers) return;
  for (const type of types) {
    host.timers.clear(timers.get(type));
    timers.delete(type);
  }
}

function startAfterStartup(host: ProberHost, instance: ContainerInstance, label: string): void {
  const now = host.now();
  for (const type of ['readiness', 'liveness'] as const) {
    if (instance.probes[type]) schedule(host, instance, type, label, firstProbeAt(instance, type, now));
  }
}

function firstProbeAt(instance: ContainerInstance, type: ProbeType, now: number): number {
  const state = instance.probes[type]!;
  return Math.max(now, (instance.startedAt ?? now) + state.timing.initialDelayMs);
}

function schedule(host: ProberHost, instance: ContainerInstance, type: ProbeType, label: string, at: number): void {
  const timers = workers.get(instance);
  const state = instance.probes[type];
  const probe = probeOf(instance, type);
  if (!timers || !state || !probe) return;
  const sinceStart = at - (instance.startedAt ?? at);
  const answer = probeAnswer(type, probe, instance.behavior, host.target(instance), sinceStart);
  const daemon = !state.wouldMatter(answer.ok) && !answersWillChange(instance, type, sinceStart);
  timers.set(type, host.timers.set(at - host.now(), () => tick(host, instance, type, label), { daemon, label: `${label}: ${type} probe` }));
}

/** Whether the application's answers to this probe change after `sinceStartMs` (it starts listening, or starts failing). */
function answersWillChange(instance: ContainerInstance, type: ProbeType, sinceStartMs: number): boolean {
  const b = instance.behavior;
  const failAfter = type === 'readiness' ? b.failReadinessAfterMs : type === 'liveness' ? b.failLivenessAfterMs : undefined;
  return b.startDelayMs > sinceStartMs || (failAfter !== undefined && failAfter > sinceStartMs);
}

function tick(host: ProberHost, instance: ContainerInstance, type: ProbeType, label: string): void {
  const state = instance.probes[type];
  const probe = probeOf(instance, type);
  if (!state || !probe || !isRunning(instance) || state.onHold) return;
  const now = host.now();
  const answer = probeAnswer(type, probe, instance.behavior, host.target(instance), now - (instance.startedAt ?? now));
  if (answer.log) instance.logs.append(now, answer.log);
  if (!answer.ok) host.failed(instance, type, answer.output);
  const changed = state.observe(answer.ok);
  if (type === 'startup' && state.result === 'success') {
    instance.started = true;
    stopProbes(host, instance, ['startup']);
    host.resultChanged(instance, type, state.result);
    startAfterStartup(host, instance, label);
    return;
  }
  if (changed) host.resultChanged(instance, type, state.result);
  if (state.onHold || !isRunning(instance)) return;
  schedule(host, instance, type, label, now + state.timing.periodMs);
}
