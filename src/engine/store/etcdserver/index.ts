/**
 * The simulated etcd: a Raft cluster of members (cluster.ts, member.ts) whose MVCC state
 * machines hold the data (../memory), and the client the API server uses (client.ts).
 */
import type { Clock } from '../../clock';
import { Random } from '../../random';
import type { TraceBuffer } from '../../trace/buffer';
import type { StoreSnapshot } from '../snapshot';
import { EtcdClient } from './client';
import { EtcdCluster } from './cluster';
import { resolveLatency, type LatencySetting } from './latency';
import type { RaftTimings } from './member';

export { alarmText, DEFAULT_MEMBERS, ETCD_CLUSTER_VERSION, ETCD_SERVER_VERSION, EtcdCluster, MAX_MEMBERS, type MemberStatus } from './cluster';
export { EtcdClient } from './client';
export type { EtcdAlarmType } from './member';
export { DEFAULT_QUOTA_BACKEND_BYTES } from './quota';
export { INSTANT_LATENCY, MODEL_LATENCY, SLOW_DISK_FSYNC_MS, resolveLatency, type EtcdLatency, type LatencySetting } from './latency';

export interface SimulatedEtcdOptions {
  /**
   * Members (etcd-0, etcd-1, ...): 1 to 7. Default 1: a bare store (the language server's
   * mirror, `kubesim validate`, the store's own tests); createCluster asks for DEFAULT_MEMBERS.
   */
  members?: number;
  /**
   * The latency model: 'model' (default parts), 'instant', or parts overriding the model.
   * Default 'instant' for a bare store; createCluster defaults to 'model'.
   */
  latency?: LatencySetting;
  /** Seeds election timeouts and member IDs. */
  random?: Random;
  /** Where elections, faults and failed requests are recorded. */
  trace?: TraceBuffer;
  timings?: Partial<RaftTimings>;
  /** Raft messages kept in the cluster's message stream. */
  messageCapacity?: number;
  /** etcd's --quota-backend-bytes: 0 or absent for 2 GiB, negative for none. */
  quotaBackendBytes?: number;
}

export function createSimulatedEtcd(clock: Clock, options: SimulatedEtcdOptions = {}, restore?: StoreSnapshot): EtcdClient {
  const cluster = new EtcdCluster({
    clock,
    random: options.random ?? new Random('kubesim-etcd'),
    members: options.members ?? 1,
    latency: resolveLatency(options.latency ?? 'instant'),
    trace: options.trace,
    restore,
    timings: options.timings,
    messageCapacity: options.messageCapacity,
    quotaBackendBytes: options.quotaBackendBytes,
  });
  return new EtcdClient(cluster, clock, options.trace);
}
