/**
 * createCluster: one simulated Kubernetes 1.35 control plane, wired as kubeadm would start it.
 * The store sits behind the API server only; every other part (kube-controller-manager,
 * kube-scheduler, one kubelet per node, the editor, the CLI, kubectl through the HTTP facade) is
 * a client of the API server with its own identity (docs/architecture.md, invariant 1). Everything runs on
 * one virtual Clock and one seeded Random, so the same seed and inputs give the same cluster,
 * byte for byte (invariant 3).
 *
 * By default the cluster has a tainted control-plane node and three workers (4 CPUs, 16Gi,
 * 110 pods) in zones zone-a, zone-b and zone-c, and createCluster returns once every node is
 * Ready and the default namespace's ServiceAccount exists (`kind create cluster --wait`). Its
 * store is a simulated etcd of three members (etcd-0, etcd-1, etcd-2) under the latency model:
 * every request pays its way in virtual time (ClusterOptions.etcd: latency 'instant' for the
 * timing of a single free member).
 */
import { Clock, DEFAULT_EPOCH_MS, type ClockHost, type SettleOptions, type SettleResult } from './clock';
import { Random } from './random';
import { createStore, type BackendName, type EtcdCredentials, type Store, type StoreSnapshot } from './store';
import { DEFAULT_MEMBERS, EtcdClient, type EtcdCluster, type LatencySetting } from './store/etcdserver';
import { isInstant } from './store/etcdserver/latency';
import type { RaftTimings } from './store/etcdserver/member';
import { createApiServer, type ApiServer } from './apiserver/server';
import { bootstrapSystemObjects } from './apiserver/bootstrap';
import { unionAuthorizer } from './apiserver/authz/union';
import { createNodeAuthorizer } from './apiserver/authz/node';
import { createRbacAuthorizer } from './apiserver/authz/rbac';
import type { AuthorizerFactory } from './apiserver/authz/types';
import { ADMIN_USER, type UserInfo } from './apiserver/authn/user';
import { TraceBuffer, type SavedTrace } from './trace/buffer';
import { Client } from './client';
import { Kubelet, kubeletLogSource, SharedLoad, type KubeletLogSource, type NodeConfig } from './kubelet';
import type { NodeLifecycleSettings } from './controllers/nodelifecycle/controller';
import type { RecordDetail } from './scheduler/record';
import { EventTrace } from './components/event-trace';
import { KubeControllerManager } from './components/kube-controller-manager';
import { KubeScheduler } from './components/kube-scheduler';
import { MetricsServer } from './components/metrics-server';
import { NodeLayout, type MachineSpec, type NodeOptions } from './components/nodes';
import { waitForControlPlane } from './cluster-readiness';
import { cordon, drain, uncordon, type DrainOptions } from './kubectl/node';
import { rolloutRestart, rolloutUndo, scale, type DeploymentRef, type ScalableRef, type WorkloadRef } from './kubectl/workload';
import type { PodSecurityConfiguration } from './apiserver/admission/podsecurity/config';

export interface ClusterOptions {
  /** Seeds every random choice (names, uids, IPs, tie-breaks). Default "kubesim". */
  seed?: string;
  /** Virtual wall time at start, ms since the epoch. Default 2025-01-01T00:00:00Z. */
  startTime?: number;
  backend?: BackendName;
  /** etcd endpoints for the etcd backend. */
  endpoints?: string[];
  /** TLS for the etcd backend's https:// endpoints. */
  etcdCredentials?: EtcdCredentials;
  /** The simulated etcd cluster (memory backend): its members and latency model. */
  etcd?: EtcdOptions;
  /** Trace records kept (a ring buffer). Default 100,000. */
  traceCapacity?: number;
  /** How the clock yields to the host's event loop (the extension host passes a slicing host). */
  clockHost?: ClockHost;
  /** The machines: a control-plane node and 3 workers unless told otherwise. */
  nodes?: NodeOptions;
  /** How much each scheduling attempt records (default 'full': every node's verdict and score). */
  schedulerRecordDetail?: RecordDetail;
  /** KubeSchedulerConfiguration.percentageOfNodesToScore; 0 (default): adaptive. */
  percentageOfNodesToScore?: number;
  nodeLifecycle?: Partial<NodeLifecycleSettings>;
  /** Carry on from a saved cluster (memory store only): its etcd data and its machines. */
  restore?: RestoreOptions;
  /**
   * Only the API server with its bootstrap objects: no nodes, no kube-controller-manager, no
   * kube-scheduler (for tests that play those parts themselves).
   */
  bare?: boolean;
  /** The PodSecurity admission configuration (PodSecurityConfiguration); default: privileged everywhere, no exemptions. */
  podSecurity?: PodSecurityConfiguration;
  /**
   * metrics-server, as its release manifest installs it (metrics.k8s.io for `kubectl top` and the
   * HorizontalPodAutoscaler): on by default; false runs without it, as a kind cluster does.
   */
  metricsServer?: boolean | { resolutionMs?: number };
}

