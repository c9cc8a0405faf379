/**
 * Registering the Node and keeping its status (registerWithAPIServer, updateNodeStatus): create
 * the Node with its full status, or, when it exists already (a restarted kubelet), post the
 * current status onto it. Every 10 s the kubelet computes the status again and patches it when
 * something changed, or when 5 minutes passed since the last report; with node Leases, that is
 * all the heartbeat the status needs. Fields and conditions other components own (a CNI's
 * NetworkUnavailable, the node controller's) are left as they are.
 */
import { isStatusError } from '../api/status';
import type { JsonObject } from '../api/types';
import { isObject } from '../api/types';
import type { Client } from '../client/client';
import { isAlreadyExists } from '../client/errors';
import { NODES } from '../client/resources';
import type { Node } from './api';
import { NODE_STATUS_REPORT_FREQUENCY_MS, NODE_STATUS_UPDATE_FREQUENCY_MS, type NodeConfig } from './config';
import { MESSAGE, nodeRef, type EventSink } from './events';
import { computeNodeStatus, initialNode, nodeStatusChanged } from './node-status';
import { NODE_STATUS_MERGE_KEYS, twoWayPatch } from './status-patch';
import type { KubeletTimer, TimerGroup } from './timers';
import { setOwn } from '../api/own';

export interface NodeSyncHost {
  readonly config: NodeConfig;
  readonly timers: TimerGroup;
  readonly events: EventSink;
  client(): Client;
  now(): number;
  rfc3339(): string;
  images(): JsonObject[];
}

export class NodeSync {
  /** The Node as the API server last showed it. */
  node: Node | undefined;
  private lastReport = -Infinity;
  private timer: KubeletTimer | undefined;
  private running = false;

  constructor(private readonly host: NodeSyncHost) {}

  get uid(): string | undefined {
    return this.node?.metadata.uid;
  }

  /** Creates the Node, or brings an existing one up to date. */
  async register(): Promise<void> {
    const name = this.host.config.name;
    const computed = computeNodeStatus(this.host.config, [], this.host.images(), this.host.rfc3339());
    try {
      this.node = await this.nodes().create(initialNode(this.host.config, computed.status));
      this.lastReport = this.host.now();
      this.announce(computed.events);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      this.node = await this.nodes().get(name);
      await this.update(true);
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    this.host.timers.clear(this.timer);
    this.timer = undefined;
  }

  private observe(node: Node): void {
    if (!this.node || Number(node.metadata.resourceVersion ?? 0) >= Number(this.node.metadata.resourceVersion ?? 0)) this.node = node;
  }

  private schedule(): void {
    this.timer = this.host.timers.set(NODE_STATUS_UPDATE_FREQUENCY_MS, () => this.tick(), { daemon: true, label: `node status ${this.host.config.name}` });
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    await this.update(false);
    if (this.running) this.schedule();
  }

  private async update(force: boolean): Promise<void> {
    let node: Node;
    try {
      // tryUpdateNodeStatus reads the Node first (from the API server's cache).
      node = await this.nodes().get(this.host.config.name, { resourceVersion: '0' });
    } catch (err) {
      if (isStatusError(err)) return;
      throw err;
    }
    this.observe(node);
    const current = (node.status ?? {}) as JsonObject;
    const conditions = node.status?.conditions;
    const previous = Array.isArray(conditions) ? conditions : [];
    const computed = computeNodeStatus(this.host.config, previous, this.host.images(), this.host.rfc3339());
    const next = overlay(current, computed.status);
    const due = this.host.now() - this.lastReport >= NODE_STATUS_REPORT_FREQUENCY_MS;
    if (!force && !due && !nodeStatusChanged(current, next)) return;
    const patch = twoWayPatch(current, next, NODE_STATUS_MERGE_KEYS);
    if (!patch) return;
    try {
      this.observe(await this.nodes().patch(this.host.config.name, 'strategic', { status: patch }, { subresource: 'status' }));
    } catch (err) {
      // Refused or gone: the next tick tries again.
      if (isStatusError(err)) return;
      throw err;
    }
    this.lastReport = this.host.now();
    this.announce(computed.events);
  }

  private announce(events: string[]): void {
    const ref = nodeRef(this.host.config.name);
    for (const reason of events) this.host.events.event(ref, 'Normal', reason, MESSAGE.nodeStatusIsNow(this.host.config.name, reason));
  }

  private nodes() {
    return this.host.client().resource<Node>(NODES);
  }
}

/**
 * The kubelet's fields over the status as it is: its conditions replace theirs by type (others'
 * stay where they are), every other field it sets replaces the old value.
 */
function overlay(current: JsonObject, mine: JsonObject): JsonObject {
  const out: JsonObject = { ...current };
  for (const [field, value] of Object.entries(mine)) {
    if (field !== 'conditions' || !Array.isArray(value) || !Array.isArray(current.conditions)) {
      setOwn(out, field, value);
      continue;
    }
    const merged = [...current.conditions];
    for (const c of value) {
      if (!isObject(c)) continue;
      const at = merged.findIndex((m) => isObject(m) && m.type === c.type);
      if (at >= 0) merged[at] = c;
      else merged.push(c);
    }
    out.conditions = merged;
  }
  return out;
}
