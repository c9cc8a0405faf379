/**
 * The replica calculator (replica_calculator.go) for resource metrics: which pods count (ready,
 * unready, missing a sample, ignored), their requests, and the replica count a utilization or
 * average-value target asks for, with the tolerance and the conservative treatment of unready
 * and missing pods: on a scale-up they count as using nothing, on a scale-down missing pods count
 * as using their request (or the target, above 100%), and a correction that would reverse the
 * direction keeps the current count.
 */
import { metricUsageRatio, milliOf, resourceUtilizationRatio } from './metrics';
import type { Pod, PodMetricsInfo } from './types';
import { fail, ok, type Ok, type Result } from '../../api/result';

/** Tolerances: the usage ratios around 1 within which nothing changes. */
export interface Tolerances {
  scaleDown: number;
  scaleUp: number;
}

export const isWithin = (t: Tolerances, ratio: number): boolean => 1 - t.scaleDown <= ratio && ratio <= 1 + t.scaleUp;

export interface ReadinessSettings {
  /** --horizontal-pod-autoscaler-cpu-initialization-period (5m). */
  cpuInitializationPeriodMs: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay (30s). */
  delayOfInitialReadinessStatusMs: number;
  now: number;
}

export interface PodGroups {
  readyPodCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

const timeOf = (t: string | null | undefined): number | undefined => (t ? Date.parse(t) : undefined);

/** groupPods. */
export function groupPods(pods: readonly Pod[], metrics: PodMetricsInfo, resource: string, settings: ReadinessSettings): PodGroups {
  const groups: PodGroups = { readyPodCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const phase = pod.status?.phase;
    if (pod.metadata.deletionTimestamp || phase === 'Failed') {
      groups.ignored.add(name);
      continue;
    }
    if (phase === 'Pending') {
      groups.unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      groups.missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const condition = pod.status?.conditions?.find((c) => c.type === 'Ready');
      const start = timeOf(pod.status?.startTime);
      let unready: boolean;
      if (!condition || start === undefined) unready = true;
      else {
        const transition = timeOf(condition.lastTransitionTime) ?? GO_ZERO_TIME;
        if (start + settings.cpuInitializationPeriodMs > settings.now) {
          // Within the initialization period: unready, or no full metric window since Ready changed.
          unready = condition.status === 'False' || metric.timestamp < transition + metric.windowMs;
        } else {
          // Unready and never ready: Ready last changed within the initial readiness delay.
          unready = condition.status === 'False' && start + settings.delayOfInitialReadinessStatusMs > transition;
        }
      }
      if (unready) {
        groups.unready.add(name);
        continue;
      }
    }
    groups.readyPodCount++;
  }
  return groups;
}

/** Go's zero time.Time in Unix ms: an unset lastTransitionTime. */
export const GO_ZERO_TIME = -62135596800000;

const requestMilli = (requests: Record<string, string> | undefined, resource: string): number | undefined =>
  milliOf(requests && Object.hasOwn(requests, resource) ? requests[resource] : undefined);

/**
 * calculateRequests: each pod's request of the resource, from its pod-level requests (when set
 * and no container is named), else summed over its containers and sidecars, or one container's.
 */
export function calculateRequests(pods: readonly Pod[], container: string, resource: string): Result<Map<string, number>> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const podLevel = pod.spec?.resources?.requests;
    if (container === '' && podLevel && Object.keys(podLevel).length > 0) {
      const v = requestMilli(podLevel, resource);
      if (v === undefined) return fail(`missing pod-level request for ${resource} in Pod ${name}`);
      out.set(name, v);
      continue;
    }
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
    let request = 0;
    let found = false;
    for (const c of containers) {
      if (container === '' || container === c.name) {
        const v = requestMilli(c.resources?.requests, resource);
        if (v === undefined) return fail(`missing request for ${resource} in container ${c.name} of Pod ${name}`);
        request += v;
      }
      if (container === c.name) {
        found = true;
        break;
      }
    }
    if (container !== '' && !found) return fail(`container ${container} not found in Pod ${name}`);
    out.set(name, request);
  }
  return ok(out);
}

export interface ResourceReplicas {
  replicas: number;
  /** Utilization (percent of requests) of the counted pods; undefined for an average-value target. */
  utilization?: number;
  /** The average usage in milli-units. */
  rawAverage: number;
  timestamp: number;
  /** How the pods were counted, for the trace. */
  groups: PodGroups;
}

export interface ResourceInput {
  currentReplicas: number;
  resource: string;
  container: string;
  tolerances: Tolerances;
  pods: readonly Pod[];
  metrics: PodMetricsInfo;
  timestamp: number;
  settings: ReadinessSettings;
}

