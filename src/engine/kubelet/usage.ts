/**
 * What a simulated container consumes: CPU (cores) and memory (working set bytes) over its
 * lifetime, as the kubelet's resource metrics (cAdvisor's container_cpu_usage_seconds_total and
 * container_memory_working_set_bytes) report them and metrics-server turns them into
 * `kubectl top` and the HorizontalPodAutoscaler's input.
 *
 * A level is a curve: points `value@time`, joined by ">", linear between points, held before the
 * first and after the last ("250m", "100m>900m@2m", "100m>100m@1m>900m@1m"). A container's own
 * levels (`cpu=`, `memory=`) count time from the container's start; a workload's CPU load
 * (`cpu-load=`) counts from the start of the first pod that carries it and is shared by the
 * ready pods that carry it (docs/behavior.md).
 *
 * Without a level, a container idles at a small CPU and memory footprint derived from its image
 * name (the same on every node and in every run).
 */
import { parseQuantity } from '../api/quantity';
import { goQuote } from '../api/gofmt';
import { parseVirtualDuration } from '../api/duration';
import { fail, ok, type Result } from '../api/result';

export interface CurvePoint {
  /** ms since the curve's origin. */
  readonly atMs: number;
  /** Nanocores for CPU, bytes for memory. */
  readonly value: number;
}

/** A piecewise-linear level over time; never empty. */
export interface Curve {
  readonly points: readonly CurvePoint[];
  /** The annotation text it came from. */
  readonly text: string;
}

export type UsageResource = 'cpu' | 'memory';

/** The levels the behavior annotation set for a container. */
export interface UsageSpec {
  cpu?: Curve;
  memory?: Curve;
  /** CPU demand of the whole workload, shared by its ready pods. */
  cpuLoad?: Curve;
}

const NANO_PER_MILLI = 1e6;
const MI = 1024 * 1024;

/**
 * A curve from the annotation's text, or the reason it is not one. CPU values are CPU
 * quantities (cores: "250m", "1.5"), memory values byte quantities ("64Mi", "1G").
 */
export function parseCurve(key: string, text: string, resource: UsageResource): Result<Curve> {
  const points: CurvePoint[] = [];
  const parts = text.split('>');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === '') return fail(`${key}: ${goQuote(text)} has an empty point (points are value@time joined by ">")`);
    const at = part.indexOf('@');
    const valueText = at < 0 ? part : part.slice(0, at);
    let atMs = 0;
    if (at >= 0) {
      const d = parseVirtualDuration(part.slice(at + 1));
      if (!d.ok) return fail(`${key}: ${d.error}`);
      atMs = d.value;
    } else if (i > 0) {
      return fail(`${key}: point ${goQuote(part)} needs a time (value@time, as in 900m@2m)`);
    }
    const parsed = parseQuantity(valueText);
    if (!parsed.ok) return fail(`${key}: ${goQuote(valueText)}: ${parsed.error}`);
    const q = parsed.value;
    if (q.sign() < 0) return fail(`${key}: ${goQuote(valueText)} must not be negative`);
    const value = resource === 'cpu' ? q.scaledValue(-9) : q.value();
    const previous = points[points.length - 1];
    if (previous && atMs < previous.atMs) return fail(`${key}: point ${goQuote(part)} comes before the point ahead of it`);
    points.push({ atMs, value });
  }
  return ok({ points, text });
}

/** The curve's value t ms after its origin. */
export function curveAt(curve: Curve, t: number): number {
  const p = curve.points;
  if (t <= p[0]!.atMs) return p[0]!.value;
  for (let i = 1; i < p.length; i++) {
    const b = p[i]!;
    if (t < b.atMs) {
      const a = p[i - 1]!;
      return a.value + ((b.value - a.value) * (t - a.atMs)) / (b.atMs - a.atMs);
    }
  }
  return p[p.length - 1]!.value;
}

/** ∫ curve dt from t0 to t1 (ms after the origin), in value·ms: exact, steps included. */
export function curveIntegral(curve: Curve, t0: number, t1: number): number {
  if (t1 <= t0) return 0;
  const p = curve.points;
  const first = p[0]!;
  const last = p[p.length - 1]!;
  let sum = 0;
  // Held before the first point and after the last.
  if (t0 < first.atMs) sum += first.value * (Math.min(t1, first.atMs) - t0);
  if (t1 > last.atMs) sum += last.value * (t1 - Math.max(t0, last.atMs));
  for (let i = 1; i < p.length; i++) {
    const a = p[i - 1]!;
    const b = p[i]!;
    const from = Math.max(t0, a.atMs);
    const to = Math.min(t1, b.atMs);
    if (to <= from) continue;
    const at = (t: number) => a.value + ((b.value - a.value) * (t - a.atMs)) / (b.atMs - a.atMs);
    sum += ((at(from) + at(to)) / 2) * (to - from);
  }
  return sum;
}

/**
 * The first time (ms after the origin) at which the curve rises above `limit`, if it ever does:
 * when a memory level passes the container's memory limit, the container is OOM-killed.
 */
export function firstCrossing(curve: Curve, limit: number): number | undefined {
  const p = curve.points;
  if (p[0]!.value > limit) return 0;
  for (let i = 1; i < p.length; i++) {
    const a = p[i - 1]!;
    const b = p[i]!;
    if (b.value <= limit) continue;
    if (b.atMs === a.atMs) return b.atMs;
    return Math.ceil(a.atMs + ((limit - a.value) * (b.atMs - a.atMs)) / (b.value - a.value));
  }
  return undefined;
}

/** FNV-1a over the text: the seed of an image's idle footprint. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** An idle container's CPU (nanocores) and working set (bytes): 1-3m and 3-12Mi, by image. */
export function idleUsage(image: string): { cpu: number; memory: number } {
  const h = fnv(image);
  return { cpu: (1 + (h % 3)) * NANO_PER_MILLI, memory: (3 + ((h >>> 4) % 10)) * MI + ((h >>> 12) % 1024) * 1024 };
}

/**
 * What a node uses besides its pods (the kubelet, containerd, the OS, and on the control-plane
 * node the control plane itself): 140-179m and 560-639Mi on a control-plane node, 20-39m and
 * 200-259Mi on a worker, by node name.
 */
export function systemUsage(controlPlane: boolean, node: string): { cpu: number; memory: number } {
  const h = fnv(node);
  const ki = ((h >>> 16) % 1024) * 1024;
  if (controlPlane) return { cpu: (140 + (h % 40)) * NANO_PER_MILLI, memory: (560 + ((h >>> 6) % 80)) * MI + ki };
  return { cpu: (20 + (h % 20)) * NANO_PER_MILLI, memory: (200 + ((h >>> 6) % 60)) * MI + ki };
}
