/**
 * The kubelet's resource metrics endpoint (/metrics/resource, what metrics-server scrapes): for
 * the node and for every running container, the start time, the sample's timestamp, the
 * cumulative CPU time used (container_cpu_usage_seconds_total, in ns here) and the memory
 * working set. The CPU counter advances at each sample by the container's level over the time
 * since the previous sample (usage.ts), plus its pod's share of any workload load while the pod
 * is ready, capped at the container's CPU limit; the node's counter is its containers' plus
 * what the node's own daemons use.
 */
import { quantityOrUndefined } from '../api/quantity';
import type { Container } from './api';
import { isRunning, type ContainerInstance } from './containers';
import type { PodWorker } from './pod-workers';
import type { SharedLoad } from './shared-load';
import { curveAt, curveIntegral, idleUsage, systemUsage } from './usage';

export interface MetricsPoint {
  /** ms since the epoch: when the container (or the node) started. */
  readonly startTime: number;
  /** ms since the epoch: when the sample was taken. */
  readonly timestamp: number;
  /** CPU time used since start, in nanoseconds. */
  readonly cumulativeCpuNs: number;
  /** Working set, in bytes. */
  readonly memoryBytes: number;
}

export interface PodMetricsPoint {
  readonly namespace: string;
  readonly name: string;
  readonly containers: ReadonlyMap<string, MetricsPoint>;
}

export interface ResourceMetricsBatch {
  readonly node: MetricsPoint;
  readonly pods: readonly PodMetricsPoint[];
}

interface CpuCounter {
  at: number;
  cumulativeNs: number;
}

/** The container's limit of a resource (nanocores for CPU, bytes for memory), if it has one. */
function limitOf(spec: Container, resource: 'cpu' | 'memory'): number | undefined {
  const text = spec.resources?.limits?.[resource];
  if (text === undefined) return undefined;
  const q = quantityOrUndefined(String(text));
  if (!q) return undefined;
  return resource === 'cpu' ? q.scaledValue(-9) : q.value();
}

export class ResourceMetrics {
  private readonly counters = new WeakMap<ContainerInstance, CpuCounter>();
  private node: CpuCounter | undefined;
  private readonly system: { cpu: number; memory: number };

  constructor(
    private readonly sharedLoad: SharedLoad,
    private readonly nodeStartedAt: number,
    node: string,
    controlPlane: boolean,
  ) {
    this.system = systemUsage(controlPlane, node);
  }

  /** A sample of the node and of every running container of its active pods, at `now`. */
  collect(workers: Iterable<PodWorker>, now: number): ResourceMetricsBatch {
    const node = (this.node ??= { at: this.nodeStartedAt, cumulativeNs: 0 });
    let cpuAdded = node.at < now ? (this.system.cpu * (now - node.at)) / 1000 : 0;
    let memory = this.system.memory;
    const pods: PodMetricsPoint[] = [];
    for (const w of workers) {
      if (!w.active) continue;
      const share = this.shareOf(w, now);
      const containers = new Map<string, MetricsPoint>();
      for (const record of w.records.values()) {
        const i = record.current;
        if (!i || !isRunning(i) || i.startedAt! > now) continue;
        const before = this.counters.get(i)?.cumulativeNs ?? 0;
        const point = this.sample(i, now, share);
        cpuAdded += point.cumulativeCpuNs - before;
        memory += point.memoryBytes;
        containers.set(record.name, point);
      }
      if (containers.size > 0) pods.push({ namespace: w.pod.metadata.namespace ?? '', name: w.pod.metadata.name ?? '', containers });
    }
    node.cumulativeNs += cpuAdded;
    node.at = Math.max(node.at, now);
    return { node: { startTime: this.nodeStartedAt, timestamp: now, cumulativeCpuNs: node.cumulativeNs, memoryBytes: memory }, pods };
  }

  /** The pod's part of its group's load curve: the curve divided by the group's ready pods. */
  private shareOf(w: PodWorker, now: number): { key: string; origin: number; fraction: number } | undefined {
    if (w.loadKey === undefined || !w.servingReady()) return undefined;
    const origin = this.sharedLoad.origin(w.loadKey);
    const ready = this.sharedLoad.readyCount(w.loadKey, now);
    if (origin === undefined || ready === 0) return undefined;
    return { key: w.loadKey, origin, fraction: 1 / ready };
  }

  private sample(i: ContainerInstance, now: number, share: { origin: number; fraction: number } | undefined): MetricsPoint {
    const start = i.startedAt!;
    const counter = this.counters.get(i) ?? { at: start, cumulativeNs: 0 };
    this.counters.set(i, counter);
    const usage = i.behavior.usage;
    const idle = idleUsage(i.spec.image ?? '');
    if (now > counter.at) {
      const dt = now - counter.at;
      // nanocores * ms
      let integral = usage?.cpu ? curveIntegral(usage.cpu, counter.at - start, now - start) : idle.cpu * dt;
      if (share && usage?.cpuLoad) integral += curveIntegral(usage.cpuLoad, counter.at - share.origin, now - share.origin) * share.fraction;
      const limit = limitOf(i.spec, 'cpu');
      if (limit !== undefined) integral = Math.min(integral, limit * dt);
      counter.cumulativeNs += integral / 1000;
      counter.at = now;
    }
    // A level above the memory limit ends in an OOM kill (behavior.ts); the idle footprint stays under it.
    const memoryLimit = limitOf(i.spec, 'memory');
    const memory = usage?.memory ? curveAt(usage.memory, now - start) : idle.memory;
    const memoryBytes = Math.round(memoryLimit !== undefined ? Math.min(memory, memoryLimit) : memory);
    return { startTime: start, timestamp: now, cumulativeCpuNs: counter.cumulativeNs, memoryBytes };
  }
}
