/**
 * The DaemonSet controller (pkg/controller/daemon): one pod on every node that should run it
 * (predicates.ts), pinned there by node affinity and placed by the scheduler; extra, misplaced
 * and failed pods are deleted; templates are rolled out node by node (rolling.ts) under
 * ControllerRevisions (history.ts); status counts scheduled, misscheduled, ready, updated and
 * available pods. The per-node decisions and the status are planned in plan.ts; this loop
 * performs them.
 *
 * Runs as system:serviceaccount:kube-system:daemon-set-controller; events come from
 * "daemonset-controller".
 */
import { labelSelectorAsSelector } from '../../api/labels';
import type { PodSpec } from '../../api/generated/core-v1';
import type { KubeObject } from '../../api/types';
import { requeueAfter, type ReconcileContext, type SyncResult } from '../../client/controller';
import { isAlreadyExists, isNotFound } from '../../client/errors';
import { deletedObject, metaNamespaceKey, splitMetaNamespaceKey, type DeletedFinalStateUnknown } from '../../client/informer';
import { CONTROLLERREVISIONS, DAEMONSETS, NODES, PODS } from '../../client/resources';
import type { Node } from '../util/types/node';
import { controllerOf } from '../util/controller-ref-manager';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { cachedController } from '../util/owner-lookup';
import { ControllerExpectations } from '../util/expectations';
import type { Pod } from '../util/types/workload';
import { slowStartBatch } from '../util/slow-start';
import { newRevision, revisionData, revisionHash } from './history';
import { daemonPod, daemonPodSpec } from './pod-template';
import { calculateStatus, planNodes, podsByNode, type FailedPodBackoff } from './plan';
import { sameData, type ControllerRevision } from '../util/history';
import { CONTROLLER_REVISION_HASH_LABEL, type DaemonSet } from './types';

export const DAEMONSET_CONTROLLER_ACCOUNT = 'daemon-set-controller';

