/**
 * The node lifecycle controller (pkg/controller/nodelifecycle). Every 5 s (--node-monitor-period)
 * it checks each node's health (health.ts): a node not heard from (Lease or status) for 50 s
 * (--node-monitor-grace-period, 1.35 default) gets Unknown conditions with NodeStatusUnknown
 * "Kubelet stopped posting node status.", a NodeNotReady event, and its pods Ready=False. A node
 * not Ready is queued in its zone for the NoExecute taint (unreachable for Unknown, not-ready for
 * False), applied at the zone's rate (zones.ts) by a pass every 100 ms; a node Ready again loses
 * them. Node changes also set the NoSchedule condition taints; pods bound to a node that is not
 * Ready are marked not Ready. New nodes get a RegisteredNode event.
 *
 * Runs as system:serviceaccount:kube-system:node-controller; events come from "node-controller".
 */
import { StatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import type { Clock, Timer } from '../../clock';
import type { Client } from '../../client/client';
import { deepCopy } from '../../client/clone';
import type { Controller, ReconcileContext } from '../../client/controller';
import { isConflict, isNotFound } from '../../client/errors';
import type { EventRecorder } from '../../client/events';
import { NODE_NAME_INDEX, nodeNameIndexFunc, splitMetaNamespaceKey, type SharedIndexInformer } from '../../client/informer';
import { LEASES, NODES, PODS } from '../../client/resources';
import type { TraceBuffer } from '../../trace/buffer';
import type { ReconcileRecord } from '../../trace/reconcile';
import { controlLoop, eventRecorder, type ControllerDeps } from '../util/deps';
import { checkNodeHealth, type NodeHealth } from './health';
import { labelsToReconcile } from './labels';
import { removeTaints, swapNodeControllerTaints } from './node-writes';
import { NODE_NOT_READY_POD_MESSAGE, podMarkedNotReady } from './pods';
import { RateLimitedTimedQueue } from './rate-limited-queue';
import { noScheduleTaintChanges, NOT_READY_NO_EXECUTE, taintExists, UNREACHABLE_NO_EXECUTE } from './taints';
import { NODE_LEASE_NAMESPACE, type Lease, type Node, type NodeCondition, type Pod } from '../util/types/node';
import { DEFAULT_EVICTION_SETTINGS, zoneKey, type EvictionSettings, type ZoneState } from './zones';
import { planDisruption, planTaintBasedEviction } from './plan';

export const NODE_CONTROLLER_ACCOUNT = 'node-controller';

export interface NodeLifecycleSettings extends EvictionSettings {
  /** --node-monitor-period. */
  nodeMonitorPeriodMs: number;
  /** --node-monitor-grace-period (50 s since 1.32). */
  nodeMonitorGracePeriodMs: number;
  /** --node-startup-grace-period. */
  nodeStartupGracePeriodMs: number;
}

export const DEFAULT_NODE_LIFECYCLE_SETTINGS: NodeLifecycleSettings = Object.freeze({
  ...DEFAULT_EVICTION_SETTINGS,
  nodeMonitorPeriodMs: 5000,
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
});

/** scheduler.NodeEvictionPeriod: how often queued nodes are tainted. */
const TAINTING_PASS_MS = 100;
/** scheduler.NodeHealthUpdateRetry. */
const HEALTH_UPDATE_RETRIES = 5;
const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

export class NodeLifecycleController {
  /** Node changes: NoSchedule condition taints and label reconciliation. */
  readonly nodeUpdates: Controller;
  /** Pods bound to a node: marked not Ready when the node is not. */
  readonly podUpdates: Controller;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly trace: TraceBuffer;
  private readonly settings: NodeLifecycleSettings;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly leases: SharedIndexInformer<Lease>;
  private readonly recorder: EventRecorder;
  private readonly health = new Map<string, NodeHealth>();
  private readonly known = new Map<string, Node>();
  private readonly zoneStates = new Map<string, ZoneState>();
  private readonly zoneTainters = new Map<string, RateLimitedTimedQueue>();
  private readonly nodesToRetry = new Set<string>();
  private monitorTimer: Timer | undefined;
  private taintingTimer: Timer | undefined;
  private stopped = false;

  constructor(deps: ControllerDeps, settings: Partial<NodeLifecycleSettings> = {}) {
    this.client = deps.client;
    this.clock = deps.clock;
    this.trace = deps.trace;
    this.settings = { ...DEFAULT_NODE_LIFECYCLE_SETTINGS, ...settings };
    this.nodes = deps.informers.informerFor<Node>(NODES);
    this.pods = deps.informers.informerFor<Pod>(PODS, {}, { [NODE_NAME_INDEX]: nodeNameIndexFunc });
    this.leases = deps.informers.informerFor<Lease>(LEASES);
    this.recorder = eventRecorder(deps, 'node-controller', 'node-controller events');
    const informers = [this.nodes, this.pods, this.leases];
    this.nodeUpdates = controlLoop(deps, { name: 'node-lifecycle', workers: 8, informers, sync: (key, ctx) => this.syncNode(key, ctx) });
    this.podUpdates = controlLoop(deps, { name: 'node-lifecycle-pods', workers: 4, informers, sync: (key, ctx) => this.syncPod(key, ctx) });
    this.nodes.addEventHandler({ onAdd: (n) => this.nodeUpdates.enqueueObject(n), onUpdate: (old, n) => old !== n && this.nodeUpdates.enqueueObject(n) });
    this.pods.addEventHandler({
      onAdd: (pod) => this.podBound(undefined, pod),
      onUpdate: (old, pod) => this.podBound(old, pod),
    });
  }

  async run(): Promise<void> {
    const loops = Promise.all([this.nodeUpdates.run(), this.podUpdates.run()]);
    await Promise.all([this.nodes.whenSynced(), this.pods.whenSynced(), this.leases.whenSynced()]);
    if (!this.stopped) this.scheduleMonitor(0);
    await loops;
  }

  shutDown(): void {
    this.stopped = true;
    this.clock.clearTimer(this.monitorTimer);
    this.clock.clearTimer(this.taintingTimer);
    this.nodeUpdates.shutDown();
    this.podUpdates.shutDown();
  }

  private podBound(old: Pod | undefined, pod: Pod): void {
    const node = pod.spec?.nodeName;
    if (node && (!old || old.spec?.nodeName !== node)) this.podUpdates.enqueueObject(pod);
  }

  // --- periodic health monitoring --------------------------------------------------------------

  private scheduleMonitor(delayMs: number): void {
    this.monitorTimer = this.clock.setTimer(
      delayMs,
      async () => {
        await this.monitorNodeHealth();
        if (!this.stopped) this.scheduleMonitor(this.settings.nodeMonitorPeriodMs);
      },
      { daemon: true, label: 'node-lifecycle-controller: monitor node health' },
    );
  }

  /** Runs `fn` with a client whose requests are collected, and records a reconcile when it sent any. */
  private async recorded(key: string, fn: (client: Client, observe: (s: string) => void) => Promise<void>): Promise<void> {
    const requests: number[] = [];
    let observed: string | undefined;
    await fn(this.client.scoped(undefined, (id) => requests.push(id)), (s) => (observed = s));
    if (requests.length === 0) return;
    this.trace.emit<ReconcileRecord>({ type: 'controller.reconcile', component: 'node-lifecycle-controller', controller: 'node-lifecycle', key, trigger: 'resync', observed, requests, outcome: 'done' });
  }

  private async monitorNodeHealth(): Promise<void> {
    const nodes = this.nodes.indexer.list();
    const names = new Set(nodes.map((n) => n.metadata.name ?? ''));
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      if (this.known.has(name)) {
        if (!this.zoneStates.has(zoneKey(node))) this.addZone(node);
        continue;
      }
      this.recorder.event(nodeRef(node), 'Normal', 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
      this.known.set(name, node);
      this.addZone(node);
      await this.recorded(name, (client, observe) => {
        observe('new node');
        return this.markNodeAsReachable(client, node);
      });
    }
    for (const [name, node] of this.known) {
      if (names.has(name)) continue;
      this.recorder.event(nodeRef(node), 'Normal', 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
      this.known.delete(name);
    }
    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    for (const node of nodes) await this.recorded(node.metadata.name ?? '', (client, observe) => this.updateNodeHealth(client, observe, node, zoneConditions));
    await this.handleDisruption(zoneConditions, nodes);
  }

  private addZone(node: Node): void {
    const zone = zoneKey(node);
    if (this.zoneStates.has(zone)) return;
    this.zoneStates.set(zone, 'Initial');
    this.zoneTainters.set(zone, new RateLimitedTimedQueue(this.clock, this.settings.evictionQps));
  }

  private async updateNodeHealth(client: Client, observe: (s: string) => void, cached: Node, zoneConditions: Map<string, (NodeCondition | undefined)[]>): Promise<void> {
    const name = cached.metadata.name ?? '';
    let node = cached;
    let result: ReturnType<typeof checkNodeHealth> | undefined;
    for (let attempt = 0; attempt < HEALTH_UPDATE_RETRIES; attempt++) {
      const now = this.clock.now();
      const check = checkNodeHealth({
        node,
        saved: this.health.get(name),
        lease: this.leases.indexer.getByName(NODE_LEASE_NAMESPACE, name),
        now,
        nowTime: this.clock.rfc3339(now),
        monitorGracePeriodMs: this.settings.nodeMonitorGracePeriodMs,
        startupGracePeriodMs: this.settings.nodeStartupGracePeriodMs,
      });
      this.health.set(name, check.health);
      if (!check.unknownConditions) {
        result = check;
        break;
      }
      try {
        const next = deepCopy(node);
        next.status = { ...next.status, conditions: check.unknownConditions };
        node = await client.resource<Node>(NODES).updateStatus(next);
        this.health.set(name, { conditions: node.status?.conditions ?? [], probeTimestamp: check.health.probeTimestamp, readyTransitionTimestamp: now, lease: check.health.lease });
        observe(`Ready ${check.observed.status} -> ${check.current?.status ?? 'none'}: not heard from since ${this.clock.rfc3339(check.health.probeTimestamp)}`);
        result = check;
        break;
      } catch (err) {
        if (!(err instanceof Error) || err instanceof TypeError) throw err;
        try {
          node = await client.resource<Node>(NODES).get(name);
        } catch (getErr) {
          // Upstream's monitorNodeHealth logs "Update health of Node from Controller error,
          // Skipping - no pods will be evicted" and goes on with the next node, whatever the error
          // (the node deleted, or etcd out of quorum answering nothing).
          if (getErr instanceof StatusError) return;
          throw getErr;
        }
      }
    }
    if (!result) return;
    if (!Object.hasOwn(node.metadata.labels ?? {}, EXCLUDE_DISRUPTION_LABEL)) {
      const zone = zoneKey(node);
      zoneConditions.set(zone, [...(zoneConditions.get(zone) ?? []), result.current]);
    }
    if (!result.current) return;
    await this.processTaintBasedEviction(client, node, result.observed);
    const wasReady = result.observed.status === 'True';
    const nowReady = result.current.status === 'True';
    if ((!nowReady && wasReady) || (this.nodesToRetry.has(name) && !wasReady)) {
      if (!nowReady && wasReady) this.recorder.event(nodeRef(node), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
      if (!(await this.markPodsNotReady(client, name, this.pods.indexer.byIndex(NODE_NAME_INDEX, name)))) {
        this.nodesToRetry.add(name);
        return;
      }
    }
    this.nodesToRetry.delete(name);
  }

  private async processTaintBasedEviction(client: Client, node: Node, observed: NodeCondition): Promise<void> {
    const step = planTaintBasedEviction(node, observed);
    if (step?.kind === 'swap') await swapNodeControllerTaints(client, node, [step.add], [step.remove], this.clock.rfc3339());
    else if (step?.kind === 'queue') this.markNodeForTainting(node, step.status);
    else if (step?.kind === 'reachable') await this.markNodeAsReachable(client, node);
  }

  private markNodeForTainting(node: Node, status: 'False' | 'Unknown'): void {
    const queue = this.zoneTainters.get(zoneKey(node));
    if (!queue) return;
    const name = node.metadata.name ?? '';
    const template = status === 'False' ? NOT_READY_NO_EXECUTE : UNREACHABLE_NO_EXECUTE;
    if (!taintExists(node.spec?.taints, template)) queue.remove(name);
    queue.add(name, node.metadata.uid ?? '');
    this.scheduleTaintingPass();
  }

  private async markNodeAsReachable(client: Client, node: Node): Promise<void> {
    try {
      await removeTaints(client, node, [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE]);
    } catch (err) {
      if (!(err instanceof Error) || err instanceof TypeError) throw err;
      return;
    }
    this.zoneTainters.get(zoneKey(node))?.remove(node.metadata.name ?? '');
  }

  private async markPodsNotReady(client: Client, nodeName: string, pods: readonly Pod[]): Promise<boolean> {
    let ok = true;
    for (const pod of pods) {
      if (pod.spec?.nodeName !== nodeName) continue;
      const next = podMarkedNotReady(pod, this.clock.rfc3339());
      if (!next) continue;
      try {
        await client.resource<Pod>(PODS, pod.metadata.namespace).updateStatus(next);
      } catch (err) {
        if (isNotFound(err)) continue;
        if (!(err instanceof Error) || err instanceof TypeError) throw err;
        ok = false;
      }
      this.recorder.event(next, 'Warning', 'NodeNotReady', NODE_NOT_READY_POD_MESSAGE);
    }
    return ok;
  }

  // --- zone disruption -------------------------------------------------------------------------

  private async handleDisruption(zoneConditions: Map<string, (NodeCondition | undefined)[]>, nodes: readonly Node[]): Promise<void> {
    const plan = planDisruption(this.zoneStates, zoneConditions, this.settings);
    this.zoneStates.clear();
    for (const [zone, state] of plan.zones) this.zoneStates.set(zone, state);
    if (plan.mode === 'allDisrupted') {
      // Every node is unhealthy: most likely the control plane lost them, not the other way round.
      for (const node of nodes) await this.recorded(node.metadata.name ?? '', (client, observe) => {
        observe('all nodes are not Ready: master disruption mode, taints removed');
        return this.markNodeAsReachable(client, node);
      });
    }
    if (plan.mode === 'recovered') {
      const now = this.clock.now();
      for (const node of nodes) {
        const h = this.health.get(node.metadata.name ?? '');
        if (h) this.health.set(node.metadata.name ?? '', { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
      }
    }
    for (const { zone, state, qps } of plan.changes) {
      this.zoneTainters.get(zone)?.swapLimiter(qps);
      this.zoneStates.set(zone, state);
    }
  }

  // --- NoExecute tainting at the zones' rates --------------------------------------------------

  private scheduleTaintingPass(): void {
    if (this.taintingTimer || this.stopped) return;
    this.taintingTimer = this.clock.setTimer(
      TAINTING_PASS_MS,
      async () => {
        this.taintingTimer = undefined;
        await this.taintingPass();
        if ([...this.zoneTainters.values()].some((q) => q.length > 0)) this.scheduleTaintingPass();
      },
      { daemon: true, label: 'node-lifecycle-controller: NoExecute tainting pass' },
    );
  }

  private async taintingPass(): Promise<void> {
    for (const queue of [...this.zoneTainters.values()]) {
      await queue.try(async (name) => {
        const node = this.nodes.indexer.getByName('', name);
        if (!node) return { done: true };
        const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
        if (!ready) return { done: false, retryAfterMs: 50 };
        if (ready.status !== 'False' && ready.status !== 'Unknown') return { done: true };
        const [add, remove] = ready.status === 'False' ? [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE] : [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE];
        let done = false;
        await this.recorded(name, async (client, observe) => {
          observe(`Ready ${ready.status}: tainting ${add.key}:${add.effect}`);
          done = await swapNodeControllerTaints(client, node, [add], [remove], this.clock.rfc3339());
        });
        return done ? { done: true } : { done: false, retryAfterMs: 0 };
      });
    }
  }

  // --- node and pod updates ---------------------------------------------------------------------

  private async syncNode(key: string, ctx: ReconcileContext): Promise<void> {
    const node = this.nodes.indexer.getByName('', key);
    if (!node) return;
    const { add, remove } = noScheduleTaintChanges(node);
    if (add.length > 0 || remove.length > 0) {
      ctx.observe(`NoSchedule taints: +[${add.map((t) => t.key).join(', ')}] -[${remove.map((t) => t.key).join(', ')}]`);
      await swapNodeControllerTaints(ctx.client, node, add, remove, this.clock.rfc3339());
    }
    const labels = labelsToReconcile(node);
    if (labels) await this.patchLabels(ctx.client, node, labels);
  }

  private async patchLabels(client: Client, node: Node, labels: Record<string, string>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.resource<Node>(NODES).patch(node.metadata.name ?? '', 'strategic', { metadata: { labels } });
        return;
      } catch (err) {
        if (!isConflict(err) || attempt >= HEALTH_UPDATE_RETRIES) throw err;
      }
    }
  }

  private async syncPod(key: string, ctx: ReconcileContext): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pod = this.pods.indexer.getByName(namespace, name);
    if (!pod) return;
    const nodeName = pod.spec?.nodeName ?? '';
    const health = this.health.get(nodeName);
    if (!health) return;
    if (!this.nodes.indexer.getByName('', nodeName)) throw new Error(`node "${nodeName}" not found`);
    const ready = health.conditions.find((c) => c.type === 'Ready');
    if (!ready || ready.status === 'True') return;
    ctx.observe(`node ${nodeName} is ${ready.status === 'False' ? 'not Ready' : 'unreachable'}`);
    if (!(await this.markPodsNotReady(ctx.client, nodeName, [pod]))) throw new Error(`unable to mark pod ${key} NotReady on node ${nodeName}`);
  }
}

function nodeRef(node: KubeObject): { apiVersion: string; kind: string; name: string; uid: string; namespace: string } {
  return { apiVersion: 'v1', kind: 'Node', name: node.metadata.name ?? '', uid: node.metadata.uid ?? '', namespace: '' };
}