export interface EtcdOptions {
  /** Members etcd-0 ... (1 to 7). Default 3 (DEFAULT_MEMBERS), as the extension's kubesim.etcd.members. */
  members?: number;
  /**
   * 'model' (each request pays its way in virtual time: see store/etcdserver/latency.ts),
   * 'instant' (requests complete in the virtual instant they are made), or parts of the model.
   * Default 'model'.
   */
  latency?: LatencySetting;
  timings?: Partial<RaftTimings>;
  /** Raft messages kept in the etcd cluster's message stream. Default 10,000. */
  messageCapacity?: number;
  /** etcd's --quota-backend-bytes: 0 or absent for 2 GiB, negative for no quota. */
  quotaBackendBytes?: number;
}

export interface RestoreOptions {
  store: StoreSnapshot;
  /** The machines, and whether each one's kubelet was running. */
  nodes: readonly { config: NodeConfig; running: boolean }[];
  /** The trace as it was saved: the story so far goes on, with ids that continue from it. */
  trace?: SavedTrace;
}

/** A part of the control plane that runs as an API client: a controller, the scheduler, a kubelet. */
export interface ClusterComponent {
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export interface Cluster {
  readonly seed: string;
  readonly options: Readonly<ClusterOptions>;
  readonly clock: Clock;
  readonly random: Random;
  readonly store: Store;
  /** The simulated etcd cluster behind the store (undefined with a real etcd). */
  readonly etcd: EtcdCluster | undefined;
  readonly server: ApiServer;
  /**
   * The API server as clients outside the simulation reach it (the HTTP endpoint, tests): every
   * request and watch start driven (see drive). The simulation's own parts use `server`.
   */
  readonly api: ApiServer;
  readonly trace: TraceBuffer;
  /** pods/log for the HTTP facade: the kubelet of the pod's node. */
  readonly logs: KubeletLogSource;
  /**
   * A client with the given identity; the default is the cluster admin (system:masters). Its
   * requests are driven (see drive): awaiting one moves virtual time as far as it takes.
   */
  client(user?: UserInfo, userAgent?: string): Client;
  /**
   * Awaits work from outside the simulation that takes virtual time (with the latency model,
   * every request does): unless something already moves the clock (settle, advance, a running
   * Pacer), the clock runs until it is done. With the instant model the work is just awaited.
   */
  drive<T>(work: Promise<T>): Promise<T>;
  /** Starts a component now and stops it with the cluster. */
  add(component: ClusterComponent): Promise<void>;
  components(): readonly ClusterComponent[];
  /** The simulated nodes' names, in the order they were added. */
  nodes(): readonly string[];
  kubelet(node: string): Kubelet | undefined;
  /** metrics-server, unless the cluster runs without it. */
  readonly metricsServer: MetricsServer | undefined;
  /** A new worker (kubeadm join): its kubelet registers the Node. Returns its name. */
  addNode(spec?: MachineSpec): Promise<string>;
  /** The node goes silent (its kubelet stops: no heartbeats, no status). */
  stopNode(node: string): void;
  startNode(node: string): Promise<void>;
  /** `kubectl cordon`, `uncordon`, `drain`: kubectl's output lines; failures throw with kubectl's text. */
  cordon(node: string): Promise<string>;
  uncordon(node: string): Promise<string>;
  drain(node: string, options?: DrainOptions): Promise<string[]>;
  /** `kubectl scale`, `rollout restart`, `rollout undo [--to-revision]`. */
  scale(ref: ScalableRef, replicas: number): Promise<string>;
  rolloutRestart(ref: WorkloadRef): Promise<string>;
  rolloutUndo(ref: DeploymentRef, toRevision?: number): Promise<string>;
  /** Runs the cluster until nothing but background work is pending (or the bounds are hit). */
  settle(options?: SettleOptions): Promise<SettleResult>;
  advance(ms: number): Promise<number>;
  /** Closes this cluster and returns a fresh one built from the same options (same seed, same story). */
  reset(): Promise<Cluster>;
  close(): Promise<void>;
}

export const DEFAULT_TRACE_CAPACITY = 100_000;
export const ADMIN_USER_AGENT = 'kubectl/v1.35.0 (linux/amd64) kubernetes/unknown';

/** --authorization-mode=Node,RBAC, kubeadm's default (system:masters is always allowed first). */
export const nodeAndRbac: AuthorizerFactory = (reader) => unionAuthorizer([createNodeAuthorizer(reader), createRbacAuthorizer(reader)]);

export async function createCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const seed = options.seed ?? 'kubesim';
  const clock = new Clock(options.startTime ?? DEFAULT_EPOCH_MS, options.clockHost);
  // A restored cluster must not hand out the names and uids its first run already gave: its
  // streams start from the seed and the revision it was saved at (still deterministic).
  const random = new Random(options.restore ? `${seed}@${options.restore.store.revision}` : seed);
  const trace = new TraceBuffer({ clock, capacity: options.traceCapacity ?? DEFAULT_TRACE_CAPACITY, restore: options.restore?.trace });
  const store = createStore({
    backend: options.backend ?? 'memory',
    clock,
    endpoints: options.endpoints,
    credentials: options.etcdCredentials,
    restore: options.restore?.store,
    etcd: { ...options.etcd, members: options.etcd?.members ?? DEFAULT_MEMBERS, latency: options.etcd?.latency ?? 'model', random: random.fork('etcd'), trace },
  });
  // With the latency model every request takes virtual time: start-up moves the clock until each
  // step is done. With the instant model nothing needs it, and the steps run exactly as before.
  const etcd = store instanceof EtcdClient ? store.cluster : undefined;
  const during = <T>(work: Promise<T>): Promise<T> => (etcd && !isInstant(etcd.latency) ? clock.until(work) : work);
  const server = await during(
    createApiServer({ store, clock, random: random.fork('apiserver'), authorizer: nodeAndRbac, trace, podSecurity: options.podSecurity, requestLatencyMs: etcd?.latency.apiserverMs }),
  );
  await during(bootstrapSystemObjects(server));
  await clock.settle({ maxDuration: 0 });
  const cluster = new RunningCluster(seed, options, clock, random, store, server, trace);
  if (options.bare) return cluster;
  await cluster.drive(cluster.add(new EventTrace(cluster.client(ADMIN_USER, 'kubesim-trace'), trace)));
  await cluster.drive(cluster.add(new KubeControllerManager({ server, clock, random, trace, nodeLifecycle: options.nodeLifecycle })));
  await cluster.drive(cluster.add(new KubeScheduler({ server, clock, random, trace, recordDetail: options.schedulerRecordDetail, percentageOfNodesToScore: options.percentageOfNodesToScore })));
  if (options.restore) {
    // The Nodes, Leases and pods are in the store: the kubelets pick up where they were.
    cluster.layout.resume(options.restore.nodes.map((n) => n.config));
    for (const { config, running } of options.restore.nodes) await cluster.drive(cluster.join(config, running));
    await cluster.installMetricsServer();
    return cluster;
  }
  const nodes = options.nodes ?? {};
  if (nodes.controlPlane !== false) await cluster.drive(cluster.join(cluster.layout.controlPlane()));
  for (let i = 0; i < (nodes.count ?? 3); i++) await cluster.drive(cluster.join(cluster.layout.worker()));
  await waitForControlPlane(cluster);
  await cluster.installMetricsServer();
  return cluster;
}

