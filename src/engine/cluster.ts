/**
 * createCluster: one simulated Kubernetes 1.35 control plane, wired as kubeadm would start it.
 * The store sits behind the API server only; every other part (kube-controller-manager,
 * kube-scheduler, one kubelet per node, the editor, the CLI, kubectl through the HTTP facade) is
 * a client of the API server with its own identity (DESIGN.md invariant 1). Everything runs on
 * one virtual Clock and one seeded Random, so the same seed and inputs give the same cluster,
 * byte for byte (invariant 3).
 *
 * By default the cluster has a tainted control-plane node and three workers (4 CPUs, 16Gi,
 * 110 pods) in zones zone-a, zone-b and zone-c, and createCluster returns once every node is
 * Ready and the default namespace's ServiceAccount exists (`kind create cluster --wait`).
 */
import { Clock, DEFAULT_EPOCH_MS, type ClockHost, type SettleOptions, type SettleResult } from './clock';
import { Random } from './random';
import { createStore, type BackendName, type Store, type StoreSnapshot } from './store';
import { createApiServer, type ApiServer } from './apiserver/server';
import { bootstrapSystemObjects } from './apiserver/bootstrap';
import { unionAuthorizer } from './apiserver/authz/union';
import { createNodeAuthorizer } from './apiserver/authz/node';
import { createRbacAuthorizer } from './apiserver/authz/rbac';
import type { AuthorizerFactory } from './apiserver/authz/types';
import { ADMIN_USER, type UserInfo } from './apiserver/authn/user';
import { TraceBuffer } from './trace/buffer';
import { Client } from './client';
import { Kubelet, kubeletLogSource, type KubeletLogSource, type NodeConfig } from './kubelet';
import type { NodeLifecycleSettings } from './controllers/nodelifecycle/controller';
import type { RecordDetail } from './scheduler/record';
import { EventTrace } from './components/event-trace';
import { KubeControllerManager } from './components/kube-controller-manager';
import { KubeScheduler } from './components/kube-scheduler';
import { NodeLayout, type MachineSpec, type NodeOptions } from './components/nodes';
import { waitForControlPlane } from './components/readiness';
import { cordon, drain, uncordon, type DrainOptions } from './components/kubectl/node';
import { rolloutRestart, rolloutUndo, scale, type DeploymentRef, type ScalableRef, type WorkloadRef } from './components/kubectl/workload';

export interface ClusterOptions {
  /** Seeds every random choice (names, uids, IPs, tie-breaks). Default "kubesim". */
  seed?: string;
  /** Virtual wall time at start, ms since the epoch. Default 2025-01-01T00:00:00Z. */
  startTime?: number;
  backend?: BackendName;
  /** etcd endpoints for the etcd backend. */
  endpoints?: string[];
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
}

export interface RestoreOptions {
  store: StoreSnapshot;
  /** The machines, and whether each one's kubelet was running. */
  nodes: readonly { config: NodeConfig; running: boolean }[];
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
  readonly server: ApiServer;
  readonly trace: TraceBuffer;
  /** pods/log for the HTTP facade: the kubelet of the pod's node. */
  readonly logs: KubeletLogSource;
  /** A client with the given identity; the default is the cluster admin (system:masters). */
  client(user?: UserInfo, userAgent?: string): Client;
  /** Starts a component now and stops it with the cluster. */
  add(component: ClusterComponent): Promise<void>;
  components(): readonly ClusterComponent[];
  /** The simulated nodes' names, in the order they were added. */
  nodes(): readonly string[];
  kubelet(node: string): Kubelet | undefined;
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
  const store = createStore({ backend: options.backend ?? 'memory', clock, endpoints: options.endpoints, restore: options.restore?.store });
  const trace = new TraceBuffer({ clock, capacity: options.traceCapacity ?? DEFAULT_TRACE_CAPACITY });
  const server = await createApiServer({ store, clock, random: random.fork('apiserver'), authorizer: nodeAndRbac, trace });
  await bootstrapSystemObjects(server);
  await clock.settle({ maxDuration: 0 });
  const cluster = new RunningCluster(seed, options, clock, random, store, server, trace);
  if (options.bare) return cluster;
  await cluster.add(new EventTrace(cluster.client(ADMIN_USER, 'kubesim-trace'), trace));
  await cluster.add(new KubeControllerManager({ server, clock, random, trace, nodeLifecycle: options.nodeLifecycle }));
  await cluster.add(new KubeScheduler({ server, clock, random, trace, recordDetail: options.schedulerRecordDetail, percentageOfNodesToScore: options.percentageOfNodesToScore }));
  if (options.restore) {
    // The Nodes, Leases and pods are in the store: the kubelets pick up where they were.
    cluster.layout.resume(options.restore.nodes.map((n) => n.config));
    for (const { config, running } of options.restore.nodes) await cluster.join(config, running);
    return cluster;
  }
  const nodes = options.nodes ?? {};
  if (nodes.controlPlane !== false) await cluster.join(cluster.layout.controlPlane());
  for (let i = 0; i < (nodes.count ?? 3); i++) await cluster.join(cluster.layout.worker());
  await waitForControlPlane(cluster);
  return cluster;
}

class RunningCluster implements Cluster {
  readonly layout: NodeLayout;
  readonly logs: KubeletLogSource;
  private readonly parts: ClusterComponent[] = [];
  private readonly kubelets = new Map<string, Kubelet>();
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
    this.layout = new NodeLayout(options.nodes ?? {});
    this.logs = kubeletLogSource((node) => this.kubelets.get(node));
  }

  client(user: UserInfo = ADMIN_USER, userAgent: string = ADMIN_USER_AGENT): Client {
    return new Client({ server: this.server, user, userAgent });
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
    const kubelet = new Kubelet({ node: config, server: this.server, clock: this.clock, random: this.random, trace: this.trace });
    this.kubelets.set(config.name, kubelet);
    this.parts.push(kubelet);
    if (running) await kubelet.start();
    return config.name;
  }

  addNode(spec?: MachineSpec): Promise<string> {
    return this.join(this.layout.worker(spec));
  }

  stopNode(node: string): void {
    this.must(node).stop();
  }

  startNode(node: string): Promise<void> {
    return this.must(node).start();
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
