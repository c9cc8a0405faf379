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
  /** Virtual ms; infinite on a lessor that is not primary. */
  expiry: number;
  timer: Timer | undefined;
  /** A restored lease's expiry, kept until a lessor becomes primary: a saved cluster goes on where it was. */
  restoredExpiry?: number;
  readonly keys: Set<string>;
}

/**
 * Leases on the virtual clock (etcd's lessor). Every member of an etcd cluster holds every lease
 * (grants and revokes are raft entries), but only the leader's lessor is primary: it alone
 * renews leases and watches their expiry, which it turns into a revoke through raft. A lease
 * expires exactly ttl seconds after its grant or last keep-alive; a lessor that becomes primary
 * gives every lease its full TTL again plus an extension (etcd: the election timeout), since
 * the keep-alives sent to the old leader are lost.
 */
export class Lessor implements LeaseAttachments {
  private readonly leases = new Map<number, Lease>();
  private nextId = 1;
  private primary: boolean;

  constructor(
    private readonly clock: Clock,
    /** Deletes the keys (sorted) in one write txn; called on revoke. */
    private readonly deleteKeys: (keys: string[]) => void,
    /** Told when a lease of the primary lessor expires (the member proposes its revoke). */
    private readonly onExpired: (id: number) => void,
    primary = true,
  ) {
    this.primary = primary;
  }

  isPrimary(): boolean {
    return this.primary;
  }

  /** This member became leader: it watches expiry from now on, every lease renewed and extended. */
  promote(extendMs: number): void {
    this.primary = true;
    for (const lease of this.leases.values()) {
      this.clock.clearTimer(lease.timer);
      const restored = lease.restoredExpiry;
      lease.restoredExpiry = undefined;
      lease.timer = this.schedule(lease.id, restored !== undefined ? Math.max(0, restored - this.clock.now()) : lease.ttl * 1000 + extendMs);
      lease.expiry = lease.timer.at;
    }
  }

  /** This member is no longer leader: its leases never expire here. */
  demote(): void {
    this.primary = false;
    for (const lease of this.leases.values()) {
      this.clock.clearTimer(lease.timer);
      lease.timer = undefined;
      lease.expiry = Number.POSITIVE_INFINITY;
    }
  }

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
    const timer = this.primary ? this.schedule(id, ttl * 1000) : undefined;
    this.leases.set(id, { id, ttl, expiry: timer ? timer.at : Number.POSITIVE_INFINITY, timer, keys: new Set() });
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

  /** Returns the TTL now running, or 0 for an unknown lease (etcd answers keep-alives so). Primary only. */
  renew(id: number): number {
    const lease = this.leases.get(id);
    if (!lease) return 0;
    this.clock.clearTimer(lease.timer);
    lease.timer = this.schedule(id, lease.ttl * 1000);
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

  /** The leases held and the next ID to try (for snapshots); expiry is virtual ms (infinite on a non-primary lessor). */
  state(): { nextId: number; leases: Array<{ id: number; ttl: number; expiry: number }> } {
    return { nextId: this.nextId, leases: [...this.leases.values()].map(({ id, ttl, expiry }) => ({ id, ttl, expiry })) };
  }

  /** Re-creates the leases of a snapshot, each expiring `remainingMs` from now (if primary); keys attach as they are restored. */
  restore(state: { nextId: number; leases: ReadonlyArray<{ id: number; ttl: number; remainingMs: number }> }): void {
    for (const { id, ttl, remainingMs } of state.leases) {
      const timer = this.primary ? this.schedule(id, remainingMs) : undefined;
      const lease: Lease = { id, ttl, expiry: timer ? timer.at : Number.POSITIVE_INFINITY, timer, keys: new Set() };
      if (!timer) lease.restoredExpiry = this.clock.now() + remainingMs;
      this.leases.set(id, lease);
    }
    this.nextId = state.nextId;
  }

  close(): void {
    for (const lease of this.leases.values()) this.clock.clearTimer(lease.timer);
    this.leases.clear();
  }

  private schedule(id: number, ms: number): Timer {
    return this.clock.setTimer(ms, () => this.expire(id), { daemon: true, label: `etcd lease ${id} expiry` });
  }

  private expire(id: number): void {
    const lease = this.leases.get(id);
    if (!lease || !this.primary) return;
    lease.timer = undefined;
    this.onExpired(id);
  }

  /** The revoke of an expired lease could not be committed: look again in 500 ms (etcd's lessor loop). */
  retryExpiry(id: number): void {
    const lease = this.leases.get(id);
    if (!lease || !this.primary || lease.timer) return;
    lease.timer = this.schedule(id, 500);
    lease.expiry = lease.timer.at;
  }
}
