import type { Clock } from '../clock';
import { createEtcdStore, type EtcdCredentials } from './etcd';
import { createSimulatedEtcd, type SimulatedEtcdOptions } from './etcdserver';
import type { StoreSnapshot } from './snapshot';
import type { BackendName, Store } from './types';

export * from './types';
export { STORE_SNAPSHOT_FORMAT, type StoreSnapshot } from './snapshot';
export { formatRevisionLog } from './format';
export { PROGRESS_NOTIFY_INTERVAL_MS } from './memory/watchable-store';
export { MAX_LEASE_TTL, MIN_LEASE_TTL } from './memory/lessor';
export type { SimulatedEtcdOptions } from './etcdserver';
export type { EtcdCredentials } from './etcd';

export interface StoreOptions {
  backend: BackendName;
  clock: Clock;
  /** etcd client URLs (etcd backend only); default http://127.0.0.1:2379. */
  endpoints?: string[];
  /** TLS for https:// endpoints (etcd backend only). */
  credentials?: EtcdCredentials;
  /** Memory backend only: start from this snapshot instead of an empty store. */
  restore?: StoreSnapshot;
  /** Memory backend only: the simulated etcd cluster (default: one member, instant). */
  etcd?: SimulatedEtcdOptions;
}

/**
 * The store behind the API server: 'memory' (default: a simulated etcd cluster in-process, on
 * the virtual clock) or 'etcd' (a real etcd 3.4 through the etcd3 client; leases follow
 * etcd's real time).
 */
export function createStore(options: StoreOptions): Store {
  if (options.backend === 'etcd') {
    if (options.restore) throw new Error('kubesim: a snapshot can only be restored into the memory store');
    return createEtcdStore({ clock: options.clock, endpoints: options.endpoints, credentials: options.credentials });
  }
  return createSimulatedEtcd(options.clock, options.etcd, options.restore);
}