export class DaemonSetController extends LoopController {
  private readonly daemonSets = this.informer<DaemonSet>(DAEMONSETS);
  private readonly pods = this.informer<Pod>(PODS);
  private readonly nodes = this.informer<Node>(NODES);
  private readonly revisions = this.informer<ControllerRevision>(CONTROLLERREVISIONS);
  private readonly expectations = new ControllerExpectations(this.clock);
  /** Failed-pod backoff per "<daemonset key>/<node>": when the last failed pod was deleted, and the wait before the next. */
  private readonly failedBackoff = new Map<string, FailedPodBackoff>();

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'daemonset', events: { component: 'daemonset-controller', stream: 'daemonset events' } });
    this.daemonSets.addEventHandler({
      onAdd: (ds) => this.loop.enqueueObject(ds),
      onUpdate: (_old, ds) => this.loop.enqueueObject(ds),
      onDelete: (obj) => {
        this.expectations.delete(metaNamespaceKey(deletedObject(obj)));
        this.loop.enqueueObject(obj);
      },
    });
    const forPod = (obj: Pod | DeletedFinalStateUnknown<Pod>, added: boolean, deleted: boolean): void => {
      const pod = deletedObject(obj);
      const ds = this.ownerOf(pod);
      if (!ds) return;
      const key = metaNamespaceKey(ds);
      if (added) this.expectations.creationObserved(key);
      if (deleted || pod.metadata.deletionTimestamp) this.expectations.deletionObserved(key, metaNamespaceKey(pod));
      this.loop.enqueue(key, obj);
    };
    this.pods.addEventHandler({ onAdd: (p) => forPod(p, true, false), onUpdate: (_o, p) => forPod(p, false, false), onDelete: (p) => forPod(p, false, true) });
    const allDaemonSets = (because: Node): void => {
      for (const ds of this.daemonSets.indexer.list()) this.loop.enqueue(metaNamespaceKey(ds), because);
    };
    this.nodes.addEventHandler({
      onAdd: allDaemonSets,
      onUpdate: (old, node) => {
        if (JSON.stringify([old.metadata.labels, old.spec?.taints]) !== JSON.stringify([node.metadata.labels, node.spec?.taints])) allDaemonSets(node);
      },
      onDelete: (obj) => allDaemonSets(deletedObject(obj)),
    });
  }

  private ownerOf(obj: KubeObject): DaemonSet | undefined {
    return cachedController(this.daemonSets.indexer, 'DaemonSet', obj);
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<SyncResult> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const ds = this.daemonSets.indexer.getByName(namespace, name);
    if (!ds) {
      this.expectations.delete(key);
      return;
    }
    const parsed = labelSelectorAsSelector(ds.spec.selector);
    if (!parsed.ok || parsed.value.empty()) {
      this.recorder.event(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.', ctx.cause);
      return;
    }
    if (ds.metadata.deletionTimestamp) return;
    const hash = await this.constructHistory(ctx, ds);
    const nodes = this.nodes.indexer.list();
    const podSpec = daemonPodSpec(ds);
    const owned = this.pods.indexer.listNamespace(namespace).filter((p) => controllerOf(p)?.uid === ds.metadata.uid);
    const byNode = podsByNode(owned);
    let result: SyncResult = undefined;
    if (this.expectations.satisfied(key)) {
      const now = this.clock.now();
      const plan = planNodes({ ds, nodes, byNode, podSpec, hash, now, backoff: (node) => this.failedBackoff.get(`${key}/${node}`) });
      for (const [node, backoff] of plan.backoff) this.failedBackoff.set(`${key}/${node}`, backoff);
      for (const e of plan.events) this.recorder.event(ds, e.eventType, e.reason, e.message, ctx.cause);
      if (plan.requeueAfterMs !== undefined) result = requeueAfter(plan.requeueAfterMs);
      ctx.observe(`${nodes.length} nodes, ${owned.length} pods: ${plan.create.length} to create, ${plan.remove.length} to delete`);
      await this.syncNodes(ctx, ds, plan.create, plan.remove, hash);
    }
    await this.cleanupHistory(ctx, ds, owned, hash);
    const requeue = await this.updateStatus(ctx, ds, nodes, podSpec, byNode, hash);
    return result ?? (requeue !== undefined ? requeueAfter(requeue) : undefined);
  }

  private async syncNodes(ctx: ReconcileContext, ds: DaemonSet, create: readonly string[], remove: readonly Pod[], hash: string): Promise<void> {
    const key = metaNamespaceKey(ds);
    const pods = ctx.client.resource<Pod>(PODS, ds.metadata.namespace);
    this.expectations.expectCreations(key, create.length);
    if (remove.length > 0) this.expectations.expectDeletions(key, remove.map((p) => metaNamespaceKey(p)));
    const queue = [...create];
    const [created, error] = await slowStartBatch(create.length, async () => {
      const node = queue.shift()!;
      try {
        const pod = await pods.create(daemonPod(ds, node, hash));
        this.recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name ?? ''}`, ctx.cause);
      } catch (err) {
        this.expectations.creationObserved(key);
        if (err instanceof Error) this.recorder.event(ds, 'Warning', 'FailedCreate', `Error creating: ${err.message}`, ctx.cause);
        throw err;
      }
    });
    for (let i = created + 1; i < create.length; i++) this.expectations.creationObserved(key);
    for (const pod of remove) {
      const name = pod.metadata.name ?? '';
      try {
        await pods.delete(name);
        this.recorder.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`, ctx.cause);
      } catch (err) {
        this.expectations.deletionObserved(key, metaNamespaceKey(pod));
        if (isNotFound(err)) continue;
        if (err instanceof Error) this.recorder.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${err.message}`, ctx.cause);
        throw err;
      }
    }
    if (error) throw error;
  }

  /** The current revision's hash, creating (or renumbering) its ControllerRevision. */
  private async constructHistory(ctx: ReconcileContext, ds: DaemonSet): Promise<string> {
    const hash = revisionHash(ds);
    const owned = this.revisions.indexer.listNamespace(ds.metadata.namespace ?? '').filter((r) => controllerOf(r)?.uid === ds.metadata.uid);
    const max = owned.reduce((m, r) => Math.max(m, r.revision), 0);
    const data = revisionData(ds);
    const current = owned.find((r) => sameData(r.data, data));
    const revisions = ctx.client.resource<ControllerRevision>(CONTROLLERREVISIONS, ds.metadata.namespace);
    if (current) {
      if (current.revision < max) await revisions.update({ ...current, revision: max + 1 });
      return current.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? hash;
    }
    try {
      await revisions.create(newRevision(ds, hash, max + 1));
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    return hash;
  }

  /** Old revisions beyond revisionHistoryLimit (10) that no pod uses go, oldest first. */
  private async cleanupHistory(ctx: ReconcileContext, ds: DaemonSet, pods: readonly Pod[], hash: string): Promise<void> {
    const limit = ds.spec.revisionHistoryLimit ?? 10;
    const live = new Set(pods.map((p) => p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL]));
    const old = this.revisions.indexer
      .listNamespace(ds.metadata.namespace ?? '')
      .filter((r) => controllerOf(r)?.uid === ds.metadata.uid)
      .filter((r) => {
        const h = r.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
        return h !== hash && !live.has(h);
      })
      .sort((a, b) => a.revision - b.revision);
    for (const r of old.slice(0, Math.max(0, old.length - limit))) {
      try {
        await ctx.client.resource(CONTROLLERREVISIONS, ds.metadata.namespace).delete(r.metadata.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  /** Writes the status when it changed; the delay until a ready pod becomes available, if any. */
  private async updateStatus(ctx: ReconcileContext, ds: DaemonSet, nodes: readonly Node[], podSpec: PodSpec, byNode: ReadonlyMap<string, readonly Pod[]>, hash: string): Promise<number | undefined> {
    const { status, changed, requeueAfterMs } = calculateStatus({ ds, nodes, byNode, podSpec, hash, now: this.clock.now() });
    if (changed) await ctx.client.resource<DaemonSet>(DAEMONSETS, ds.metadata.namespace).updateStatus({ ...ds, status });
    return requeueAfterMs;
  }
}
