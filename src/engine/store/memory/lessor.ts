import type { Clock, Timer } from '../../clock';
import { StoreError } from '../types';
import { compareBytes } from '../keys';
import type { LeaseAttachments } from './kv-store';

/** etcd refuses TTLs above this many seconds. */
export const MAX_LEASE_TTL = 9_000_000_000;
/**
 * etcd raises shorter TTLs to 1.5 election timeouts, rounded up to whole seconds: 2 s with the
 * default --election-timeout of 1000 ms.
 */
export const MIN_LEASE_TTL = 2;

interface Lease {
  readonly id: number;
  readonly ttl: number;
  expiry: number;
  timer: Timer;
  readonly keys: Set<string>;
}

/**
 * Leases on the virtual clock (etcd's lessor). A lease expires exactly ttl seconds after its
 * grant or last keep-alive; expiry revokes it, deleting its keys in one revision.
 */
export class Lessor implements LeaseAttachments {
  private readonly leases = new Map<number, Lease>();
  private nextId = 1;

  constructor(
    private readonly clock: Clock,
    /** Deletes the keys (sorted) in one write txn; called on revoke and on expiry. */
    private readonly deleteKeys: (keys: string[]) => void,
  ) {}

  has(id: number): boolean {
    return this.leases.has(id);
  }

  /**
   * etcd picks a random 63-bit ID when none is given; here IDs count up from 1 (skipping taken
   * ones) so that runs repeat and every ID fits a JavaScript number exactly.
   */
  unusedId(): number {
    while (this.leases.has(this.nextId)) this.nextId++;
    return this.nextId++;
  }

  grant(id: number, ttlSeconds: number): { id: number; ttl: number } {
    if (ttlSeconds > MAX_LEASE_TTL) throw new StoreError('leaseTtlTooLarge');
    if (this.leases.has(id)) throw new StoreError('leaseExists');
    const ttl = Math.max(Math.trunc(ttlSeconds), MIN_LEASE_TTL);
    const lease: Lease = { id, ttl, expiry: 0, timer: this.schedule(id, ttl), keys: new Set() };
    lease.expiry = lease.timer.at;
    this.leases.set(id, lease);
    return { id, ttl };
  }

  revoke(id: number): void {
    const lease = this.leases.get(id);
    if (!lease) throw new StoreError('leaseNotFound');
    this.clock.clearTimer(lease.timer);
    const keys = [...lease.keys].sort(compareBytes);
    this.leases.delete(id);
    if (keys.length > 0) this.deleteKeys(keys);
  }

  /** Returns the TTL now running, or 0 for an unknown lease (etcd answers keep-alives so). */
  renew(id: number): number {
    const lease = this.leases.get(id);
    if (!lease) return 0;
    this.clock.clearTimer(lease.timer);
    lease.timer = this.schedule(id, lease.ttl);
    lease.expiry = lease.timer.at;
    return lease.ttl;
  }

  /**
   * etcd truncates the remaining time to whole seconds, and some time always passes between a
   * grant and a question in real life: a lease granted for 100 s reports 99. Virtual time can stand
   * still, so the remainder counts as just under what the clock says.
   */
  timeToLive(id: number): { ttl: number; grantedTtl: number; keys: string[] } | undefined {
    const lease = this.leases.get(id);
    if (!lease) return undefined;
    const remaining = lease.expiry - this.clock.now();
    return { ttl: Math.max(0, Math.ceil(remaining / 1000) - 1), grantedTtl: lease.ttl, keys: [...lease.keys].sort(compareBytes) };
  }

  attach(id: number, key: string): void {
    this.leases.get(id)?.keys.add(key);
  }

  detach(id: number, key: string): void {
    this.leases.get(id)?.keys.delete(key);
  }

  /** The leases held and the next ID to try (for snapshots); expiry is virtual ms. */
  state(): { nextId: number; leases: Array<{ id: number; ttl: number; expiry: number }> } {
    return { nextId: this.nextId, leases: [...this.leases.values()].map(({ id, ttl, expiry }) => ({ id, ttl, expiry })) };
  }

  /** Re-creates the leases of a snapshot, each expiring `remainingMs` from now; keys attach as they are restored. */
  restore(state: { nextId: number; leases: ReadonlyArray<{ id: number; ttl: number; remainingMs: number }> }): void {
    for (const { id, ttl, remainingMs } of state.leases) {
      const timer = this.clock.setTimer(remainingMs, () => this.expire(id), { daemon: true, label: `etcd lease ${id} expiry` });
      this.leases.set(id, { id, ttl, expiry: timer.at, timer, keys: new Set() });
    }
    this.nextId = state.nextId;
  }

  close(): void {
    for (const lease of this.leases.values()) this.clock.clearTimer(lease.timer);
    this.leases.clear();
  }

  private schedule(id: number, ttl: number): Timer {
    return this.clock.setTimer(ttl * 1000, () => this.expire(id), { daemon: true, label: `etcd lease ${id} expiry` });
  }

  private expire(id: number): void {
    if (this.leases.has(id)) this.revoke(id);
  }
}