class RunningCluster implements Cluster {
  readonly layout: NodeLayout;
  readonly etcd: EtcdCluster | undefined;
  readonly logs: KubeletLogSource;
  readonly api: ApiServer;
  private readonly parts: ClusterComponent[] = [];
  private readonly kubelets = new Map<string, Kubelet>();
  /** The workload load every kubelet's pods share (the cpu-load behavior term). */
  private readonly sharedLoad = new SharedLoad();
  metricsServer: MetricsServer | undefined;
  private closed = false;

  constructor(
    readonly seed: string,
    readonly options: Readonly<ClusterOptions>,
    readonly clock: Clock,
    readonly random: Random,
    readonly store: Store,
    readonly server: ApiServer,
    readonly trace: TraceBuffer,
  ) {
    this.etcd = store instanceof EtcdClient ? store.cluster : undefined;
    this.layout = new NodeLayout(options.nodes ?? {});
    this.logs = kubeletLogSource((node) => this.kubelets.get(node));
    this.api = drivenServer(server, (work) => this.drive(work));
  }

  client(user: UserInfo = ADMIN_USER, userAgent: string = ADMIN_USER_AGENT): Client {
    return new Client({ server: this.api, user, userAgent });
  }

  async add(component: ClusterComponent): Promise<void> {
    this.parts.push(component);
    await component.start();
  }

