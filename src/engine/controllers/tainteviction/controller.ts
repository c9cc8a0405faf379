/**
 * The taint eviction controller (pkg/controller/tainteviction): pods on a node with NoExecute
 * taints they do not tolerate are deleted at once; pods tolerating them for tolerationSeconds
 * (300 s for not-ready and unreachable, as the DefaultTolerationSeconds admission plugin adds
 * them) are deleted when that runs out, counted from when the controller saw the taint. Each
 * deletion is announced by a TaintManagerEviction event "Marking for deletion Pod <ns>/<name>",
 * marks the pod with the DisruptionTarget condition, and is cancelled ("Cancelling deletion of
 * Pod <ns>/<name>") when the taints go away first.
 *
 * Runs with the node-controller service account (upstream reuses its role); events come from
 * "taint-eviction-controller".
 */
import type { Clock } from '../../clock';
import type { Client } from '../../client/client';
import type { Controller, ReconcileContext } from '../../client/controller';
import { isNotFound } from '../../client/errors';
import type { EventRecorder } from '../../client/events';
import { DeletedFinalStateUnknown, NODE_NAME_INDEX, nodeNameIndexFunc, splitMetaNamespaceKey, type SharedIndexInformer } from '../../client/informer';
import { NODES, PODS } from '../../client/resources';
import type { TraceBuffer } from '../../trace/buffer';
import type { ReconcileRecord } from '../../trace/reconcile';
import { controlLoop, eventRecorder, type ControllerDeps } from '../util/deps';
import type { Node, Pod, Taint } from '../util/types/node';
import { TimedWorkerQueue } from './timed-queue';
import { matchingTolerations, minTolerationMs, noExecuteTaints } from './tolerations';

export const TAINT_EVICTION_ACCOUNT = 'node-controller';

const DELETE_RETRIES = 5;

export class TaintEvictionController {
  readonly nodeUpdates: Controller;
  readonly podUpdates: Controller;
  private readonly clock: Clock;
  private readonly client: Client;
  private readonly trace: TraceBuffer;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly recorder: EventRecorder;
  private readonly taintedNodes = new Map<string, Taint[]>();
  private readonly evictions: TimedWorkerQueue;
  /** The reconcile that scheduled each pending eviction: the cause of its requests. */
  private readonly causes = new Map<string, number | undefined>();

  constructor(deps: ControllerDeps) {
    this.clock = deps.clock;
    this.client = deps.client;
    this.trace = deps.trace;
    this.nodes = deps.informers.informerFor<Node>(NODES);
    this.pods = deps.informers.informerFor<Pod>(PODS, {}, { [NODE_NAME_INDEX]: nodeNameIndexFunc });
    this.recorder = eventRecorder(deps, 'taint-eviction-controller', 'taint-eviction events');
    this.evictions = new TimedWorkerQueue(deps.clock, (key) => this.evict(key));
    const informers = [this.nodes, this.pods] as SharedIndexInformer[];
    this.nodeUpdates = controlLoop(deps, { name: 'taint-eviction', workers: 8, informers, sync: (key, ctx) => this.syncNode(key, ctx) });
    this.podUpdates = controlLoop(deps, { name: 'taint-eviction-pods', workers: 8, informers, sync: (key, ctx) => this.syncPod(key, ctx) });
    const sameTaints = (a: Node, b: Node): boolean => JSON.stringify(noExecuteTaints(a.spec?.taints)) === JSON.stringify(noExecuteTaints(b.spec?.taints));
    this.nodes.addEventHandler({
      onAdd: (n) => this.nodeUpdates.enqueueObject(n),
      onUpdate: (old, n) => {
        if (!sameTaints(old, n)) this.nodeUpdates.enqueueObject(n);
      },
      onDelete: (n) => this.nodeUpdates.enqueueObject(n),
    });
    const sameScheduling = (a: Pod, b: Pod): boolean => a.spec?.nodeName === b.spec?.nodeName && JSON.stringify(a.spec?.tolerations ?? []) === JSON.stringify(b.spec?.tolerations ?? []);
    this.pods.addEventHandler({
      onAdd: (p) => this.podUpdates.enqueueObject(p),
      onUpdate: (old, p) => {
        if (!sameScheduling(old, p)) this.podUpdates.enqueueObject(p);
      },
      onDelete: (p: Pod | DeletedFinalStateUnknown<Pod>) => this.podUpdates.enqueueObject(p),
    });
  }

  async run(): Promise<void> {
    await Promise.all([this.nodeUpdates.run(), this.podUpdates.run()]);
  }

