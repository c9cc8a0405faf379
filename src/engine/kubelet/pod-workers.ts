/**
 * One pod worker per pod bound to the node (pod_workers.go): syncs of a pod run one at a time, a
 * request while one runs asks for one more after it, and timed wake-ups (a back-off ending, the
 * PLEG's next relist) ask for a sync at their time. Each sync (the kubelet's SyncPod) first
 * reports the status the runtime shows (status-manager.ts), then takes the next steps: the
 * volumes (volume-manager.ts), the sandbox and its IP (kuberuntime-sandbox.ts), the init and
 * regular containers (kuberuntime-manager.ts), each started after its image is there
 * (kuberuntime-container.ts, image-manager.ts). A container start, exit or probe result asks for
 * another sync, as the kubelet's PLEG does. Deletion runs the graceful termination (SyncTerminatingPod);
 * a finished pod reports its terminal phase and, if it is being deleted, is removed with grace period 0.
 *
 * The worker holds the pod's state on the node; the sync steps in those files read and change it
 * through the worker (nothing outside src/engine/kubelet/ does).
 */
import type { KubeObject } from '../api/types';
import { deepEqual } from '../api/deep-equal';
import type { Random } from '../random';
import type { KubeletAction } from '../trace/kubelet';
import { adoptContainers } from './adopt';
import { podKey, type Pod } from './api';
import type { Backoff } from './backoff';
import { BEHAVIOR_ANNOTATION, podBehavior, type ContainerBehavior, type PodBehavior } from './behavior';
import type { ConfigKind } from './config-refs';
import { isReady, isRunning, type ContainerInstance, type ContainerKind, type ContainerRecord } from './containers';
import { containerRef, MESSAGE, podRef, REASON, type EventSink, type EventType } from './events';
import type { ImageService } from './images';
import type { IpAllocator } from './ip-allocator';
import { killForRestart, stopPlan } from './kuberuntime-container';
import { podFinished, syncContainers, syncInitContainers } from './kuberuntime-manager';
import { createSandbox } from './kuberuntime-sandbox';
import { generatePodStatus, rejectedPodStatus } from './pod-status';
import { startProbes, stopProbes, type ProberHost } from './prober';
import { PROBE_NAMES, type ProbeResult, type ProbeTarget, type ProbeType } from './probes';
import { discardProcess, resumeProcess, type ProcessHost } from './runtime';
import { SharedLoad, type LoadMember } from './shared-load';
import type { StatusManager } from './status-manager';
import { deletionGracePeriodMs, stopPodContainers } from './termination';
import type { KubeletTimer, TimerGroup } from './timers';
import { mountVolumes } from './volume-manager';

/** The PLEG relist period: how soon the kubelet notices what a sync left behind. */
export const RELIST_PERIOD_MS = 1000;

export interface KubeletContext {
  readonly nodeName: string;
  readonly nodeIP: string;
  readonly timers: TimerGroup;
  readonly random: Random;
  readonly images: ImageService;
  readonly ips: IpAllocator;
  readonly events: EventSink;
  readonly status: StatusManager;
  readonly restartBackoff: Backoff;
  readonly imageBackoff: Backoff;
  /** The cluster's shared workload load (the `cpu-load` behavior term). */
  readonly sharedLoad: SharedLoad;
  now(): number;
  rfc3339(ms?: number): string;
  /** A ConfigMap or Secret of the namespace, read for a pod; undefined when it does not exist. */
  lookup(pod: Pod, kind: ConfigKind, name: string): Promise<KubeObject | undefined>;
  /** Writes a trace record; returns its id. */
  record(action: KubeletAction, detail: string, cause: number | undefined, pod?: Pod, container?: string): number | undefined;
  /** The worker is done with its pod (the pod is gone from the API). */
  finished(worker: PodWorker): void;
}

export class PodWorker implements ProcessHost, ProberHost, LoadMember {
  pod: Pod;
  readonly uid: string;
  readonly key: string;
  readonly records = new Map<string, ContainerRecord>();
  /** The last trace record of this pod's story: the cause of the next one. */
  cause: number | undefined;
  private behavior: PodBehavior;
  /** The shared-load group this pod is in (its behavior has a cpu-load term). */
  loadKey: string | undefined;
  // The pod's state on the node that the sync steps (volume-manager.ts, kuberuntime-*.ts,
  // image-manager.ts) read and change.
  volumesReady = false;
  mountRetry: { delayMs: number; nextTimeoutAt: number } | undefined;
  configFailingSince: number | undefined;
  sandboxReady = false;
  /** RunPodSandbox attempts that failed (each names a new sandbox). */
  sandboxAttempts = 0;
  podIP: string | undefined;
  private rejection: { reason: string; message: string } | undefined;
  private terminating = false;
  /** Nothing runs and nothing will be started again. */
  terminal = false;
  removed = false;
  private busy = false;
  private again = false;
  private readonly wakeups = new Map<string, KubeletTimer>();
  readonly lastPullError = new Map<string, string>();

