/**
 * Simulated container output. Each container instance writes deterministic lines (start-up,
 * probe hits, shutdown, crashes) stamped with virtual time into a bounded buffer; the kubelet
 * keeps the current and the previous instance of each container, as `kubectl logs [--previous]`
 * can see them. Reading applies the kubelet's log options (tailLines, sinceSeconds/sinceTime,
 * timestamps, limitBytes) and its refusals ("... is waiting to start: ContainerCreating").
 */
import { badRequestError } from '../api/status';
import { goQuote } from '../api/gofmt';
import type { ContainerStatus, Pod, PodStatus } from './api';

/** Lines kept per container instance; older ones fall off, as a rotated log file would. */
export const LOG_LINES_PER_INSTANCE = 256;

export interface LogLine {
  readonly time: number;
  readonly text: string;
}

export type LogListener = (line: LogLine) => void;

export class LogBuffer {
  private readonly lines: LogLine[] = [];
  private readonly listeners = new Set<LogListener>();
  private endListeners = new Set<() => void>();
  private ended = false;

  constructor(readonly containerID: string) {}

  append(time: number, text: string): void {
    if (this.ended) return;
    const line = { time, text };
    this.lines.push(line);
    if (this.lines.length > LOG_LINES_PER_INSTANCE) this.lines.shift();
    for (const l of [...this.listeners]) l(line);
  }

  /** The instance exited: followers are told, and nothing more is written. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const l of [...this.endListeners]) l();
    this.listeners.clear();
    this.endListeners.clear();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  all(): readonly LogLine[] {
    return this.lines;
  }

  follow(listener: LogListener, onEnd: () => void): () => void {
    if (this.ended) {
      onEnd();
      return () => undefined;
    }
    this.listeners.add(listener);
    this.endListeners.add(onEnd);
    return () => {
      this.listeners.delete(listener);
      this.endListeners.delete(onEnd);
    };
  }
}

export interface LogOptions {
  previous?: boolean;
  timestamps?: boolean;
  /** Only the last N lines. */
  tailLines?: number;
  /** Only lines newer than this many seconds. */
  sinceSeconds?: number;
  /** Only lines at or after this RFC 3339 time. */
  sinceTime?: string;
  /** Stop after this many bytes. */
  limitBytes?: number;
}

/** RFC 3339 with nine fractional digits, as the kubelet prints --timestamps. */
export function logTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

export function formatLogLine(line: LogLine, timestamps: boolean | undefined): string {
  return `${timestamps ? `${logTimestamp(line.time)} ` : ''}${line.text}\n`;
}

/** The lines a read returns, after since/tail, as text (limitBytes applied by the caller). */
export function selectLines(lines: readonly LogLine[], options: LogOptions, now: number): LogLine[] {
  let since = -Infinity;
  if (options.sinceSeconds !== undefined) since = now - options.sinceSeconds * 1000;
  if (options.sinceTime !== undefined) {
    const t = Date.parse(options.sinceTime);
    if (!Number.isNaN(t)) since = Math.max(since, t);
  }
  let out = lines.filter((l) => l.time >= since);
  if (options.tailLines !== undefined && options.tailLines >= 0) out = options.tailLines === 0 ? [] : out.slice(-options.tailLines);
  return out;
}

export function limitBytes(text: string, limit: number | undefined): string {
  if (limit === undefined || limit < 0) return text;
  const bytes = new TextEncoder().encode(text);
  return bytes.length <= limit ? text : new TextDecoder().decode(bytes.subarray(0, limit));
}

/**
 * The apiserver's choice of container for a pods/log request (pod strategy LogLocation): the
 * named one, which must exist, or the only container of the pod.
 */
export function resolveLogContainer(pod: Pod, container: string | undefined): string {
  const name = pod.metadata.name ?? '';
  const containers = (pod.spec?.containers ?? []).map((c) => c.name);
  const inits = (pod.spec?.initContainers ?? []).map((c) => c.name);
  if (!container) {
    if (containers.length === 1) return containers[0]!;
    if (containers.length === 0) throw badRequestError(`a container name must be specified for pod ${name}`);
    let message = `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`;
    if (inits.length > 0) message += ` or one of the init containers: [${inits.join(' ')}]`;
    throw badRequestError(message);
  }
  if (!containers.includes(container) && !inits.includes(container)) throw badRequestError(`container ${container} is not valid for pod ${name}`);
  return container;
}

/**
 * kubelet's validateContainerLogStatus: which instance's logs a read gets (its container ID),
 * judged from the status the kubelet last generated, or the refusal in the kubelet's words.
 */
export function logContainerID(podName: string, status: PodStatus, container: string, previous: boolean): string {
  const all: ContainerStatus[] = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])];
  const s = all.find((c) => c.name === container);
  const q = (v: string) => goQuote(v);
  if (!s) throw badRequestError(`container ${q(container)} in pod ${q(podName)} is not available`);
  const last = s.lastState?.terminated;
  const { waiting, running, terminated } = s.state ?? {};
  if (previous) {
    if (!last?.containerID) throw badRequestError(`previous terminated container ${q(container)} in pod ${q(podName)} not found`);
    return last.containerID;
  }
  if (running) return s.containerID ?? '';
  if (terminated) {
    if (terminated.containerID) return terminated.containerID;
    if (last?.containerID) return last.containerID;
    throw badRequestError(`container ${q(container)} in pod ${q(podName)} is terminated`);
  }
  if (last) {
    if (!last.containerID) throw badRequestError(`container ${q(container)} in pod ${q(podName)} is terminated`);
    return last.containerID;
  }
  if (waiting) {
    const why =
      waiting.reason === 'ErrImagePull' ? "image can't be pulled" : waiting.reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : waiting.reason ?? '';
    throw badRequestError(`container ${q(container)} in pod ${q(podName)} is waiting to start: ${why}`);
  }
  throw badRequestError(`container ${q(container)} in pod ${q(podName)} is waiting to start - no logs yet`);
}
