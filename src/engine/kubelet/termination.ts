/**
 * Stopping a pod's containers (killPodWithSyncResult and killContainer): the regular containers
 * all at once, then the sidecars one by one in reverse order, each with what is left of the
 * grace period; each container first runs its preStop hook (for as long as the hook takes in
 * simulated time, at most the grace period), then gets SIGTERM and, at the end of what remains,
 * SIGKILL.
 */
import type { LifecycleHandler } from './api';
import type { ContainerInstance } from './containers';

export interface StopPlan {
  /** Running regular containers (and a running, non-sidecar init container). */
  readonly regular: readonly ContainerInstance[];
  /** Running sidecars, in reverse spec order. */
  readonly sidecars: readonly ContainerInstance[];
  now(): number;
  /** killContainer with this timeout (ms); resolves once the container has exited. */
  kill(instance: ContainerInstance, timeoutMs: number): Promise<void>;
}

export async function stopPodContainers(plan: StopPlan, gracePeriodMs: number): Promise<void> {
  const deadline = plan.now() + gracePeriodMs;
  await Promise.all(plan.regular.map((i) => plan.kill(i, gracePeriodMs)));
  for (const sidecar of plan.sidecars) await plan.kill(sidecar, Math.max(0, deadline - plan.now()));
}

/**
 * How long a preStop hook runs: a sleep action its seconds; an exec hook the seconds of a
 * `sleep N` in its command (the usual way to delay shutdown); anything else returns at once.
 */
export function preStopDurationMs(hook: LifecycleHandler): number {
  if (hook.sleep?.seconds !== undefined) return Math.max(0, hook.sleep.seconds) * 1000;
  const command = (hook.exec?.command ?? []).join(' ');
  const sleep = /(?:^|[\s;&|/])sleep\s+(\d+(?:\.\d+)?)s?(?:$|[\s;&|])/.exec(command);
  return sleep ? Math.round(Number(sleep[1]) * 1000) : 0;
}

/** The grace period a deletion gives the pod: what the API server set, else the pod's own. */
export function deletionGracePeriodMs(meta: { deletionGracePeriodSeconds?: number }, specSeconds: number | undefined): number {
  return (meta.deletionGracePeriodSeconds ?? specSeconds ?? 30) * 1000;
}
