/**
 * One pod worker per pod bound to the node (pod_workers.go and the kubelet's SyncPod): syncs run
 * one at a time, each first reporting the status the runtime shows, then taking the next steps
 * (computePodActions): the sandbox and its IP, init containers one by one (sidecars stay up),
 * then the containers, each started after its image is there; exited containers restart per
 * restartPolicy, behind CrashLoopBackOff. A container start, exit or probe result asks for
 * another sync, as the kubelet's PLEG does. Deletion runs the graceful termination; a finished
 * pod reports its terminal phase and, if it is being deleted, is removed with grace period 0.
 */
import { goQuote } from '../api/gofmt';
import type { KubeObject } from '../api/types';
import { Random } from '../random';
import type { KubeletAction } from '../trace/kubelet';
import { adoptContainers } from './adopt';
import { isSidecar, podKey, type Container, type Pod } from './api';
import { MAX_BACKOFF_MS, type Backoff } from './backoff';
import { BEHAVIOR_ANNOTATION, podBehavior, type ContainerBehavior, type PodBehavior } from './behavior';
import { containerConfigError, unmountableVolumes, type ConfigKind } from './config-refs';
import { hasExited, isReady, isRunning, WAITING, type ContainerInstance, type ContainerKind, type ContainerRecord } from './containers';
import { containerRef, MESSAGE, podRef, REASON, type EventSink, type EventType } from './events';
import { parseImageRef, type ImageRef } from './image-ref';
import type { ImageService, PullResult } from './images';
import type { IpAllocator } from './ip-allocator';
import { generatePodStatus, rejectedPodStatus } from './pod-status';
import { startProbes, stopProbes, type ProberHost } from './prober';
import { PROBE_NAMES, type ProbeResult, type ProbeTarget, type ProbeType } from './probes';
import { createInstance, discardProcess, resumeProcess, startProcess, stopProcess, type ProcessHost } from './runtime';
import { SharedLoad, type LoadMember } from './shared-load';
import type { StatusManager } from './status-manager';
import { deepEqual } from '../api/deep-equal';
import { deletionGracePeriodMs, preStopDurationMs, stopPodContainers } from './termination';
import type { KubeletTimer, TimerGroup } from './timers';

