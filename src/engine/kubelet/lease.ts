/**
 * The node Lease (component-helpers' lease controller as the kubelet runs it): a Lease named
 * after the node in kube-node-lease, held by the node, 40 s long, owned by the Node object, and
 * renewed every 10 s. The renewals are daemon timers: they are the heartbeat of a quiet cluster,
 * not work that keeps it from settling. A renewal that fails (the cached Lease is stale, or was
 * deleted) gets or creates it afresh on the next tick.
 */
import { isAlreadyExists, isNotFound } from '../client/errors';
import type { Client } from '../client/client';
import { deepCopy } from '../client/clone';
import { LEASES } from '../client/resources';
import { isStatusError } from '../api/status';
import type { Lease } from '../api/generated/coordination-v1';
import { NODE_LEASE_DURATION_SECONDS, NODE_LEASE_NAMESPACE, NODE_LEASE_RENEW_INTERVAL_MS } from './config';
import type { KubeletTimer, TimerGroup } from './timers';

export interface LeaseHost {
  readonly nodeName: string;
  readonly timers: TimerGroup;
  client(): Client;
  /** MicroTime now. */
  microNow(): string;
  /** The Node's UID once it is known, for the Lease's owner reference. */
  nodeUID(): string | undefined;
}

export class NodeLease {
  private latest: Lease | undefined;
  private timer: KubeletTimer | undefined;
  private running = false;

  constructor(private readonly host: LeaseHost) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    this.host.timers.clear(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    this.timer = this.host.timers.set(delayMs, () => this.sync(), { daemon: true, label: `lease ${this.host.nodeName}` });
  }

  private async sync(): Promise<void> {
    if (!this.running) return;
    try {
      this.latest = this.latest ? await this.renew(this.latest) : await this.ensure();
    } catch (err) {
      // A stale or missing cached Lease: start from the server's copy next time.
      if (!isStatusError(err)) throw err;
      this.latest = undefined;
    }
    if (this.running) this.schedule(NODE_LEASE_RENEW_INTERVAL_MS);
  }

  private leases() {
    return this.host.client().resource<Lease>(LEASES, NODE_LEASE_NAMESPACE);
  }

  /** backoffEnsureLease: the existing Lease renewed, or a new one. */
  private async ensure(): Promise<Lease> {
    try {
      const existing = await this.leases().get(this.host.nodeName);
      return await this.renew(existing);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      return await this.leases().create(this.newLease());
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      return this.renew(await this.leases().get(this.host.nodeName));
    }
  }

  private renew(base: Lease): Promise<Lease> {
    const lease = deepCopy(base);
    lease.spec = { ...lease.spec, holderIdentity: this.host.nodeName, leaseDurationSeconds: NODE_LEASE_DURATION_SECONDS, renewTime: this.host.microNow() };
    const owner = this.ownerReference();
    if (owner && !(lease.metadata.ownerReferences ?? []).length) lease.metadata.ownerReferences = [owner];
    return this.leases().update(lease);
  }

  private newLease(): Lease {
    const owner = this.ownerReference();
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.host.nodeName, namespace: NODE_LEASE_NAMESPACE, ...(owner ? { ownerReferences: [owner] } : {}) },
      spec: { holderIdentity: this.host.nodeName, leaseDurationSeconds: NODE_LEASE_DURATION_SECONDS, renewTime: this.host.microNow() },
    };
  }

  private ownerReference() {
    const uid = this.host.nodeUID();
    return uid ? { apiVersion: 'v1', kind: 'Node', name: this.host.nodeName, uid } : undefined;
  }
}