  shutDown(): void {
    this.nodeUpdates.shutDown();
    this.podUpdates.shutDown();
  }

  private async syncNode(name: string, ctx: ReconcileContext): Promise<void> {
    const node = this.nodes.indexer.getByName('', name);
    if (!node) {
      this.taintedNodes.delete(name);
      return;
    }
    const taints = noExecuteTaints(node.spec?.taints);
    if (taints.length === 0) this.taintedNodes.delete(name);
    else this.taintedNodes.set(name, taints);
    const pods = this.pods.indexer.byIndex(NODE_NAME_INDEX, name);
    if (pods.length === 0) return;
    if (taints.length === 0) {
      for (const pod of pods) this.cancel(podKey(pod));
      return;
    }
    ctx.observe(`${taints.map((t) => `${t.key}:${t.effect}`).join(', ')}; ${pods.length} pods`);
    const now = this.clock.now();
    for (const pod of pods) this.processPod(podKey(pod), pod, taints, now, ctx.cause);
  }

  private async syncPod(key: string, ctx: ReconcileContext): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pod = this.pods.indexer.getByName(namespace, name);
    if (!pod) {
      this.cancel(key);
      return;
    }
    const taints = this.taintedNodes.get(pod.spec?.nodeName ?? '');
    if (!taints) return;
    this.processPod(key, pod, taints, this.clock.now(), ctx.cause);
  }

  private processPod(key: string, pod: Pod, taints: readonly Taint[], now: number, cause: number | undefined): void {
    const { allTolerated, used } = matchingTolerations(taints, pod.spec?.tolerations);
    if (!allTolerated) {
      this.cancel(key);
      this.schedule(key, now, now, cause);
      return;
    }
    const toleration = minTolerationMs(used);
    if (toleration < 0) {
      this.cancel(key);
      return;
    }
    let start = now;
    const scheduled = this.evictions.get(key);
    if (scheduled) {
      start = scheduled.createdAt;
      if (start + toleration < now + toleration) return;
      this.cancel(key);
    }
    this.schedule(key, start, start + toleration, cause);
  }

  private schedule(key: string, createdAt: number, fireAt: number, cause: number | undefined): void {
    this.causes.set(key, cause);
    this.evictions.add(key, createdAt, fireAt);
  }

  private cancel(key: string): void {
    this.causes.delete(key);
    if (!this.evictions.cancel(key)) return;
    const { namespace, name } = splitMetaNamespaceKey(key);
    this.recorder.event({ apiVersion: 'v1', kind: 'Pod', name, namespace }, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  /** The pod's deletion: the event, the DisruptionTarget condition, then DELETE; a few tries. */
  private async evict(key: string): Promise<boolean> {
    const cause = this.causes.get(key);
    this.causes.delete(key);
    const { namespace, name } = splitMetaNamespaceKey(key);
    this.recorder.event({ apiVersion: 'v1', kind: 'Pod', name, namespace }, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`, cause);
    const requests: number[] = [];
    const client = this.client.scoped(cause, (id) => requests.push(id));
    let error: Error | undefined;
    for (let i = 0; i < DELETE_RETRIES; i++) {
      try {
        await this.addConditionAndDelete(client, namespace, name);
        error = undefined;
        break;
      } catch (err) {
        if (!(err instanceof Error) || err instanceof TypeError) throw err;
        error = err;
      }
    }
    this.trace.emit<ReconcileRecord>({
      type: 'controller.reconcile',
      component: 'taint-eviction-controller',
      cause,
      controller: 'taint-eviction',
      key,
      trigger: 'requeue',
      observed: 'toleration of NoExecute taints ran out: deleting the pod',
      requests,
      outcome: error ? 'error' : 'done',
      error: error?.message,
    });
    return error === undefined;
  }

  private async addConditionAndDelete(client: Client, namespace: string, name: string): Promise<void> {
    const pods = client.resource<Pod>(PODS, namespace);
    const pod = await pods.get(name);
    const existing = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    const condition = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: this.clock.rfc3339(), reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' };
    if (existing?.status === 'True') condition.lastTransitionTime = existing.lastTransitionTime ?? condition.lastTransitionTime;
    const unchanged = existing && existing.status === condition.status && existing.reason === condition.reason && existing.message === condition.message && existing.lastTransitionTime === condition.lastTransitionTime;
    if (!unchanged) {
      await pods.patch(name, 'strategic', { metadata: { uid: pod.metadata.uid ?? '' }, status: { conditions: [condition] } }, { subresource: 'status' });
    }
    try {
      await pods.delete(name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}