/** Creating the pod sandbox (network namespace, IP) takes this long. */
export const SANDBOX_START_MS = 1000;
/** A sandbox that could not be created is tried again after the pod workers' backOffPeriod. */
export const SANDBOX_RETRY_MS = 10_000;
/** CreateContainer takes this long (the Created and Started events come together after it). */
export const CONTAINER_CREATE_MS = 100;
/** The PLEG relist period: how soon the kubelet notices what a sync left behind. */
export const RELIST_PERIOD_MS = 1000;
/** A failed sync is retried after the pod worker's back-off period. */
export const SYNC_RETRY_MS = 10_000;
/** Volume SetUp retries back off from 500 ms to 2m2s; the pod worker gives up waiting after 2 minutes. */
const MOUNT_INITIAL_RETRY_MS = 500;
const MOUNT_MAX_RETRY_MS = 122_000;
const MOUNT_TIMEOUT_MS = 120_000;
/** How long retries of a failing configuration keep the cluster from settling. */
const CONFIG_RETRY_WINDOW_MS = 5 * 60_000;

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
  private volumesReady = false;
  private mountRetry: { delayMs: number; nextTimeoutAt: number } | undefined;
  private configFailingSince: number | undefined;
  private sandboxReady = false;
  /** RunPodSandbox attempts that failed (each names a new sandbox). */
  private sandboxAttempts = 0;
  private podIP: string | undefined;
  private rejection: { reason: string; message: string } | undefined;
  private terminating = false;
  /** Nothing runs and nothing will be started again. */
  terminal = false;
  removed = false;
  private busy = false;
  private again = false;
  private readonly wakeups = new Map<string, KubeletTimer>();
  private readonly lastPullError = new Map<string, string>();

  constructor(
    private readonly ctx: KubeletContext,
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
      await this.mountVolumes();
      if (!this.volumesReady || this.stopped()) return;
    }
    if (!this.sandboxReady) {
      await this.createSandbox();
      if (!this.sandboxReady || this.stopped()) return;
    }
    const init = await this.syncInitContainers();
    if (this.stopped()) return;
    if (init === 'failed') return this.finish();
    if (init === 'waiting') return;
    await this.syncContainers();
    if (!this.stopped() && this.podFinished()) await this.finish();
  }

  /** Stop taking steps: the pod went away or is being deleted. */
  private stopped(): boolean {
    return this.removed || this.terminating || this.pod.metadata.deletionTimestamp !== undefined;
  }

  private writeStatus(): void {
    this.ctx.status.setStatus(this.pod, this.currentStatus());
  }

  /** The volume manager's WaitForAttachAndMount, for the volumes that read ConfigMaps and Secrets. */
  private async mountVolumes(): Promise<void> {
    const failed = await unmountableVolumes(this.pod, (kind, name) => this.ctx.lookup(this.pod, kind, name));
    if (this.stopped()) return;
    if (failed.size === 0) {
      this.volumesReady = true;
      this.mountRetry = undefined;
      return;
    }
    const now = this.now();
    const retry = (this.mountRetry ??= { delayMs: 0, nextTimeoutAt: now + MOUNT_TIMEOUT_MS });
    for (const [volume, err] of failed) this.event(podRef(this.pod), 'Warning', REASON.failedMount, MESSAGE.setUpFailed(volume, err));
    if (now >= retry.nextTimeoutAt) {
      this.event(podRef(this.pod), 'Warning', REASON.failedMount, MESSAGE.unmountedVolumes([...failed.keys()].sort()));
      retry.nextTimeoutAt += MOUNT_TIMEOUT_MS;
    }
    if (retry.delayMs === 0) this.note('volume-mount-failed', [...failed.values()].join('; '));
    retry.delayMs = retry.delayMs === 0 ? MOUNT_INITIAL_RETRY_MS : Math.min(retry.delayMs * 2, MOUNT_MAX_RETRY_MS);
    this.wake('mount', now + retry.delayMs, retry.delayMs >= MOUNT_MAX_RETRY_MS);
  }

  private async createSandbox(): Promise<void> {
    await this.sleep(SANDBOX_START_MS, 'sandbox');
    if (this.stopped()) return;
    const ip = this.pod.spec?.hostNetwork ? this.ctx.nodeIP : this.ctx.ips.allocate(this.uid);
    if (!ip) {
      // The node's podCIDR has no address left (more pods than a /24 holds): RunPodSandbox fails,
      // the kubelet says so on the pod and tries again, while it stays ContainerCreating.
      this.sandboxAttempts++;
      const rangeSet = this.ctx.ips.rangeSet;
      this.event(podRef(this.pod), 'Warning', REASON.failedCreatePodSandBox, MESSAGE.failedCreatePodSandbox(sandboxId(this.uid, this.sandboxAttempts), rangeSet));
      if (this.sandboxAttempts === 1) this.note('sandbox-failed', `no IP addresses available in range set ${rangeSet}`);
      this.wake('sandbox', this.now() + SANDBOX_RETRY_MS, true);
      return;
    }
    this.podIP = ip;
    this.sandboxReady = true;
    this.note('sandbox-created', `pod IP ${ip}`);
  }

  /** computeInitContainerActions: 'done' once every init container completed and every sidecar started. */
  private async syncInitContainers(): Promise<'done' | 'waiting' | 'failed'> {
    const restartPolicy = this.pod.spec?.restartPolicy ?? 'Always';
    for (const c of this.pod.spec?.initContainers ?? []) {
      const cur = this.records.get(c.name)?.current;
      if (isSidecar(c)) {
        if (!cur || hasExited(cur)) {
          await this.startContainer(c, 'sidecar');
          return 'waiting';
        }
        if (!cur.started) return 'waiting';
        continue;
      }
      if (!cur) {
        await this.startContainer(c, 'init');
        return 'waiting';
      }
      if (!hasExited(cur)) return 'waiting';
      if (cur.exit.code === 0) continue;
      if (restartPolicy === 'Never') return 'failed';
      await this.startContainer(c, 'init');
      return 'waiting';
    }
    return 'done';
  }

  private async syncContainers(): Promise<void> {
    const restartPolicy = this.pod.spec?.restartPolicy ?? 'Always';
    for (const c of this.pod.spec?.initContainers ?? []) {
      if (this.stopped()) return;
      if (isSidecar(c) && hasExited(this.records.get(c.name)?.current)) await this.startContainer(c, 'sidecar');
    }
    for (const c of this.pod.spec?.containers ?? []) {
      if (this.stopped()) return;
      const cur = this.records.get(c.name)?.current;
      if (cur && isRunning(cur)) {
        if (cur.spec.image !== c.image && !cur.stopping) this.killForRestart(cur, MESSAGE.definitionChanged(c.name), this.podGraceMs());
        continue;
      }
      if (cur && !hasExited(cur)) continue;
      if (cur && !shouldRestart(restartPolicy, cur.exit!.code)) continue;
      await this.startContainer(c, 'regular');
    }
  }

  /** Pods that are not restarted are done once every container exited for good. */
  private podFinished(): boolean {
    const restartPolicy = this.pod.spec?.restartPolicy ?? 'Always';
    if (restartPolicy === 'Always') return false;
    return (this.pod.spec?.containers ?? []).every((c) => {
      const cur = this.records.get(c.name)?.current;
      return hasExited(cur) && !shouldRestart(restartPolicy, cur.exit.code);
    });
  }

  /** The pod's work is over: sidecars and any init container are stopped, the sandbox goes. */
  private async finish(): Promise<void> {
    await stopPodContainers(this.stopPlan(), this.podGraceMs());
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
    await stopPodContainers(this.stopPlan(), graceMs);
    this.endSandbox();
  }

  private stopPlan() {
    const running = (cs: readonly Container[]) =>
      cs.map((c) => this.records.get(c.name)?.current).filter((i): i is ContainerInstance => i !== undefined && isRunning(i));
    const inits = this.pod.spec?.initContainers ?? [];
    return {
      regular: [...running(inits.filter((c) => !isSidecar(c))), ...running(this.pod.spec?.containers ?? [])],
      sidecars: running(inits.filter(isSidecar)).reverse(),
      now: () => this.now(),
      kill: (i: ContainerInstance, timeoutMs: number) => this.killContainer(i, timeoutMs),
    };
  }

  private endSandbox(): void {
    this.sandboxReady = false;
    this.terminal = true;
    this.leaveLoad();
    this.ctx.ips.release(this.uid);
  }

  private podGraceMs(): number {
    return (this.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
  }

  /** startContainer with the kubelet's doBackOff in front: false if the container did not start. */
  private async startContainer(spec: Container, kind: ContainerKind): Promise<boolean> {
    const record = this.recordFor(spec.name, kind);
    const ref = containerRef(this.pod, spec.name, kind !== 'regular');
    const cur = record.current;
    if (hasExited(cur)) {
      const key = `${this.uid}_${spec.name}`;
      const finishedAt = cur.finishedAt ?? this.now();
      if (this.ctx.restartBackoff.isInBackOffSince(key, finishedAt, this.now())) {
        const backoff = this.ctx.restartBackoff.get(key);
        this.setWaiting(record, WAITING.crashLoopBackOff, MESSAGE.crashLoopWaiting(spec.name, this.pod, backoff), () => {
          this.event(ref, 'Warning', REASON.backOff, MESSAGE.backOffRestart(spec.name, this.pod));
          this.note('container-back-off', `restart in ${backoff / 1000}s`, spec.name);
        });
        this.wake(`restart ${spec.name}`, finishedAt + backoff, backoff >= MAX_BACKOFF_MS);
        return false;
      }
      this.ctx.restartBackoff.next(key, finishedAt, this.now());
    }
    const image = await this.ensureImage(spec, record, ref);
    if (!image || this.stopped()) return false;
    const configError = await containerConfigError(spec, this.pod.metadata.namespace ?? '', (kind, name) => this.ctx.lookup(this.pod, kind, name));
    if (this.stopped()) return false;
    if (configError) {
      this.setWaiting(record, WAITING.createContainerConfigError, configError, () => {
        this.event(ref, 'Warning', REASON.failed, MESSAGE.error(configError));
        this.note('container-config-error', configError, spec.name);
      });
      const since = (this.configFailingSince ??= this.now());
      this.wake('config', this.now() + SYNC_RETRY_MS, this.now() - since >= CONFIG_RETRY_WINDOW_MS);
      return false;
    }
    this.configFailingSince = undefined;
    await this.sleep(CONTAINER_CREATE_MS, `create ${spec.name}`);
    if (this.stopped()) return false;
    const instance = createInstance(this.ctx.random, spec, image, this.behaviorOf(spec.name), this.now());
    if (cur) {
      record.previous = cur;
      record.restartCount++;
    }
    record.current = instance;
    record.waiting = undefined;
    this.event(ref, 'Normal', REASON.created, MESSAGE.created);
    this.note('container-created', `containerd://${instance.id.slice(0, 12)}`, spec.name);
    startProcess(this, instance, this.label(spec.name));
    this.event(ref, 'Normal', REASON.started, MESSAGE.started);
    this.note('container-started', `restart count ${record.restartCount}`, spec.name);
    startProbes(this, instance, this.label(spec.name));
    this.requestSync();
    return true;
  }

  /** The image manager's EnsureImageExists: the image, or undefined with the reason recorded. */
  private async ensureImage(spec: Container, record: ContainerRecord, ref: ReturnType<typeof containerRef>): Promise<ImageRef | undefined> {
    const image = spec.image ?? '';
    const parsed = parseImageRef(image);
    if ('error' in parsed) {
      const message = `Failed to apply default image tag ${goQuote(image)}: ${parsed.error}`;
      this.setWaiting(record, WAITING.invalidImageName, message, () => {
        this.event(ref, 'Warning', REASON.inspectFailed, message);
        this.event(ref, 'Warning', REASON.failed, MESSAGE.error(WAITING.invalidImageName));
      });
      return undefined;
    }
    const policy = spec.imagePullPolicy ?? (parsed.tag === 'latest' ? 'Always' : 'IfNotPresent');
    const present = this.ctx.images.get(parsed);
    if (policy === 'Never' || (policy === 'IfNotPresent' && present)) {
      if (present) {
        this.event(ref, 'Normal', REASON.pulled, MESSAGE.alreadyPresent(image));
        return present;
      }
      const message = MESSAGE.neverPull(image);
      this.setWaiting(record, WAITING.errImageNeverPull, message, () => {
        this.event(ref, 'Warning', REASON.errImageNeverPull, message);
        this.event(ref, 'Warning', REASON.failed, MESSAGE.error(WAITING.errImageNeverPull));
      });
      return undefined;
    }
    const key = `${this.uid}_${image}`;
    if (this.ctx.imageBackoff.isInBackOffSinceUpdate(key, this.now())) {
      const message = `${MESSAGE.pullBackOff(image)}: ${WAITING.errImagePull}: ${this.lastPullError.get(key) ?? ''}`;
      this.setWaiting(record, WAITING.imagePullBackOff, message, () => {
        this.event(ref, 'Normal', REASON.backOff, MESSAGE.pullBackOff(image));
        this.event(ref, 'Warning', REASON.failed, MESSAGE.error(WAITING.imagePullBackOff));
        this.note('image-back-off', `retry in ${this.ctx.imageBackoff.get(key) / 1000}s`, spec.name);
      });
      const end = this.ctx.imageBackoff.endSinceUpdate(key) ?? this.now();
      this.wake(`pull ${spec.name}`, end, this.ctx.imageBackoff.get(key) >= MAX_BACKOFF_MS);
      return undefined;
    }
    this.event(ref, 'Normal', REASON.pulling, MESSAGE.pulling(image));
    this.note('image-pulling', image, spec.name);
    const result = await new Promise<PullResult>((resolve) => this.ctx.images.pull(image, parsed, resolve));
    if (this.removed) return undefined;
    if (!result.ok) {
      const error = result.error ?? '';
      this.event(ref, 'Warning', REASON.failed, MESSAGE.failedToPull(image, error));
      this.ctx.imageBackoff.next(key, this.now(), this.now());
      this.lastPullError.set(key, error);
      record.waiting = { reason: WAITING.errImagePull, message: error };
      this.event(ref, 'Warning', REASON.failed, MESSAGE.error(WAITING.errImagePull));
      this.note('image-pull-failed', error, spec.name);
      this.followUp();
      return undefined;
    }
    this.event(ref, 'Normal', REASON.pulled, MESSAGE.pulled(image, result.pullMs, result.totalMs, result.ref.sizeBytes));
    this.note('image-pulled', `${image} in ${result.pullMs}ms`, spec.name);
    return result.ref;
  }

  /** Records why a container waits; the events go out only when the reason or message changes. */
  private setWaiting(record: ContainerRecord, reason: string, message: string, announce: () => void): void {
    if (record.waiting?.reason === reason && record.waiting.message === message) return;
    record.waiting = { reason, message };
    announce();
    this.followUp();
  }

  private killForRestart(instance: ContainerInstance, message: string, graceMs: number): void {
    instance.killedForRestart = true;
    stopProbes(this, instance);
    this.ctx.timers.set(0, () => this.killContainer(instance, graceMs, message), { label: `${this.label(instance.spec.name)}: kill` });
  }

  /** killContainer: the Killing event, the preStop hook, then SIGTERM and SIGKILL at the timeout. */
  private async killContainer(instance: ContainerInstance, timeoutMs: number, message?: string): Promise<void> {
    if (instance.exit) return;
    const name = instance.spec.name;
    const kind = this.records.get(name)?.kind ?? 'regular';
    this.event(containerRef(this.pod, name, kind !== 'regular'), 'Normal', REASON.killing, message ?? MESSAGE.stopping(name));
    this.note('container-killing', message ?? `grace period ${timeoutMs / 1000}s`, name);
    let remaining = timeoutMs;
    const preStop = instance.spec.lifecycle?.preStop;
    if (preStop && remaining > 0) {
      const hookMs = Math.min(preStopDurationMs(preStop), remaining);
      if (hookMs > 0) await this.sleep(hookMs, `${name} preStop`);
      remaining -= hookMs;
    }
    await stopProcess(this, instance, remaining, this.label(name));
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
      this.killForRestart(instance, message, graceMs);
      return;
    }
    this.requestSync();
  }

  // helpers

  private recordFor(name: string, kind: ContainerKind): ContainerRecord {
    let record = this.records.get(name);
    if (!record) this.records.set(name, (record = { name, kind, restartCount: 0 }));
    return record;
  }

  private behaviorOf(name: string): ContainerBehavior {
    return this.behavior.containers.get(name) ?? { startDelayMs: 0, probeDelayMs: 0, ignoreSigterm: false, shutdownDelayMs: 0 };
  }

  private reportBehaviorError(): void {
    if (!this.behavior.error) return;
    this.event(podRef(this.pod), 'Warning', REASON.invalidBehavior, `kubesim.dev/behavior: ${this.behavior.error}; the containers run with the default behavior`);
    this.note('behavior-invalid', this.behavior.error);
  }

  /** Another sync after the next PLEG relist, to report what this one left behind. */
  private followUp(): void {
    this.wake('relist', this.now() + RELIST_PERIOD_MS, false);
  }

  /** A sync at `at` (replacing an earlier request under the same key). */
  private wake(key: string, at: number, daemon: boolean): void {
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

  private sleep(ms: number, what: string): Promise<void> {
    return new Promise((resolve) => this.ctx.timers.set(ms, resolve, { label: `${this.key}: ${what}` }));
  }

  private label(container: string): string {
    return `${this.key} ${container}`;
  }

  private event(ref: ReturnType<typeof podRef>, type: EventType, reason: string, message: string): void {
    this.ctx.events.event(ref, type, reason, message, this.cause);
  }

  private note(action: KubeletAction, detail: string, container?: string): void {
    const id = this.ctx.record(action, detail, this.cause, this.pod, container);
    if (id !== undefined) this.cause = id;
  }
}

/** A sandbox's id as containerd prints it (64 hex digits), the same for the same pod and attempt. */
function sandboxId(uid: string, attempt: number): string {
  const random = new Random(`${uid}/sandbox/${attempt}`);
  let id = '';
  for (let i = 0; i < 8; i++) id += random.nextUint32().toString(16).padStart(8, '0');
  return id;
}

/** Whether an exited container is started again under the pod's restartPolicy. */
export function shouldRestart(restartPolicy: string, exitCode: number): boolean {
  if (restartPolicy === 'Always') return true;
  if (restartPolicy === 'OnFailure') return exitCode !== 0;
  return false;
}
