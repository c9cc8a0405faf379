import type { Clock } from '../clock';
import { createEtcdStore } from './etcd';
import { createMemoryStore } from './memory';
import type { StoreSnapshot } from './memory/snapshot';
import type { BackendName, Store } from './types';

export * from './types';
export { STORE_SNAPSHOT_FORMAT, type StoreSnapshot } from './memory/snapshot';
export { formatRevisionLog } from './format';
export { PROGRESS_NOTIFY_INTERVAL_MS } from './memory/watchable-store';
export { MAX_LEASE_TTL, MIN_LEASE_TTL } from './memory/lessor';

export interface StoreOptions {
  backend: BackendName;
  clock: Clock;
  /** etcd client URLs (etcd backend only); default http://127.0.0.1:2379. */
  endpoints?: string[];
  /** Memory backend only: start from this snapshot instead of an empty store. */
  restore?: StoreSnapshot;
}

/**
 * The store behind the API server: 'memory' (default, in-process, on the virtual clock) or
 * 'etcd' (a real etcd 3.4 through the etcd3 client; leases follow etcd's real time).
 */
export function createStore(options: StoreOptions): Store {
  if (options.backend === 'etcd') {
    if (options.restore) throw new Error('kubesim: a snapshot can only be restored into the memory store');
    return createEtcdStore({ clock: options.clock, endpoints: options.endpoints });
  }
  return createMemoryStore({ clock: options.clock, restore: options.restore });
}
