/**
 * The ReplicaSet controller's control loop (replica_set.go): ReplicaSets and their pods queue
 * the ReplicaSet; a sync claims pods (adoption and release), creates or deletes pods when its
 * expectations are met (slow-start batches, deletion ranking), and writes the status.
 *
 * Runs as system:serviceaccount:kube-system:replicaset-controller; events come from
 * "replicaset-controller".
 */
import { labelSelectorAsSelector, type Selector } from '../../api/labels';
import { isStatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import type { ReconcileContext } from '../../client/controller';
import { isNotFound } from '../../client/errors';
import { deletedObject, DeletedFinalStateUnknown } from '../../client/informer';
import { PODS, REPLICASETS } from '../../client/resources';
import { claimThroughApi, controllerOf } from '../util/controller-ref-manager';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { cachedController, controllersSelecting } from '../util/owner-lookup';
import { deepEqual } from '../../api/deep-equal';
import { ControllerExpectations } from '../util/expectations';
import { CONTROLLER_UID_INDEX, controllerUidIndexFunc, orphanPodIndexKey, POD_CONTROLLER_UID_INDEX, podControllerUidIndexFunc } from '../util/indexes';
import { planReplicas } from './manage';
import { podFromTemplate } from './pod-template';
import { isPodActive, isPodReady, isPodTerminating } from '../util/pod-status';
import { slowStartBatch } from '../util/slow-start';
import { calculateStatus, statusNeedsUpdate, withObservedGeneration, type ComputedStatus } from './status';
import { specReplicas, type Pod, type ReplicaSet } from '../util/types/workload';

export const REPLICASET_CONTROLLER_ACCOUNT = 'replicaset-controller';

/** A status write that fails is retried once against a fresh read (statusUpdateRetries). */
const STATUS_UPDATE_RETRIES = 1;

const podKey = (pod: Pod): string => `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
const rsKey = (rs: ReplicaSet): string => `${rs.metadata.namespace ?? ''}/${rs.metadata.name ?? ''}`;

export class ReplicaSetController extends LoopController {
  readonly expectations = new ControllerExpectations(this.clock);
  private readonly replicaSets = this.informer<ReplicaSet>(REPLICASETS, { [CONTROLLER_UID_INDEX]: controllerUidIndexFunc });
  private readonly pods = this.informer<Pod>(PODS, { [POD_CONTROLLER_UID_INDEX]: podControllerUidIndexFunc });

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'replicaset', events: { component: 'replicaset-controller', stream: 'replicaset events' } });
    this.replicaSets.addEventHandler({
      onAdd: (rs) => this.loop.enqueue(rsKey(rs), rs),
      onUpdate: (old, rs) => {
        // A ReplicaSet deleted and created again under the same name starts without expectations.
        if (old.metadata.uid !== rs.metadata.uid) this.deleteReplicaSet(new DeletedFinalStateUnknown(rsKey(old), old));
        this.loop.enqueue(rsKey(rs), rs);
      },
      onDelete: (obj) => this.deleteReplicaSet(obj),
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, pod) => this.updatePod(old, pod),
      onDelete: (obj) => this.deletePod(obj),
    });
  }

  private deleteReplicaSet(obj: ReplicaSet | DeletedFinalStateUnknown<ReplicaSet>): void {
    const key = rsKey(deletedObject(obj));
    this.expectations.delete(key);
    this.loop.enqueue(key, obj);
  }

  /** The ReplicaSet the pod's controllerRef names, if it is the one with that uid. */
  private replicaSetOf(pod: Pod): ReplicaSet | undefined {
    return cachedController(this.replicaSets.indexer, 'ReplicaSet', pod);
  }

  private addPod(pod: Pod): void {
    // A pod created already being deleted (a restarted controller sees it) counts as a deletion.
    if (pod.metadata.deletionTimestamp) return this.deletePod(pod);
    if (controllerOf(pod)) {
      const rs = this.replicaSetOf(pod);
      if (!rs) return;
      this.expectations.creationObserved(rsKey(rs));
      this.loop.enqueue(rsKey(rs), pod);
      return;
    }
    for (const rs of controllersSelecting(this.replicaSets.indexer, pod)) this.loop.enqueue(rsKey(rs), pod);
  }

  private updatePod(old: Pod, pod: Pod): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const labelChanged = !deepEqual(pod.metadata.labels, old.metadata.labels);
    if (pod.metadata.deletionTimestamp) {
      // A graceful deletion is seen now, not when the kubelet finally removes the pod, so the replacement starts at once.
      this.deletePod(pod);
      if (labelChanged) this.deletePod(old);
      return;
    }
    const ref = controllerOf(pod);
    const oldRef = controllerOf(old);
    const refChanged = !deepEqual(ref, oldRef);
    if (refChanged && oldRef) {
      const rs = this.replicaSetOf(old);
      if (rs) this.loop.enqueue(rsKey(rs), pod);
    }
    if (ref) {
      const rs = this.replicaSetOf(pod);
      if (!rs) return;
      this.loop.enqueue(rsKey(rs), pod);
      // Pods do not say when they become available: look again once minReadySeconds have passed (plus a second against timer skew).
      const minReadySeconds = rs.spec.minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(pod) && minReadySeconds > 0) this.loop.enqueueAfter(rsKey(rs), minReadySeconds * 1000 + 1000);
      return;
    }
    if (labelChanged || refChanged) for (const rs of controllersSelecting(this.replicaSets.indexer, pod)) this.loop.enqueue(rsKey(rs), pod);
  }

  private deletePod(obj: Pod | DeletedFinalStateUnknown<Pod>): void {
    const pod = deletedObject(obj);
    const rs = this.replicaSetOf(pod);
    if (!rs) return;
    this.expectations.deletionObserved(rsKey(rs), podKey(pod));
    this.loop.enqueue(rsKey(rs), obj);
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<void> {
    const rs = this.replicaSets.indexer.get(key);
    if (!rs) {
      this.expectations.delete(key);
      ctx.observe('replica set gone');
      return;
    }
    const needsSync = this.expectations.satisfied(key);
    const parsed = labelSelectorAsSelector(rs.spec.selector);
    if (!parsed.ok) {
      ctx.observe(`invalid selector: ${parsed.error}`);
      return;
    }
    const selector = parsed.value;
    const candidates = this.podsByOwner(rs);
    const active = await this.claimPods(ctx, rs, selector, candidates.filter(isPodActive));
    const terminating = candidates.filter((p) => isPodTerminating(p) && controllerOf(p)?.uid === rs.metadata.uid && selector.matches(p.metadata.labels ?? {}));

    let manageErr: Error | undefined;
    if (needsSync && !rs.metadata.deletionTimestamp) manageErr = await this.manageReplicas(ctx, rs, active);
    const status = calculateStatus(rs, active, terminating, manageErr, this.clock.now());
    ctx.observe(`${active.length} active pods, ${terminating.length} terminating; want ${specReplicas(rs)}${needsSync ? '' : ' (waiting for expectations)'}`);
    const updated = await this.updateStatus(ctx, rs, status);
    // A last look once the ready pods should have become available. Upstream waits exactly
    // minReadySeconds here; on a virtual clock that lands on the boundary (available means
    // strictly later), so this waits the extra second updatePod waits too.
    const minReadySeconds = updated.spec.minReadySeconds ?? 0;
    const st: ComputedStatus = updated.status ?? {};
    if (!manageErr && minReadySeconds > 0 && (st.readyReplicas ?? 0) === specReplicas(updated) && (st.availableReplicas ?? 0) !== specReplicas(updated)) {
      this.loop.enqueueAfter(key, minReadySeconds * 1000 + 1000);
    }
    if (manageErr) throw manageErr;
  }

  /** FilterPodsByOwner: the pods this ReplicaSet controls and the orphans of its namespace. */
  private podsByOwner(rs: ReplicaSet): Pod[] {
    const owned = this.pods.indexer.byIndex(POD_CONTROLLER_UID_INDEX, rs.metadata.uid ?? '');
    return [...owned, ...this.pods.indexer.byIndex(POD_CONTROLLER_UID_INDEX, orphanPodIndexKey(rs.metadata.namespace ?? ''))];
  }

  private async claimPods(ctx: ReconcileContext, rs: ReplicaSet, selector: Selector, pods: readonly Pod[]): Promise<Pod[]> {
    return claimThroughApi(ctx.client, rs, { controller: REPLICASETS, dependents: PODS }, pods, (p) => selector.matches(p.metadata.labels ?? {}));
  }

  /** Creates or deletes pods toward spec.replicas; returns the error to report in the status. */
  private async manageReplicas(ctx: ReconcileContext, rs: ReplicaSet, active: readonly Pod[]): Promise<Error | undefined> {
    const key = rsKey(rs);
    const change = planReplicas(rs, active, this.relatedPods(rs), this.clock.now());
    const pods = ctx.client.resource<Pod>(PODS, rs.metadata.namespace ?? '');
    if (change.kind === 'create') {
      this.expectations.expectCreations(key, change.count);
      const [created, err] = await slowStartBatch(change.count, async () => {
        try {
          const pod = await pods.create(podFromTemplate(rs));
          this.recorder.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name ?? ''}`, ctx.cause);
        } catch (e) {
          if (!isStatusError(e)) throw e;
          // In a terminating namespace every create fails: nothing to report.
          if (namespaceTerminating(e)) return;
          this.recorder.event(rs, 'Warning', 'FailedCreate', `Error creating: ${e.message}`, ctx.cause);
          throw e;
        }
      });
      // The pods never attempted will not be observed: expect only those that were.
      for (let i = created; i < change.count; i++) this.expectations.creationObserved(key);
      return err;
    }
    if (change.kind === 'delete') {
      this.expectations.expectDeletions(key, change.pods.map(podKey));
      const results = await Promise.all(change.pods.map((pod) => this.deletePodOf(ctx, rs, pod)));
      return results.find((e) => e !== undefined);
    }
    return undefined;
  }

  private async deletePodOf(ctx: ReconcileContext, rs: ReplicaSet, pod: Pod): Promise<Error | undefined> {
    try {
      await ctx.client.resource<Pod>(PODS, rs.metadata.namespace ?? '').delete(pod.metadata.name ?? '');
      this.recorder.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name ?? ''}`, ctx.cause);
      return undefined;
    } catch (e) {
      if (!isStatusError(e)) throw e;
      // The informer will not see a deletion that did not happen.
      this.expectations.deletionObserved(rsKey(rs), podKey(pod));
      if (isNotFound(e)) return undefined;
      this.recorder.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${e.message}`, ctx.cause);
      return new Error(`unable to delete pods: ${e.message}`);
    }
  }

  /**
   * Pods of the ReplicaSets that share this one's controller (a Deployment's other revisions),
   * for the co-location rank: those each of them controls and selects.
   */
  private relatedPods(rs: ReplicaSet): Pod[] {
    const ref = controllerOf(rs);
    if (!ref) return [];
    const related: Pod[] = [];
    for (const other of this.replicaSets.indexer.byIndex(CONTROLLER_UID_INDEX, ref.uid)) {
      const selector = labelSelectorAsSelector(other.spec.selector);
      if (!selector.ok) continue;
      for (const pod of this.pods.indexer.byIndex(POD_CONTROLLER_UID_INDEX, other.metadata.uid ?? '')) {
        if (selector.value.matches(pod.metadata.labels ?? {})) related.push(pod);
      }
    }
    return related;
  }

  /** updateReplicaSetStatus: written when counts, conditions or the observed generation change; a failed write is retried once on a fresh read. */
  private async updateStatus(ctx: ReconcileContext, rs: ReplicaSet, status: ComputedStatus): Promise<ReplicaSet> {
    if (!statusNeedsUpdate(rs, status)) return rs;
    const client = ctx.client.resource<ReplicaSet>(REPLICASETS, rs.metadata.namespace ?? '');
    let current: ReplicaSet = rs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.updateStatus({ ...current, status: withObservedGeneration(rs, status) } as ReplicaSet & KubeObject);
      } catch (e) {
        if (!isStatusError(e) || attempt >= STATUS_UPDATE_RETRIES) throw e;
        current = await client.get(rs.metadata.name ?? '');
      }
    }
  }
}

function namespaceTerminating(e: { status: { details?: { causes?: { reason?: string }[] } } }): boolean {
  return (e.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}
