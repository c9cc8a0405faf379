/**
 * A simulated kubelet: the agent of one node, an API client with the identity
 * system:node:<name> (groups system:nodes, system:authenticated). It registers its Node, renews
 * its Lease, keeps the node status, and runs the pods bound to its node, which it learns of from
 * an informer on pods with the field selector spec.nodeName=<node>. Everything it does happens on
 * the engine clock and leaves API requests, Events and kubelet trace records.
 *
 * stop() is a node that goes silent: heartbeats, status updates and every container's progress
 * freeze (as the API can see it); start() brings it back: it re-registers and carries on with
 * the pods it had, and with those bound to it meanwhile.
 */
import { goQuote } from '../api/gofmt';
import { isStatusError, StatusError } from '../api/status';
import type { KubeObject } from '../api/types';
import type { Clock } from '../clock';
import type { Random } from '../random';
import type { ApiServer } from '../apiserver/server';
import { nodeUser } from '../apiserver/authn/user';
import { Client, componentUserAgent } from '../client/client';
import { EventBroadcaster } from '../client/events';
import { revisionCauses, type RevisionCauses } from '../client/controller/revision-causes';
import { SharedInformerFactory, deletedObject } from '../client/informer';
import { CONFIGMAPS, PODS, SECRETS } from '../client/resources';
import type { TraceBuffer } from '../trace/buffer';
import type { KubeletAction, KubeletRecord } from '../trace/kubelet';
import { podKey, type Pod } from './api';
import { admitPod } from './admission';
import { ranBefore } from './adopt';
import { Backoff } from './backoff';
import { KUBELET_PORT, type NodeConfig } from './config';
import type { ConfigKind } from './config-refs';
import { MESSAGE, nodeRef, REASON, type EventSink } from './events';
import { ImageService } from './images';
import { IpAllocator } from './ip-allocator';
import { NodeLease } from './lease';
import { formatLogLine, limitBytes, logContainerID, selectLines, type LogOptions } from './logs';
import { nodeAllocatable, nodeLabels } from './node-status';
import { NodeSync } from './node-sync';
import { PodWorker, type KubeletContext } from './pod-workers';
import { ResourceMetrics, type ResourceMetricsBatch } from './resource-metrics';
import { SharedLoad } from './shared-load';
import { StatusManager } from './status-manager';
import { TimerGroup } from './timers';

/** The label kubeadm puts on control-plane nodes (whose daemons include the control plane). */
const CONTROL_PLANE_ROLE = 'node-role.kubernetes.io/control-plane';

export interface KubeletOptions {
  node: NodeConfig;
  server: ApiServer;
  clock: Clock;
  /** The kubelet forks its own streams from it (container IDs, event names). */
  random: Random;
  /** Where kubelet records go; default the API server's trace. */
  trace?: TraceBuffer;
  /** The cluster's shared workload load (one for every kubelet); default one of its own. */
  sharedLoad?: SharedLoad;
}

/** A container's output for the API server's pods/log: the text so far and, while it runs, more. */
export interface LogStream {
  text: string;
  subscribe?(onText: (text: string) => void, onEnd: () => void): () => void;
}

export class Kubelet {
  readonly name: string;
  readonly nodeName: string;
  readonly config: NodeConfig;
  private readonly clock: Clock;
  private readonly client: Client;
  private readonly trace: TraceBuffer;
  private readonly causes: RevisionCauses;
  private readonly timers: TimerGroup;
  private readonly events: EventSink;
  private readonly ctx: KubeletContext;
  private readonly nodeSync: NodeSync;
  private readonly lease: NodeLease;
  private readonly metrics: ResourceMetrics;
  private readonly workers = new Map<string, PodWorker>();
  private readonly byName = new Map<string, PodWorker>();
  private readonly informerRandom: Random;
  /** What admission checks pods against: the node's labels and allocatable resources. */
  private readonly labels: Record<string, string>;
  private readonly allocatable: Record<string, string>;
  private factory: SharedInformerFactory | undefined;
  private running = false;

