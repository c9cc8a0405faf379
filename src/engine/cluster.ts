/**
 * createCluster: one simulated Kubernetes 1.35 control plane, wired as kubeadm would start it.
 * The store sits behind the API server only; every other part (controllers, scheduler, kubelets,
 * the editor, the CLI, kubectl through the HTTP facade) is a client of the API server with its
 * own identity (DESIGN.md invariant 1). Everything runs on one virtual Clock and one seeded
 * Random, so the same seed and inputs give the same cluster, byte for byte (invariant 3).
 */
import { Clock, DEFAULT_EPOCH_MS, type ClockHost, type SettleOptions, type SettleResult } from './clock';
import { Random } from './random';
import { createStore, type BackendName, type Store } from './store';
import { createApiServer, type ApiServer } from './apiserver/server';
import { bootstrapSystemObjects } from './apiserver/bootstrap';
import { unionAuthorizer } from './apiserver/authz/union';
import { createNodeAuthorizer } from './apiserver/authz/node';
import { createRbacAuthorizer } from './apiserver/authz/rbac';
import type { AuthorizerFactory } from './apiserver/authz/types';
import { ADMIN_USER, type UserInfo } from './apiserver/authn/user';
import { TraceBuffer } from './trace/buffer';
import { Client } from './client';

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
}

/** A part of the control plane that runs as an API client: a controller, the scheduler, a kubelet. */
export interface ClusterComponent {
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export interface Cluster {
  readonly seed: string;
  readonly clock: Clock;
  readonly random: Random;
  readonly store: Store;
  readonly server: ApiServer;
  readonly trace: TraceBuffer;
  /** A client with the given identity; the default is the cluster admin (system:masters). */
  client(user?: UserInfo, userAgent?: string): Client;
  /** Starts a component now and stops it with the cluster. */
  add(component: ClusterComponent): Promise<void>;
  components(): readonly ClusterComponent[];
  /** Runs the cluster until nothing but background work is pending (or the bounds are hit). */
  settle(options?: SettleOptions): Promise<SettleResult>;
  advance(ms: number): Promise<number>;
  close(): Promise<void>;
}

export const DEFAULT_TRACE_CAPACITY = 100_000;
export const ADMIN_USER_AGENT = 'kubectl/v1.35.0 (linux/amd64) kubernetes/unknown';

/** --authorization-mode=Node,RBAC, kubeadm's default (system:masters is always allowed first). */
export const nodeAndRbac: AuthorizerFactory = (reader) => unionAuthorizer([createNodeAuthorizer(reader), createRbacAuthorizer(reader)]);

export async function createCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const seed = options.seed ?? 'kubesim';
  const clock = new Clock(options.startTime ?? DEFAULT_EPOCH_MS, options.clockHost);
  const random = new Random(seed);
  const store = createStore({ backend: options.backend ?? 'memory', clock, endpoints: options.endpoints });
  const trace = new TraceBuffer({ clock, capacity: options.traceCapacity ?? DEFAULT_TRACE_CAPACITY });
  const server = await createApiServer({ store, clock, random: random.fork('apiserver'), authorizer: nodeAndRbac, trace });
  await bootstrapSystemObjects(server);
  await clock.settle({ maxDuration: 0 });
  return new RunningCluster(seed, clock, random, store, server, trace);
}

class RunningCluster implements Cluster {
  private readonly parts: ClusterComponent[] = [];
  private closed = false;

  constructor(
    readonly seed: string,
    readonly clock: Clock,
    readonly random: Random,
    readonly store: Store,
    readonly server: ApiServer,
    readonly trace: TraceBuffer,
  ) {}

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

  settle(options?: SettleOptions): Promise<SettleResult> {
    return this.clock.settle(options);
  }

  advance(ms: number): Promise<number> {
    return this.clock.advance(ms);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const part of [...this.parts].reverse()) await part.stop();
    await this.server.close();
    await this.store.close();
  }
}