  constructor(
    readonly ctx: KubeletContext,
    pod: Pod,
    cause: number | undefined,
  ) {
    this.pod = pod;
    this.uid = pod.metadata.uid ?? '';
    this.key = podKey(pod);
    this.cause = cause;
    this.behavior = podBehavior(pod);
  }

  get timers(): TimerGroup {
    return this.ctx.timers;
  }

  get random(): Random {
    return this.ctx.random;
  }

  now(): number {
    return this.ctx.now();
  }

  /** Counts toward the node's admitted pods. */
  get active(): boolean {
    return !this.rejection && !this.terminal && !this.removed;
  }

  admit(): void {
    this.note('pod-admitted', `admitted on ${this.ctx.nodeName}`);
    this.joinLoad();
    this.reportBehaviorError();
    this.requestSync();
  }

  /**
   * Takes over a pod that ran on this node before this kubelet started (adopt.ts), instead of
   * admitting and starting it: its IP, its containers and their processes and probes carry on.
   */
  adopt(): void {
    const adopted = adoptContainers(this.pod, (name) => this.behaviorOf(name), (t) => (t ? Date.parse(t) : undefined));
    for (const [name, record] of adopted.records) this.records.set(name, record);
    this.joinLoad();
    for (const image of adopted.images) this.ctx.images.adopt(image);
    const ip = this.pod.status?.podIP;
    if (ip) {
      this.podIP = ip;
      if (!this.pod.spec?.hostNetwork) this.ctx.ips.reserve(this.uid, ip);
    }
    this.sandboxReady = true;
    this.volumesReady = true;
    const ready = new Set([...(this.pod.status?.initContainerStatuses ?? []), ...(this.pod.status?.containerStatuses ?? [])].filter((s) => s.ready).map((s) => s.name));
    for (const instance of adopted.running) {
      resumeProcess(this, instance, this.label(instance.spec.name));
      startProbes(this, instance, this.label(instance.spec.name));
      // Ready as it was, until the readiness probe says otherwise.
      if (instance.probes.readiness && ready.has(instance.spec.name)) instance.probes.readiness.result = 'success';
    }
    this.note('pod-adopted', `${adopted.running.length} running container(s) taken over${ip ? `, pod IP ${ip}` : ''}`);
    this.requestSync();
  }

  reject(reason: string, message: string): void {
    this.rejection = { reason, message: MESSAGE.rejected(message) };
    this.terminal = true;
    this.event(podRef(this.pod), 'Warning', reason, message);
    this.note('pod-rejected', `${reason}: ${message}`);
    this.requestSync();
  }

  /**
   * A newer version of the pod from the API server. As the kubelet's pod config does, only a
   * change of spec or metadata starts a sync; a status-only change (the kubelet's own writes
   * coming back) just refreshes the status manager, unless readiness gates read conditions.
   */
  update(pod: Pod, cause: number | undefined): void {
    const before = this.pod;
    this.pod = pod;
    this.ctx.status.observe(pod);
    const meta = (p: Pod) => [p.spec, p.metadata.labels, p.metadata.annotations, p.metadata.deletionTimestamp, p.metadata.deletionGracePeriodSeconds];
    const gated = (pod.spec?.readinessGates ?? []).length > 0 && !deepEqual(before.status?.conditions, pod.status?.conditions);
    if (deepEqual(meta(before), meta(pod)) && !gated) return;
    if (cause !== undefined && !this.terminating) this.cause = cause;
    if (pod.metadata.annotations?.[BEHAVIOR_ANNOTATION] !== before.metadata.annotations?.[BEHAVIOR_ANNOTATION]) {
      this.behavior = podBehavior(pod);
      this.reportBehaviorError();
      if (this.active) this.joinLoad();
    }
    this.requestSync();
  }