  constructor(options: KubeletOptions) {
    const { node: config, server, clock, random } = options;
    this.config = config;
    this.nodeName = config.name;
    this.name = `kubelet/${config.name}`;
    this.clock = clock;
    this.trace = options.trace ?? server.trace;
    this.causes = revisionCauses(this.trace);
    const own = random.fork(this.name);
    this.informerRandom = own.fork('informers');
    this.labels = nodeLabels(config);
    this.allocatable = nodeAllocatable(config);
    this.client = new Client({ server, user: nodeUser(config.name), userAgent: componentUserAgent('kubelet') });
    this.timers = new TimerGroup(clock, this.name);
    this.events = new EventBroadcaster({ client: this.client, clock, random: own.fork('events') }).newRecorder({ component: 'kubelet', host: config.name });
    const images = new ImageService(config.images ?? {}, this.timers, () => clock.now());
    const sharedLoad = options.sharedLoad ?? new SharedLoad();
    this.metrics = new ResourceMetrics(sharedLoad, clock.now(), config.name, CONTROL_PLANE_ROLE in (config.labels ?? {}));
    this.ctx = {
      nodeName: config.name,
      nodeIP: config.internalIP,
      timers: this.timers,
      random: own.fork('runtime'),
      images,
      ips: new IpAllocator(config.podCIDR),
      events: this.events,
      status: new StatusManager({
        client: (pod) => this.client.scoped(this.workers.get(pod.metadata.uid ?? '')?.cause),
        rfc3339: () => clock.rfc3339(),
        later: (delayMs, fn, label) => void this.timers.set(delayMs, fn, { label }),
      }),
      restartBackoff: new Backoff(),
      imageBackoff: new Backoff(),
      sharedLoad,
      now: () => clock.now(),
      rfc3339: (ms) => clock.rfc3339(ms),
      lookup: (pod, kind, name) => this.lookup(pod, kind, name),
      record: (action, detail, cause, pod, container) => this.record(action, detail, cause, pod, container),
      finished: (worker) => this.forget(worker),
    };
    this.nodeSync = new NodeSync({
      config,
      timers: this.timers,
      events: this.events,
      client: () => this.client,
      now: () => clock.now(),
      rfc3339: () => clock.rfc3339(),
      images: () => images.nodeImages(),
    });
    this.lease = new NodeLease({
      nodeName: config.name,
      timers: this.timers,
      client: () => this.client,
      microNow: () => clock.rfc3339Micro(),
      nodeUID: () => this.nodeSync.uid,
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts (or restarts) the kubelet: registers the node, then runs its pods. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.timers.resume();
    const ref = nodeRef(this.nodeName);
    this.events.event(ref, 'Normal', REASON.starting, MESSAGE.startingKubelet);
    const restart = this.nodeSync.node !== undefined;
    await this.nodeSync.register();
    this.events.event(ref, 'Normal', REASON.nodeAllocatableEnforced, MESSAGE.allocatableEnforced);
    this.record(restart ? 'node-started' : 'node-registered', `node ${this.nodeName} (${this.config.internalIP}, podCIDR ${this.config.podCIDR})`, undefined);
    this.nodeSync.start();
    this.lease.start();
    const factory = new SharedInformerFactory({ client: this.client, clock: this.clock, random: this.informerRandom, component: this.name });
    this.factory = factory;
    factory.informerFor<Pod>(PODS, { fieldSelector: `spec.nodeName=${this.nodeName}` }).addEventHandler({
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (_old, pod) => this.podChanged(pod),
      onDelete: (obj) => this.workers.get(deletedObject(obj).metadata.uid ?? '')?.remove(),
    });
    factory.start();
  }

  /** The node goes silent: no heartbeats, no status, no progress of its containers. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.factory?.shutdown();
    this.factory = undefined;
    this.lease.stop();
    this.nodeSync.stop();
    this.timers.pause();
    this.record('node-stopped', `node ${this.nodeName} stopped`, undefined);
  }

  /**
   * GET /metrics/resource, as metrics-server scrapes it: the node's and its running containers'
   * CPU and memory at this instant; undefined while the kubelet is down (the scrape fails).
   */
  resourceMetrics(): ResourceMetricsBatch | undefined {
    if (!this.running) return undefined;
    return this.metrics.collect(this.workers.values(), this.clock.now());
  }

  /**
   * GET /containerLogs/<namespace>/<pod>/<container>: the container's output as the kubelet
   * serves it to the API server's pods/log. Errors are the Status the API server returns.
   */
  logs(namespace: string, pod: string, container: string, options: LogOptions = {}): string {
    return this.openLogs(namespace, pod, container, options).text;
  }

  /**
   * What `logs` returns, plus, unless the instance has exited, a way to follow it (`kubectl logs
   * -f`): each new line as the container writes it, then the end when the instance exits.
   * Subscribing returns the unsubscribe function. limitBytes applies to the text only; a
   * follower counts the rest itself.
   */
  openLogs(namespace: string, pod: string, container: string, options: LogOptions = {}): LogStream {
    const instance = this.logInstance(namespace, pod, container, options);
    const lines = selectLines(instance.logs.all(), options, this.clock.now());
    const text = limitBytes(lines.map((l) => formatLogLine(l, options.timestamps)).join(''), options.limitBytes);
    if (instance.logs.isEnded) return { text };
    return {
      text,
      subscribe: (onText, onEnd) => instance.logs.follow((line) => onText(formatLogLine(line, options.timestamps)), onEnd),
    };
  }

  private logInstance(namespace: string, pod: string, container: string, options: LogOptions) {
    if (!this.running) {
      const url = `https://${this.config.internalIP}:${KUBELET_PORT}/containerLogs/${namespace}/${pod}/${container}`;
      throw new StatusError({ code: 500, reason: 'InternalError', message: `Get ${goQuote(url)}: dial tcp ${this.config.internalIP}:${KUBELET_PORT}: connect: connection refused` });
    }
    const worker = this.byName.get(`${namespace}/${pod}`);
    if (!worker) throw new StatusError({ code: 404, reason: 'NotFound', message: `pod ${goQuote(pod)} does not exist` });
    const id = logContainerID(pod, worker.currentStatus(), container, options.previous === true);
    const instance = worker.instanceById(id);
    if (!instance) throw new StatusError({ code: 400, reason: 'BadRequest', message: `container ${goQuote(container)} in pod ${goQuote(pod)} is not available` });
    return instance;
  }

  private podChanged(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const cause = this.causes.causeOf(Number(pod.metadata.resourceVersion ?? 0));
    const existing = this.workers.get(uid);
    if (existing) return existing.update(pod, cause);
    // A pod that finished before this kubelet knew of it is not run again.
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
    const worker = new PodWorker(this.ctx, pod, cause);
    this.workers.set(uid, worker);
    this.byName.set(podKey(pod), worker);
    if (ranBefore(pod)) return worker.adopt();
    if (pod.metadata.deletionTimestamp) return worker.requestSync();
    const admitted = [...this.workers.values()].filter((w) => w !== worker && w.active).map((w) => w.pod);
    const verdict = admitPod(pod, this.labels, this.allocatable, admitted);
    if (verdict.admit) worker.admit();
    else worker.reject(verdict.reason, verdict.message);
  }

  /** The kubelet's ConfigMap and Secret managers: a read on behalf of a pod (the Node authorizer checks the pod refers to it). */
  private async lookup(pod: Pod, kind: ConfigKind, name: string): Promise<KubeObject | undefined> {
    const client = this.client.scoped(this.workers.get(pod.metadata.uid ?? '')?.cause);
    try {
      return await client.resource(kind === 'configmap' ? CONFIGMAPS : SECRETS, pod.metadata.namespace).get(name);
    } catch (err) {
      if (isStatusError(err)) return undefined;
      throw err;
    }
  }

  private forget(worker: PodWorker): void {
    if (this.workers.get(worker.uid) === worker) this.workers.delete(worker.uid);
    if (this.byName.get(worker.key) === worker) this.byName.delete(worker.key);
  }

  private record(action: KubeletAction, detail: string, cause: number | undefined, pod?: Pod, container?: string): number | undefined {
    const draft: Omit<KubeletRecord, 'id' | 'time'> = {
      type: 'kubelet.action',
      component: this.name,
      node: this.nodeName,
      action,
      detail,
      ...(cause !== undefined ? { cause } : {}),
      ...(pod ? { pod: podKey(pod) } : {}),
      ...(container ? { container } : {}),
    };
    return this.trace.emit(draft).id;
  }
}