function removeAll(metrics: PodMetricsInfo, names: Set<string>): void {
  for (const n of names) metrics.delete(n);
}

/**
 * What both replica calculations start from: the pods grouped (groupPods) and a copy of the
 * metrics without the ignored and the unready pods' (removeMetricsForPods); an error when there
 * are no pods or no metric is left.
 */
export function countedMetrics(input: Pick<ResourceInput, 'pods' | 'metrics' | 'resource' | 'settings'>): Result<{ metrics: PodMetricsInfo; groups: PodGroups }> {
  const metrics: PodMetricsInfo = new Map(input.metrics);
  if (input.pods.length === 0) return fail('no pods returned by selector while calculating replica count');
  const groups = groupPods(input.pods, metrics, input.resource, input.settings);
  removeAll(metrics, groups.ignored);
  removeAll(metrics, groups.unready);
  if (metrics.size === 0) return fail('did not receive metrics for targeted pods (pods might be unready)');
  return ok({ metrics, groups });
}

/** GetResourceReplicas: a utilization target (percent of the pods' requests). */
export function resourceReplicas(input: ResourceInput, targetUtilization: number): Result<ResourceReplicas> {
  const { currentReplicas, resource, container, tolerances, pods, timestamp } = input;
  const counted = countedMetrics(input);
  if (!counted.ok) return counted;
  const { metrics, groups } = counted.value;
  const requested = calculateRequests(pods, container, resource);
  if (!requested.ok) return requested;
  const requests = requested.value;
  const first = resourceUtilizationRatio(metrics, requests, targetUtilization);
  if (!first.ok) return first;
  const { ratio, utilization, rawAverage } = first.value;
  const result = (replicas: number): Ok<ResourceReplicas> => ok({ replicas, utilization, rawAverage, timestamp, groups });

  const scaleUpWithUnready = groups.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && groups.missing.size === 0) {
    if (isWithin(tolerances, ratio)) return result(currentReplicas);
    return result(Math.ceil(ratio * groups.readyPodCount));
  }
  if (groups.missing.size > 0) {
    if (ratio < 1) {
      const fallback = Math.max(100, targetUtilization);
      for (const pod of groups.missing) metrics.set(pod, { timestamp: 0, windowMs: 0, value: Math.trunc(((requests.get(pod) ?? 0) * fallback) / 100) });
    } else if (ratio > 1) {
      for (const pod of groups.missing) metrics.set(pod, { timestamp: 0, windowMs: 0, value: 0 });
    }
  }
  if (scaleUpWithUnready) for (const pod of groups.unready) metrics.set(pod, { timestamp: 0, windowMs: 0, value: 0 });
  const second = resourceUtilizationRatio(metrics, requests, targetUtilization);
  if (!second.ok) return second;
  const newRatio = second.value.ratio;
  if (isWithin(tolerances, newRatio) || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1)) return result(currentReplicas);
  const newReplicas = Math.ceil(newRatio * metrics.size);
  if ((newRatio < 1 && newReplicas > currentReplicas) || (newRatio > 1 && newReplicas < currentReplicas)) return result(currentReplicas);
  return result(newReplicas);
}

/** GetRawResourceReplicas (calcPlainMetricReplicas): an average-value target in milli-units. */
export function rawResourceReplicas(input: ResourceInput, targetUsage: number): Result<ResourceReplicas> {
  const { currentReplicas, tolerances, timestamp } = input;
  const counted = countedMetrics(input);
  if (!counted.ok) return counted;
  const { metrics, groups } = counted.value;
  const { ratio, usage } = metricUsageRatio(metrics, targetUsage);
  const result = (replicas: number): Ok<ResourceReplicas> => ok({ replicas, rawAverage: usage, timestamp, groups });

  const scaleUpWithUnready = groups.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && groups.missing.size === 0) {
    if (isWithin(tolerances, ratio)) return result(currentReplicas);
    return result(Math.ceil(ratio * groups.readyPodCount));
  }
  if (groups.missing.size > 0) {
    const value = ratio < 1 ? targetUsage : ratio > 1 ? 0 : undefined;
    if (value !== undefined) for (const pod of groups.missing) metrics.set(pod, { timestamp: 0, windowMs: 0, value });
  }
  if (scaleUpWithUnready) for (const pod of groups.unready) metrics.set(pod, { timestamp: 0, windowMs: 0, value: 0 });
  const newRatio = metricUsageRatio(metrics, targetUsage).ratio;
  if (isWithin(tolerances, newRatio) || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1)) return result(currentReplicas);
  const newReplicas = Math.ceil(newRatio * metrics.size);
  if ((newRatio < 1 && newReplicas > currentReplicas) || (newRatio > 1 && newReplicas < currentReplicas)) return result(currentReplicas);
  return result(newReplicas);
}