  /** The pod is gone from the API server: its containers go without a trace in the API. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    for (const record of this.records.values()) {
      if (record.current) {
        stopProbes(this, record.current);
        discardProcess(this, record.current);
      }
    }
    for (const t of this.wakeups.values()) this.ctx.timers.clear(t);
    this.wakeups.clear();
    this.ctx.ips.release(this.uid);
    this.ctx.status.forget(this.uid);
    this.ctx.restartBackoff.deletePrefix(`${this.uid}_`);
    this.ctx.imageBackoff.deletePrefix(`${this.uid}_`);
    this.leaveLoad();
    this.note('pod-deleted', 'removed from the node');
    this.ctx.finished(this);
  }

  /** Ready to serve (what a Service's endpoints would say): running, every container ready, not going away. */
  servingReady(): boolean {
    if (!this.active || this.terminating || this.pod.metadata.deletionTimestamp) return false;
    const containers = this.pod.spec?.containers ?? [];
    return containers.length > 0 && containers.every((c) => isReady(this.records.get(c.name)?.current));
  }

  /** Joins the shared-load group of the pod's behavior (leaving the one it was in). */
  private joinLoad(): void {
    this.leaveLoad();
    const annotation = this.pod.metadata.annotations?.[BEHAVIOR_ANNOTATION];
    if (annotation === undefined || this.behavior.error) return;
    if (![...this.behavior.containers.values()].some((b) => b.usage?.cpuLoad)) return;
    this.loadKey = SharedLoad.key(this.pod.metadata.namespace ?? '', annotation);
    this.ctx.sharedLoad.join(this.loadKey, this, this.now());
  }

  private leaveLoad(): void {
    if (this.loadKey === undefined) return;
    this.ctx.sharedLoad.leave(this.loadKey, this);
    this.loadKey = undefined;
  }

  /** The pod's status as the kubelet sees it now (what `kubectl logs` is judged against). */
  currentStatus() {
    if (this.rejection) return rejectedPodStatus(this.rejection.reason, this.rejection.message);
    return generatePodStatus(
      this.pod,
      { records: this.records, sandboxReady: this.sandboxReady, podIP: this.podIP, hostIP: this.ctx.nodeIP, terminal: this.terminal },
      (ms) => this.ctx.rfc3339(ms),
    );
  }

  /** The instance with this container ID (current or previous), for logs. */
  instanceById(containerID: string): ContainerInstance | undefined {
    for (const r of this.records.values()) {
      for (const i of [r.current, r.previous]) if (i && `containerd://${i.id}` === containerID) return i;
    }
    return undefined;
  }

  requestSync(): void {
    if (this.removed) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.ctx.timers.set(0, () => this.runSyncs(), { label: `${this.key}: sync` });
  }

