/**
 * Startup, readiness and liveness probes. `probeAnswer` is what the simulated application
 * answers at a given moment (from its behavior), worded as the kubelet's probers report
 * failures; `ProbeState` is the prober worker's bookkeeping: results count only after
 * failureThreshold (or successThreshold) consecutive equal answers, readiness starts as
 * failure, liveness as success, startup as unknown, and a failed liveness or startup probe
 * holds its worker until the container is replaced.
 */
import { goQuote } from '../api/gofmt';
import type { Container, Probe } from './api';
import type { ContainerBehavior } from './behavior';

export type ProbeType = 'startup' | 'readiness' | 'liveness';
export type ProbeResult = 'success' | 'failure' | 'unknown';

export const PROBE_NAMES: Readonly<Record<ProbeType, 'Startup' | 'Readiness' | 'Liveness'>> = {
  startup: 'Startup',
  readiness: 'Readiness',
  liveness: 'Liveness',
};

/** The User-Agent of the kubelet's HTTP probes. */
export const PROBE_USER_AGENT = 'kube-probe/1.35';

export interface ProbeTiming {
  initialDelayMs: number;
  periodMs: number;
  timeoutMs: number;
  successThreshold: number;
  failureThreshold: number;
}

/** The probe's timing with the API's defaults for anything missing. */
export function probeTiming(probe: Probe): ProbeTiming {
  return {
    initialDelayMs: (probe.initialDelaySeconds ?? 0) * 1000,
    periodMs: Math.max(1, probe.periodSeconds ?? 10) * 1000,
    timeoutMs: Math.max(1, probe.timeoutSeconds ?? 1) * 1000,
    successThreshold: Math.max(1, probe.successThreshold ?? 1),
    failureThreshold: Math.max(1, probe.failureThreshold ?? 3),
  };
}

export interface ProbeTarget {
  podIP: string;
  /** Where probes come from, as the application logs them. */
  sourceIP: string;
  container: Container;
}

export interface ProbeAnswer {
  ok: boolean;
  /** The prober's failure output (the text after "... probe failed: "). */
  output: string;
  /** The application's log line for the request, if it saw one. */
  log?: string;
}

/** What the application answers a probe `sinceStartMs` after its process started. */
export function probeAnswer(type: ProbeType, probe: Probe, behavior: ContainerBehavior, target: ProbeTarget, sinceStartMs: number): ProbeAnswer {
  const listening = sinceStartMs >= behavior.startDelayMs;
  const failAfter = type === 'readiness' ? behavior.failReadinessAfterMs : type === 'liveness' ? behavior.failLivenessAfterMs : undefined;
  const unhealthy = failAfter !== undefined && sinceStartMs >= failAfter;
  const timedOut = behavior.probeDelayMs >= probeTiming(probe).timeoutMs;
  const timeout = `${Math.max(1, probe.timeoutSeconds ?? 1)}s`;
  if (probe.httpGet) {
    const port = resolvePort(probe.httpGet.port, target.container);
    const host = probe.httpGet.host || target.podIP;
    const path = probe.httpGet.path || '/';
    const url = `${(probe.httpGet.scheme ?? 'HTTP').toLowerCase()}://${hostPort(host, port)}${path.startsWith('/') ? path : `/${path}`}`;
    if (!listening) return { ok: false, output: `Get ${goQuote(url)}: dial tcp ${hostPort(host, port)}: connect: connection refused` };
    if (timedOut) return { ok: false, output: `Get ${goQuote(url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)` };
    const code = unhealthy ? (type === 'readiness' ? 503 : 500) : 200;
    const log = `${target.sourceIP} - "GET ${path} HTTP/1.1" ${code} "${PROBE_USER_AGENT}"`;
    return unhealthy ? { ok: false, output: `HTTP probe failed with statuscode: ${code}`, log } : { ok: true, output: '', log };
  }
  if (probe.tcpSocket) {
    const address = hostPort(probe.tcpSocket.host || target.podIP, resolvePort(probe.tcpSocket.port, target.container));
    if (!listening || unhealthy) return { ok: false, output: `dial tcp ${address}: connect: connection refused` };
    return { ok: true, output: '' };
  }
  if (probe.grpc) {
    const address = hostPort(target.podIP, String(probe.grpc.port ?? ''));
    if (!listening) return { ok: false, output: `timeout: failed to connect service ${goQuote(address)} within ${timeout}` };
    if (timedOut) return { ok: false, output: `timeout: health rpc did not complete within ${timeout}` };
    if (unhealthy) return { ok: false, output: 'service unhealthy (responded with "NOT_SERVING")' };
    return { ok: true, output: '' };
  }
  const command = (probe.exec?.command ?? []).join(' ');
  if (timedOut) return { ok: false, output: `command ${goQuote(command)} timed out` };
  return listening && !unhealthy ? { ok: true, output: '' } : { ok: false, output: '' };
}

function resolvePort(port: number | string | undefined, container: Container): string {
  if (typeof port === 'number') return String(port);
  if (port === undefined) return '';
  if (/^\d+$/.test(port)) return port;
  const named = (container.ports ?? []).find((p) => p.name === port);
  return named?.containerPort !== undefined ? String(named.containerPort) : port;
}

function hostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The prober worker's memory of one probe of one container instance. */
export class ProbeState {
  result: ProbeResult;
  private lastResult: ProbeResult = 'unknown';
  private resultRun = 0;
  /** A failed liveness/startup probe stops probing until the container is replaced. */
  onHold = false;

  constructor(
    readonly type: ProbeType,
    readonly timing: ProbeTiming,
  ) {
    this.result = type === 'readiness' ? 'failure' : type === 'liveness' ? 'success' : 'unknown';
  }

  /** Counts one answer; returns whether the probe's result changed. */
  observe(ok: boolean): boolean {
    const result: ProbeResult = ok ? 'success' : 'failure';
    if (this.lastResult === result) this.resultRun++;
    else {
      this.lastResult = result;
      this.resultRun = 1;
    }
    if ((result === 'failure' && this.resultRun < this.timing.failureThreshold) || (result === 'success' && this.resultRun < this.timing.successThreshold)) {
      return false;
    }
    const changed = this.result !== result;
    this.result = result;
    if (this.type !== 'readiness' && result === 'failure') {
      this.onHold = true;
      this.resultRun = 0;
    }
    return changed;
  }

  /** Whether an answer would move the probe toward a different result (so the next probe matters). */
  wouldMatter(ok: boolean): boolean {
    const result: ProbeResult = ok ? 'success' : 'failure';
    return result !== this.result || (this.lastResult !== this.result && this.resultRun > 0);
  }
}
