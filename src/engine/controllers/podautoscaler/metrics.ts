/**
 * The HPA's resource metrics client (pkg/controller/podautoscaler/metrics): PodMetrics from
 * metrics.k8s.io turned into one sample per pod (the sum of its containers, or one container's),
 * and the utilization arithmetic (utilization.go) the replica calculator builds on.
 */
import { quantityOrUndefined } from '../../api/quantity';
import { parseMetaDuration } from '../../api/duration';
import { own } from '../../api/own';
import type { PodMetricsInfo } from './types';
import { fail, ok, type Result } from '../../api/result';

/** A metrics.k8s.io/v1beta1 PodMetrics, as the API serves it. */
export interface PodMetricsView {
  metadata: { name?: string; namespace?: string };
  timestamp?: string;
  window?: string;
  containers?: { name: string; usage?: Record<string, string> }[];
}

/** A quantity text's milli-value; undefined when it is absent or does not parse. */
export function milliOf(q: string | undefined): number | undefined {
  return q === undefined ? undefined : quantityOrUndefined(q)?.milliValue();
}

const timeOf = (t: string | undefined): number => (t ? Date.parse(t) : 0);

const windowOf = (w: string | undefined): number => {
  const ms = w ? parseMetaDuration(w) : undefined;
  return ms?.ok ? ms.value : 0;
};

/**
 * The samples of a resource (GetResourceMetric): every pod's containers summed, a pod with a
 * container lacking the resource (or with no containers) left out; with `container`, that
 * container's usage, and an error for a pod whose metrics do not list it.
 */
export function podResourceMetrics(items: readonly PodMetricsView[], resource: string, container: string): Result<{ metrics: PodMetricsInfo; timestamp: number }> {
  if (items.length === 0) return fail('no metrics returned from resource metrics API');
  const metrics: PodMetricsInfo = new Map();
  for (const m of items) {
    const name = m.metadata.name ?? '';
    const sample = { timestamp: timeOf(m.timestamp), windowMs: windowOf(m.window) };
    const containers = m.containers ?? [];
    if (container !== '') {
      const c = containers.find((x) => x.name === container);
      if (!c) return fail(`failed to get container metrics: container ${container} not present in metrics for pod ${m.metadata.namespace ?? ''}/${name}`);
      const value = milliOf(own(c.usage, resource));
      if (value !== undefined) metrics.set(name, { ...sample, value });
      continue;
    }
    let sum = 0;
    let missing = containers.length === 0;
    for (const c of containers) {
      const value = milliOf(own(c.usage, resource));
      if (value === undefined) {
        missing = true;
        break;
      }
      sum += value;
    }
    if (!missing) metrics.set(name, { ...sample, value: sum });
  }
  return ok({ metrics, timestamp: timeOf(items[0]!.timestamp) });
}

export interface UtilizationRatio {
  ratio: number;
  /** Whole percent of the requests, truncated as Go's integer division does. */
  utilization: number;
  /** The average sample in milli-units. */
  rawAverage: number;
}

/** GetResourceUtilizationRatio: pods without a request are extraneous metrics. */
export function resourceUtilizationRatio(metrics: PodMetricsInfo, requests: ReadonlyMap<string, number>, targetUtilization: number): Result<UtilizationRatio> {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [pod, m] of metrics) {
    const request = requests.get(pod);
    if (request === undefined) continue;
    metricsTotal += m.value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) return fail('no metrics returned matched known pods');
  const utilization = clampInt32(Math.trunc((metricsTotal * 100) / requestsTotal));
  return ok({ ratio: utilization / targetUtilization, utilization, rawAverage: Math.trunc(metricsTotal / entries) });
}

/** GetMetricUsageRatio: the average sample over the target. */
export function metricUsageRatio(metrics: PodMetricsInfo, targetUsage: number): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / targetUsage, usage };
}

const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);

function clampInt32(n: number): number {
  return n > INT32_MAX ? INT32_MAX : n < INT32_MIN ? INT32_MIN : n;
}