  components(): readonly ClusterComponent[] {
    return this.parts;
  }

  nodes(): readonly string[] {
    return [...this.kubelets.keys()];
  }

  kubelet(node: string): Kubelet | undefined {
    return this.kubelets.get(node);
  }

  /** The kubelet of a machine (kubeadm init / join), started unless the machine is down. */
  async join(config: NodeConfig, running = true): Promise<string> {
    const kubelet = new Kubelet({ node: config, server: this.server, clock: this.clock, random: this.random, trace: this.trace, sharedLoad: this.sharedLoad });
    this.kubelets.set(config.name, kubelet);
    this.parts.push(kubelet);
    if (running) await kubelet.start();
    return config.name;
  }

  drive<T>(work: Promise<T>): Promise<T> {
    return this.etcd && !isInstant(this.etcd.latency) ? this.clock.drive(work) : work;
  }

  /** The metrics-server addon, unless the options leave it out. */
  async installMetricsServer(): Promise<void> {
    const setting = this.options.metricsServer ?? true;
    if (setting === false) return;
    const resolutionMs = typeof setting === 'object' ? setting.resolutionMs : undefined;
    this.metricsServer = new MetricsServer({ server: this.server, clock: this.clock, random: this.random, kubelet: (node) => this.kubelets.get(node), resolutionMs });
    await this.drive(this.add(this.metricsServer));
    // Its informers list and its first scrape runs, at this instant.
    await this.clock.settle({ maxDuration: 0 });
  }

  addNode(spec?: MachineSpec): Promise<string> {
    return this.drive(this.join(this.layout.worker(spec)));
  }

  stopNode(node: string): void {
    this.must(node).stop();
  }

  startNode(node: string): Promise<void> {
    // Its registration is a request like any other: it takes virtual time with the latency model.
    return this.drive(this.must(node).start());
  }

  cordon(node: string): Promise<string> {
    return cordon(this.client(), node);
  }

  uncordon(node: string): Promise<string> {
    return uncordon(this.client(), node);
  }

  drain(node: string, options?: DrainOptions): Promise<string[]> {
    return drain(this.client(), node, options);
  }

  scale(ref: ScalableRef, replicas: number): Promise<string> {
    return scale(this.client(), ref, replicas);
  }

  rolloutRestart(ref: WorkloadRef): Promise<string> {
    return rolloutRestart(this.client(), ref, this.clock);
  }

  rolloutUndo(ref: DeploymentRef, toRevision?: number): Promise<string> {
    return rolloutUndo(this.client(), ref, toRevision);
  }

  settle(options?: SettleOptions): Promise<SettleResult> {
    return this.clock.settle(options);
  }

  advance(ms: number): Promise<number> {
    return this.clock.advance(ms);
  }

  async reset(): Promise<Cluster> {
    await this.close();
    return createCluster(this.options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const part of [...this.parts].reverse()) await part.stop();
    await this.server.close();
    await this.store.close();
  }

  private must(node: string): Kubelet {
    const kubelet = this.kubelets.get(node);
    if (!kubelet) throw new Error(`nodes "${node}" not found`);
    return kubelet;
  }
}

/** The API server with every request and watch start awaited through `drive`. */
function drivenServer(server: ApiServer, drive: <T>(work: Promise<T>) => Promise<T>): ApiServer {
  return {
    handle: (request) => drive(server.handle(request)),
    authorizePath: (request) => drive(server.authorizePath(request)),
    watch: (request, listener) => drive(server.watch(request, listener)),
    get reader() {
      return server.reader;
    },
    get clock() {
      return server.clock;
    },
    get tokens() {
      return server.tokens;
    },
    get serviceAccountTokens() {
      return server.serviceAccountTokens;
    },
    get registry() {
      return server.registry;
    },
    get trace() {
      return server.trace;
    },
    get aggregator() {
      return server.aggregator;
    },
    compact: () => drive(server.compact()),
    etcdHealth: () => drive(server.etcdHealth()),
    watchCacheStatus: () => server.watchCacheStatus(),
    close: () => server.close(),
  };
}
