/**
 * metrics-server's in-memory storage (pkg/storage): of every scrape it keeps the last point and
 * the one before, per node and per container, and serves usage as the rate between them: CPU is
 * the cumulative CPU time gained over the window, memory the last working set. So a node or a
 * pod is served only from its second scrape on, except a container that started between 10 s
 * and one resolution before a scrape: for it, its start (with no CPU used) stands in for the
 * earlier point. A container whose start time changed (it restarted) starts over.
 */
import type { MetricsPoint, ResourceMetricsBatch } from '../../kubelet';
import { fail, ok, type Result } from '../../api/result';

/** pkg/storage's freshContainerMinMetricsResolution. */
export const FRESH_CONTAINER_MIN_RESOLUTION_MS = 10_000;

export interface Usage {
  /** Nanocores. */
  readonly cpu: number;
  /** Bytes. */
  readonly memory: number;
  /** ms since the epoch: the later point's time. */
  readonly timestamp: number;
  /** ms between the two points. */
  readonly windowMs: number;
}

export interface ContainerUsage extends Usage {
  readonly name: string;
}

/** What one scrape of every node returned. */
export interface MetricsBatch {
  readonly nodes: ReadonlyMap<string, MetricsPoint>;
  /** Keyed "<namespace>/<name>": each container's point. */
  readonly pods: ReadonlyMap<string, ReadonlyMap<string, MetricsPoint>>;
}

/** The batch of a scrape: the nodes' answers, each pod under "<namespace>/<name>". */
export function metricsBatch(answers: ReadonlyMap<string, ResourceMetricsBatch>): MetricsBatch {
  const nodes = new Map<string, MetricsPoint>();
  const pods = new Map<string, ReadonlyMap<string, MetricsPoint>>();
  for (const [node, answer] of answers) {
    nodes.set(node, answer.node);
    for (const p of answer.pods) {
      const key = `${p.namespace}/${p.name}`;
      // A duplicate pod point (two nodes report the pod) is dropped, as upstream logs and drops it.
      if (!pods.has(key)) pods.set(key, p.containers);
    }
  }
  return { nodes, pods };
}

/** resourceUsage: the rate between two points, or why there is none. */
export function resourceUsage(last: MetricsPoint, prev: MetricsPoint): Result<Usage> {
  if (last.startTime < prev.startTime) return fail('unexpected decrease in startTime of node/container');
  if (last.cumulativeCpuNs < prev.cumulativeCpuNs) return fail('unexpected decrease in cumulative CPU usage value');
  const windowMs = last.timestamp - prev.timestamp;
  // Whole nanocores (uint64 in metrics-server).
  const cpu = Math.trunc((last.cumulativeCpuNs - prev.cumulativeCpuNs) / (windowMs / 1000));
  return ok({ cpu, memory: last.memoryBytes, timestamp: last.timestamp, windowMs });
}

export class NodeStorage {
  private last = new Map<string, MetricsPoint>();
  private prev = new Map<string, MetricsPoint>();

  get ready(): boolean {
    return this.prev.size > 0;
  }

  usage(node: string): Usage | undefined {
    const last = this.last.get(node);
    const prev = this.prev.get(node);
    if (!last || !prev) return undefined;
    const u = resourceUsage(last, prev);
    return u.ok ? u.value : undefined;
  }

  store(batch: MetricsBatch): void {
    const last = new Map<string, MetricsPoint>();
    const prev = new Map<string, MetricsPoint>();
    for (const [node, point] of batch.nodes) {
      last.set(node, point);
      const lastPoint = this.last.get(node);
      if (!lastPoint) continue;
      if (point.timestamp > lastPoint.timestamp) prev.set(node, lastPoint);
      else {
        const prevPoint = this.prev.get(node);
        if (prevPoint && prevPoint.timestamp < point.timestamp) prev.set(node, prevPoint);
      }
    }
    this.last = last;
    this.prev = prev;
  }
}

export class PodStorage {
  private last = new Map<string, ReadonlyMap<string, MetricsPoint>>();
  private prev = new Map<string, ReadonlyMap<string, MetricsPoint>>();

  constructor(private readonly resolutionMs: number) {}

  get ready(): boolean {
    return this.prev.size > 0;
  }

  /** The pod's containers' usage, or undefined when a container has no earlier point yet. */
  usage(key: string): ContainerUsage[] | undefined {
    const last = this.last.get(key);
    const prev = this.prev.get(key);
    if (!last || !prev) return undefined;
    const out: ContainerUsage[] = [];
    for (const [name, lastPoint] of last) {
      const prevPoint = prev.get(name);
      if (!prevPoint) return undefined;
      const u = resourceUsage(lastPoint, prevPoint);
      // A container with unusable points is skipped (upstream logs it).
      if (!u.ok) continue;
      out.push({ name, ...u.value });
    }
    return out;
  }

  store(batch: MetricsBatch): void {
    const last = new Map<string, ReadonlyMap<string, MetricsPoint>>();
    const prev = new Map<string, ReadonlyMap<string, MetricsPoint>>();
    for (const [key, containers] of batch.pods) {
      const newPrev = new Map<string, MetricsPoint>();
      const lastPod = this.last.get(key);
      const prevPod = this.prev.get(key);
      for (const [name, point] of containers) {
        const sinceStart = point.timestamp - point.startTime;
        if (point.startTime < point.timestamp && sinceStart < this.resolutionMs && sinceStart >= FRESH_CONTAINER_MIN_RESOLUTION_MS) {
          // A fresh container: its start, with nothing used yet, is the earlier point.
          newPrev.set(name, { ...point, timestamp: point.startTime, cumulativeCpuNs: 0 });
          continue;
        }
        const lastPoint = lastPod?.get(name);
        if (!lastPoint || !(point.startTime < lastPoint.timestamp)) continue;
        if (point.timestamp > lastPoint.timestamp) newPrev.set(name, lastPoint);
        else {
          const prevPoint = prevPod?.get(name);
          if (prevPoint && prevPoint.timestamp < point.timestamp) newPrev.set(name, prevPoint);
        }
      }
      if (newPrev.size > 0) prev.set(key, newPrev);
      last.set(key, containers);
    }
    this.last = last;
    this.prev = prev;
  }
}
