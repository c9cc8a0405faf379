/**
 * The DaemonSet controller (pkg/controller/daemon): one pod on every node that should run it
 * (predicates.ts), pinned there by node affinity and placed by the scheduler; extra, misplaced
 * and failed pods are deleted; templates are rolled out node by node (rolling.ts) under
 * ControllerRevisions (history.ts); status counts scheduled, misscheduled, ready, updated and
 * available pods.
 *
 * Runs as system:serviceaccount:kube-system:daemon-set-controller; events come from
 * "daemonset-controller".
 */
import { labelSelectorAsSelector, SelectorError } from '../../api/labels';
import type { KubeObject } from '../../api/types';
import type { Clock } from '../../clock';
import { CONCURRENT_SYNCS, requeueAfter, type Controller, type ReconcileContext, type SyncResult } from '../../client/controller';
import { isAlreadyExists, isNotFound } from '../../client/errors';
import type { EventRecorder } from '../../client/events';
import { deletedObject, metaNamespaceKey, splitMetaNamespaceKey, type DeletedFinalStateUnknown, type SharedIndexInformer } from '../../client/informer';
import { CONTROLLERREVISIONS, DAEMONSETS, NODES, PODS } from '../../client/resources';
import type { Node } from '../util/types/node';
import { controllerOf } from '../util/controller-ref-manager';
import { controlLoop, eventRecorder, type ControllerDeps } from '../util/deps';
import { cachedController } from '../util/owner-lookup';
import { ControllerExpectations } from '../util/expectations';
import { isPodAvailable, isPodReady } from '../util/pod-status';
import type { Pod } from '../util/types/workload';
import { slowStartBatch } from '../util/slow-start';
import { newRevision, revisionData, revisionHash } from './history';
import { daemonPod, daemonPodSpec } from './pod-template';
import { nodeShouldRunDaemonPod } from './predicates';
import { maxUnavailable, oldPodsToDelete } from './rolling';
import { sameData, type ControllerRevision } from '../util/history';
import { CONTROLLER_REVISION_HASH_LABEL, type DaemonSet, type DaemonSetStatus } from './types';
import { own } from '../../api/own';

export const DAEMONSET_CONTROLLER_ACCOUNT = 'daemon-set-controller';

/** The failed-pod backoff per node: 1 s doubling to 15 min. */
const FAILED_POD_BACKOFF_MS = [1000, 15 * 60_000] as const;

/** The node a daemon pod is on, or is pinned to by its affinity before it is scheduled (GetTargetNodeName). */
function targetNode(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms = (pod.spec as { affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: { matchFields?: { key: string; values?: string[] }[] }[] } } } } | undefined)?.affinity
    ?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms?.[0]?.matchFields?.find((f) => f.key === 'metadata.name')?.values?.[0];
}

export class DaemonSetController {
  readonly loop: Controller;
  private readonly clock: Clock;
  private readonly daemonSets: SharedIndexInformer<DaemonSet>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly revisions: SharedIndexInformer<ControllerRevision>;
  private readonly recorder: EventRecorder;
  private readonly expectations: ControllerExpectations;
  /** Failed-pod backoff per "<daemonset key>/<node>": when the last failed pod was deleted, and the wait before the next. */
  private readonly failedBackoff = new Map<string, { since: number; delay: number }>();