  private async runSyncs(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.syncOnce();
      } while (this.again && !this.removed);
    } finally {
      this.busy = false;
    }
  }

  private async syncOnce(): Promise<void> {
    if (this.removed) return;
    if (this.pod.metadata.deletionTimestamp || this.terminating) {
      if (!this.terminal) await this.terminate();
      if (this.removed) return;
      this.writeStatus();
      this.ctx.status.deleteWhenWritten(this.pod);
      return;
    }
    this.writeStatus();
    if (this.terminal) return;
    if (!this.volumesReady) {
      await mountVolumes(this);
      if (!this.volumesReady || this.stopped()) return;
    }
    if (!this.sandboxReady) {
      await createSandbox(this);
      if (!this.sandboxReady || this.stopped()) return;
    }
    const init = await syncInitContainers(this);
    if (this.stopped()) return;
    if (init === 'failed') return this.finish();
    if (init === 'waiting') return;
    await syncContainers(this);
    if (!this.stopped() && podFinished(this)) await this.finish();
  }

  /** Stop taking steps: the pod went away or is being deleted. */
  stopped(): boolean {
    return this.removed || this.terminating || this.pod.metadata.deletionTimestamp !== undefined;
  }

  private writeStatus(): void {
    this.ctx.status.setStatus(this.pod, this.currentStatus());
  }

  /** The pod's work is over: sidecars and any init container are stopped, the sandbox goes. */
  private async finish(): Promise<void> {
    await stopPodContainers(stopPlan(this), this.podGraceMs());
    this.endSandbox();
    this.note('pod-finished', `phase ${this.currentStatus().phase}`);
    this.requestSync();
  }

  private async terminate(): Promise<void> {
    this.terminating = true;
    for (const t of this.wakeups.values()) this.ctx.timers.clear(t);
    this.wakeups.clear();
    const graceMs = deletionGracePeriodMs(this.pod.metadata, this.pod.spec?.terminationGracePeriodSeconds);
    this.note('pod-terminating', `grace period ${graceMs / 1000}s`);
    for (const record of this.records.values()) {
      record.waiting = undefined;
      if (record.current && isRunning(record.current)) stopProbes(this, record.current, ['startup', 'liveness']);
    }
    await stopPodContainers(stopPlan(this), graceMs);
    this.endSandbox();
  }

  private endSandbox(): void {
    this.sandboxReady = false;
    this.terminal = true;
    this.leaveLoad();
    this.ctx.ips.release(this.uid);
  }

  podGraceMs(): number {
    return (this.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
  }

  /** Records why a container waits; the events go out only when the reason or message changes. */
  setWaiting(record: ContainerRecord, reason: string, message: string, announce: () => void): void {
    if (record.waiting?.reason === reason && record.waiting.message === message) return;
    record.waiting = { reason, message };
    announce();
    this.followUp();
  }

  // ProcessHost

  exited(instance: ContainerInstance): void {
    stopProbes(this, instance);
    const exit = instance.exit!;
    this.note('container-exited', `exit code ${exit.code} (${exit.reason})`, instance.spec.name);
    this.requestSync();
  }

  // ProberHost

  target(instance: ContainerInstance): ProbeTarget {
    return { podIP: this.podIP ?? '', sourceIP: this.ctx.ips.gateway, container: instance.spec };
  }

  failed(instance: ContainerInstance, type: ProbeType, output: string): void {
    const kind = this.records.get(instance.spec.name)?.kind ?? 'regular';
    this.event(containerRef(this.pod, instance.spec.name, kind !== 'regular'), 'Warning', REASON.unhealthy, MESSAGE.probeFailed(PROBE_NAMES[type], output));
  }

  resultChanged(instance: ContainerInstance, type: ProbeType, result: ProbeResult): void {
    this.note('probe-result', `${type} ${result}`, instance.spec.name);
    if (result === 'failure' && type !== 'readiness') {
      const probe = type === 'liveness' ? instance.spec.livenessProbe : instance.spec.startupProbe;
      const graceMs = probe?.terminationGracePeriodSeconds !== undefined ? probe.terminationGracePeriodSeconds * 1000 : this.podGraceMs();
      const message = type === 'liveness' ? MESSAGE.failedLiveness(instance.spec.name) : MESSAGE.failedStartup(instance.spec.name);
      killForRestart(this, instance, message, graceMs);
      return;
    }
    this.requestSync();
  }

  // helpers

  recordFor(name: string, kind: ContainerKind): ContainerRecord {
    let record = this.records.get(name);
    if (!record) this.records.set(name, (record = { name, kind, restartCount: 0 }));
    return record;
  }

  behaviorOf(name: string): ContainerBehavior {
    return this.behavior.containers.get(name) ?? { startDelayMs: 0, probeDelayMs: 0, ignoreSigterm: false, shutdownDelayMs: 0 };
  }

  private reportBehaviorError(): void {
    if (!this.behavior.error) return;
    this.event(podRef(this.pod), 'Warning', REASON.invalidBehavior, `kubesim.dev/behavior: ${this.behavior.error}; the containers run with the default behavior`);
    this.note('behavior-invalid', this.behavior.error);
  }

  /** Another sync after the next PLEG relist, to report what this one left behind. */
  followUp(): void {
    this.wake('relist', this.now() + RELIST_PERIOD_MS, false);
  }

  /** A sync at `at` (replacing an earlier request under the same key). */
  wake(key: string, at: number, daemon: boolean): void {
    if (this.removed) return;
    this.ctx.timers.clear(this.wakeups.get(key));
    const timer = this.ctx.timers.set(
      at - this.now(),
      () => {
        this.wakeups.delete(key);
        this.requestSync();
      },
      { label: `${this.key}: ${key}`, daemon },
    );
    this.wakeups.set(key, timer);
  }

  sleep(ms: number, what: string): Promise<void> {
    return new Promise((resolve) => this.ctx.timers.set(ms, resolve, { label: `${this.key}: ${what}` }));
  }

  label(container: string): string {
    return `${this.key} ${container}`;
  }

  event(ref: ReturnType<typeof podRef>, type: EventType, reason: string, message: string): void {
    this.ctx.events.event(ref, type, reason, message, this.cause);
  }

  note(action: KubeletAction, detail: string, container?: string): void {
    const id = this.ctx.record(action, detail, this.cause, this.pod, container);
    if (id !== undefined) this.cause = id;
  }
}
