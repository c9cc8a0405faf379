/**
 * The StatefulSet controller (pkg/controller/statefulset): pods with stable names, hostnames
 * and claims (identity.ts), created, scaled down and updated in ordinal order (plan.ts) under
 * ControllerRevisions (history.ts), with the set's status.
 *
 * Runs as system:serviceaccount:kube-system:statefulset-controller; events come from
 * "statefulset-controller".
 */
import { StatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import { requeueAfter, type ReconcileContext, type SyncResult } from '../../client/controller';
import { isAlreadyExists, isNotFound } from '../../client/errors';
import { deletedObject, metaNamespaceKey, splitMetaNamespaceKey, type DeletedFinalStateUnknown } from '../../client/informer';
import { CONTROLLERREVISIONS, PERSISTENTVOLUMECLAIMS, PODS, STATEFULSETS } from '../../client/resources';
import { controllerOf } from '../util/controller-ref-manager';
import type { ControllerRevision } from '../util/history';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { cachedController } from '../util/owner-lookup';
import type { Pod } from '../util/types/workload';
import { findEqual, newRevision, templateOf } from './history';
import { claimsFor, ordinalOf } from './identity';
import { completeRollingUpdate, orderedStatus, planStatefulSet, type Revisions } from './plan';
import { POD_REVISION_LABEL, type StatefulSet } from './types';
import { own } from '../../api/own';

export const STATEFULSET_CONTROLLER_ACCOUNT = 'statefulset-controller';

export class StatefulSetController extends LoopController {
  private readonly sets = this.informer<StatefulSet>(STATEFULSETS);
  private readonly pods = this.informer<Pod>(PODS);
  private readonly claims = this.informer(PERSISTENTVOLUMECLAIMS);
  private readonly revisions = this.informer<ControllerRevision>(CONTROLLERREVISIONS);

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'statefulset', events: { component: 'statefulset-controller', stream: 'statefulset events' } });
    this.sets.addEventHandler(this.loop.handler<StatefulSet>());
    const forPod = (obj: Pod | DeletedFinalStateUnknown<Pod>): void => {
      const pod = deletedObject(obj);
      const set = this.ownerOf(pod);
      if (set) this.loop.enqueue(metaNamespaceKey(set), obj);
    };
    this.pods.addEventHandler({ onAdd: forPod, onUpdate: (_old, p) => forPod(p), onDelete: forPod });
  }

  private ownerOf(obj: KubeObject): StatefulSet | undefined {
    return cachedController(this.sets.indexer, 'StatefulSet', obj);
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<SyncResult> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const set = this.sets.indexer.getByName(namespace, name);
    if (!set) return;
    const revisions = await this.revisionsFor(ctx, set);
    const podsByOrdinal = new Map<number, Pod>();
    for (const pod of this.pods.indexer.listNamespace(namespace)) {
      if (controllerOf(pod)?.uid !== set.metadata.uid) continue;
      const ordinal = ordinalOf(set, pod);
      if (ordinal >= 0) podsByOrdinal.set(ordinal, pod);
    }
    const step = planStatefulSet(set, podsByOrdinal, revisions, this.clock.now());
    ctx.observe(`${podsByOrdinal.size} pods, want ${set.spec.replicas ?? 1}; ${step.actions.map((a) => `${a.kind} ${a.pod.metadata.name ?? ''}`).join(', ') || step.waiting || 'in step'}`);
    const pods = ctx.client.resource<Pod>(PODS, namespace);
    for (const action of step.actions) {
      const podName = action.pod.metadata.name ?? '';
      if (action.kind === 'create') {
        await this.createClaims(ctx, set, action.ordinal, podName);
        try {
          await pods.create(action.pod);
          this.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Pod ${podName} in StatefulSet ${name} successful`, ctx.cause);
        } catch (err) {
          if (!(err instanceof StatusError)) throw err;
          if (isAlreadyExists(err)) continue;
          this.recorder.event(set, 'Warning', 'FailedCreate', `create Pod ${podName} in StatefulSet ${name} failed error: ${err.message}`, ctx.cause);
          throw err;
        }
        continue;
      }
      if (action.reason === 'failed') {
        const failed = action.pod.status?.phase === 'Failed';
        this.recorder.event(set, 'Warning', failed ? 'RecreatingFailedPod' : 'RecreatingTerminatedPod', `StatefulSet ${namespace}/${name} is recreating ${failed ? 'failed' : 'terminated'} Pod ${podName}`, ctx.cause);
      }
      try {
        await pods.delete(podName);
        this.recorder.event(set, 'Normal', 'SuccessfulDelete', `delete Pod ${podName} in StatefulSet ${name} successful`, ctx.cause);
      } catch (err) {
        if (!(err instanceof StatusError)) throw err;
        if (isNotFound(err)) continue;
        this.recorder.event(set, 'Warning', 'FailedDelete', `delete Pod ${podName} in StatefulSet ${name} failed error: ${err.message}`, ctx.cause);
        throw err;
      }
    }
    const status = step.status;
    completeRollingUpdate(set, status);
    const next = orderedStatus(status);
    const before: Record<string, unknown> = set.status ?? {};
    const after: Record<string, unknown> = next;
    if ([...new Set([...Object.keys(before), ...Object.keys(after)])].some((k) => own(before, k) !== own(after, k))) {
      await ctx.client.resource<StatefulSet>(STATEFULSETS, namespace).updateStatus({ ...set, status: next });
    }
    await this.truncateHistory(ctx, set, [...podsByOrdinal.values()], revisions);
    return step.requeueAfterMs !== undefined ? requeueAfter(step.requeueAfterMs) : undefined;
  }

  /** createPersistentVolumeClaims: each missing claim of the pod, before the pod. */
  private async createClaims(ctx: ReconcileContext, set: StatefulSet, ordinal: number, podName: string): Promise<void> {
    const namespace = set.metadata.namespace ?? '';
    for (const claim of claimsFor(set, ordinal)) {
      const claimName = claim.metadata.name ?? '';
      if (this.claims.indexer.getByName(namespace, claimName)) continue;
      try {
        await ctx.client.resource(PERSISTENTVOLUMECLAIMS, namespace).create(claim);
        this.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Claim ${claimName} Pod ${podName} in StatefulSet ${set.metadata.name ?? ''} success`, ctx.cause);
      } catch (err) {
        if (!(err instanceof StatusError)) throw err;
        if (isAlreadyExists(err)) continue;
        this.recorder.event(set, 'Warning', 'FailedCreate', `create Claim ${claimName} for Pod ${podName} in StatefulSet ${set.metadata.name ?? ''} failed error: ${err.message}`, ctx.cause);
        throw err;
      }
    }
  }

  /** getStatefulSetRevisions: the update revision (created or renumbered) and the current one. */
  private async revisionsFor(ctx: ReconcileContext, set: StatefulSet): Promise<Revisions> {
    const owned = this.revisions.indexer.listNamespace(set.metadata.namespace ?? '').filter((r) => controllerOf(r)?.uid === set.metadata.uid);
    const max = owned.reduce((m, r) => Math.max(m, r.revision), 0);
    const client = ctx.client.resource<ControllerRevision>(CONTROLLERREVISIONS, set.metadata.namespace);
    let update = findEqual(owned, set);
    if (update && update.revision < max) update = await client.update({ ...update, revision: max + 1 });
    if (!update) {
      const fresh = newRevision(set, max + 1);
      try {
        update = await client.create(fresh);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        update = fresh;
      }
    }
    const currentName = set.status?.currentRevision;
    const current = (currentName && owned.find((r) => r.metadata.name === currentName)) || update;
    return {
      current: { name: current.metadata.name ?? '', template: templateOf(current) },
      update: { name: update.metadata.name ?? '', template: templateOf(update) },
    };
  }

  /** Revisions beyond revisionHistoryLimit (10) that neither the set nor any pod uses go, oldest first. */
  private async truncateHistory(ctx: ReconcileContext, set: StatefulSet, pods: readonly Pod[], revisions: Revisions): Promise<void> {
    const live = new Set([revisions.current.name, revisions.update.name, ...pods.map((p) => p.metadata.labels?.[POD_REVISION_LABEL] ?? '')]);
    const old = this.revisions.indexer
      .listNamespace(set.metadata.namespace ?? '')
      .filter((r) => controllerOf(r)?.uid === set.metadata.uid && !live.has(r.metadata.name ?? ''))
      .sort((a, b) => a.revision - b.revision);
    const limit = set.spec.revisionHistoryLimit ?? 10;
    for (const r of old.slice(0, Math.max(0, old.length - limit))) {
      try {
        await ctx.client.resource(CONTROLLERREVISIONS, set.metadata.namespace).delete(r.metadata.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }
}