  constructor(deps: ControllerDeps) {
    this.clock = deps.clock;
    this.daemonSets = deps.informers.informerFor<DaemonSet>(DAEMONSETS);
    this.pods = deps.informers.informerFor<Pod>(PODS);
    this.nodes = deps.informers.informerFor<Node>(NODES);
    this.revisions = deps.informers.informerFor<ControllerRevision>(CONTROLLERREVISIONS);
    this.expectations = new ControllerExpectations(deps.clock);
    this.recorder = eventRecorder(deps, 'daemonset-controller', 'daemonset events');
    this.loop = controlLoop(deps, {
      name: 'daemonset',
      workers: CONCURRENT_SYNCS.daemonset ?? 2,
      informers: [this.daemonSets, this.pods, this.nodes, this.revisions] as unknown as SharedIndexInformer[],
      sync: (key, ctx) => this.sync(key, ctx),
    });
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

  run(): Promise<void> {
    return this.loop.run();
  }

  shutDown(): void {
    this.loop.shutDown();
  }

  private ownerOf(obj: KubeObject): DaemonSet | undefined {
    return cachedController(this.daemonSets.indexer, 'DaemonSet', obj);
  }

  private async sync(key: string, ctx: ReconcileContext): Promise<SyncResult> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const ds = this.daemonSets.indexer.getByName(namespace, name);
    if (!ds) {
      this.expectations.delete(key);
      return;
    }
    const selector = labelSelectorAsSelector(ds.spec.selector);
    if (selector instanceof SelectorError || selector.empty()) {
      this.recorder.event(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.', ctx.cause);
      return;
    }
    if (ds.metadata.deletionTimestamp) return;
    const hash = await this.constructHistory(ctx, ds);
    const nodes = this.nodes.indexer.list();
    const podSpec = daemonPodSpec(ds);
    const owned = this.pods.indexer.listNamespace(namespace).filter((p) => controllerOf(p)?.uid === ds.metadata.uid);
    const byNode = new Map<string, Pod[]>();
    for (const pod of owned) {
      const node = targetNode(pod);
      if (node) byNode.set(node, [...(byNode.get(node) ?? []), pod]);
    }
    let result: SyncResult = undefined;
    if (this.expectations.satisfied(key)) {
      const create: string[] = [];
      const remove: Pod[] = [];
      const shouldRunPods = new Map<string, Pod[]>();
      for (const node of nodes) {
        const nodeName = node.metadata.name ?? '';
        // A pod still terminating on the node holds its place; one that finished and is going does not.
        const present = (byNode.get(nodeName) ?? []).filter((p) => !(p.metadata.deletionTimestamp && (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed')));
        const pods = present.filter((p) => !p.metadata.deletionTimestamp);
        const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(podSpec, node);
        if (shouldRun) shouldRunPods.set(nodeName, byNode.get(nodeName) ?? []);
        if (shouldRun && present.length === 0) {
          create.push(nodeName);
        } else if (shouldContinueRunning) {
          const failed = pods.filter((p) => p.status?.phase === 'Failed');
          const running = pods.filter((p) => p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded');
          remove.push(...pods.filter((p) => p.status?.phase === 'Succeeded'));
          const backoffKey = `${key}/${nodeName}`;
          const now = this.clock.now();
          const backoff = this.failedBackoff.get(backoffKey);
          if (failed.length > 0 && backoff && now - backoff.since < backoff.delay) {
            result = requeueAfter(backoff.since + backoff.delay - now);
          } else if (failed.length > 0) {
            this.failedBackoff.set(backoffKey, { since: now, delay: backoff ? Math.min(backoff.delay * 2, FAILED_POD_BACKOFF_MS[1]) : FAILED_POD_BACKOFF_MS[0] });
            for (const p of failed) {
              this.recorder.event(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''} on node ${nodeName}, will try to kill it`, ctx.cause);
              remove.push(p);
            }
          }
          const oldest = [...running].sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
          remove.push(...oldest.slice(1));
        } else {
          remove.push(...pods);
        }
      }
      const known = new Set(nodes.map((n) => n.metadata.name ?? ''));
      for (const [node, pods] of byNode) if (!known.has(node)) remove.push(...pods.filter((p) => !p.metadata.deletionTimestamp));
      if ((ds.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && create.length === 0 && remove.length === 0) {
        remove.push(...oldPodsToDelete(ds, shouldRunPods, hash, maxUnavailable(ds, shouldRunPods.size), this.clock.now()));
      }
      ctx.observe(`${nodes.length} nodes, ${owned.length} pods: ${create.length} to create, ${remove.length} to delete`);
      await this.syncNodes(ctx, ds, create, remove, hash);
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
  private async updateStatus(ctx: ReconcileContext, ds: DaemonSet, nodes: readonly Node[], podSpec: object, byNode: Map<string, Pod[]>, hash: string): Promise<number | undefined> {
    const now = this.clock.now();
    const minReady = ds.spec.minReadySeconds ?? 0;
    let desired = 0;
    let scheduled = 0;
    let misscheduled = 0;
    let ready = 0;
    let updated = 0;
    let available = 0;
    let requeue: number | undefined;
    for (const node of nodes) {
      const pods = (byNode.get(node.metadata.name ?? '') ?? []).filter((p) => !p.metadata.deletionTimestamp);
      const { shouldRun } = nodeShouldRunDaemonPod(podSpec as never, node);
      if (!shouldRun) {
        if (pods.length > 0) misscheduled++;
        continue;
      }
      desired++;
      if (pods.length === 0) continue;
      scheduled++;
      const pod = [...pods].sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''))[0]!;
      if (isPodReady(pod)) {
        ready++;
        if (isPodAvailable(pod, minReady, now)) available++;
        else if (minReady > 0) requeue = minReady * 1000;
      }
      if (pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash) updated++;
    }
    const status: DaemonSetStatus = { currentNumberScheduled: scheduled, numberMisscheduled: misscheduled, desiredNumberScheduled: desired, numberReady: ready, observedGeneration: ds.metadata.generation ?? 0 };
    if (updated > 0) status.updatedNumberScheduled = updated;
    if (available > 0) status.numberAvailable = available;
    if (desired - available > 0) status.numberUnavailable = desired - available;
    if (ds.status?.collisionCount !== undefined) status.collisionCount = ds.status.collisionCount;
    const before = (ds.status ?? {}) as Record<string, unknown>;
    const after = status as unknown as Record<string, unknown>;
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    if ([...keys].some((k) => own(before, k) !== own(after, k))) {
      await ctx.client.resource<DaemonSet>(DAEMONSETS, ds.metadata.namespace).updateStatus({ ...ds, status });
    }
    return requeue;
  }
}
