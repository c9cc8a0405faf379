/**
 * The Deployment controller's control loop (deployment_controller.go): Deployments, their
 * ReplicaSets and (for Recreate) pod deletions queue the Deployment; a sync adopts and releases
 * ReplicaSets, plans the sync (reconcile.ts) and sends its writes in order, stopping at the first
 * failure as upstream returns at its first error.
 *
 * Runs as system:serviceaccount:kube-system:deployment-controller; events come from
 * "deployment-controller".
 */
import { goQuote } from '../../api/gofmt';
import { labelSelectorAsSelector } from '../../api/labels';
import { isStatusError, type StatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import { requeueAfter, type ReconcileContext, type SyncResult } from '../../client/controller';
import { isAlreadyExists, isNotFound } from '../../client/errors';
import { deletedObject, DeletedFinalStateUnknown } from '../../client/informer';
import { DEPLOYMENTS, PODS, REPLICASETS } from '../../client/resources';
import { claimThroughApi, controllerOf } from '../util/controller-ref-manager';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { cachedController, controllersSelecting } from '../util/owner-lookup';
import { deepEqual } from '../../api/deep-equal';
import { POD_CONTROLLER_UID_INDEX, podControllerUidIndexFunc } from '../util/indexes';
import type { Pod, ReplicaSet } from '../util/types/workload';
import type { DeploymentAction, Plan } from './plan';
import { planSync } from './reconcile';
import type { PodMap } from './recreate';
import { planCreateFailure } from './sync';
import { RECREATE, type Deployment } from './types';

export const DEPLOYMENT_CONTROLLER_ACCOUNT = 'deployment-controller';

/** A Deployment whose syncs keep failing is dropped from the queue after this many retries. */
const MAX_RETRIES = 15;

export class DeploymentController extends LoopController {
  private readonly deployments = this.informer<Deployment>(DEPLOYMENTS);
  private readonly replicaSets = this.informer<ReplicaSet>(REPLICASETS);
  private readonly pods = this.informer<Pod>(PODS, { [POD_CONTROLLER_UID_INDEX]: podControllerUidIndexFunc });

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'deployment', maxRetries: MAX_RETRIES, events: { component: 'deployment-controller', stream: 'deployment events' } });
    this.deployments.addEventHandler(this.loop.handler<Deployment>());
    this.replicaSets.addEventHandler({
      onAdd: (rs) => this.addReplicaSet(rs),
      onUpdate: (old, rs) => this.updateReplicaSet(old, rs),
      onDelete: (obj) => this.deleteReplicaSet(obj),
    });
    this.pods.addEventHandler({ onDelete: (obj) => this.deletePod(obj) });
  }

  private enqueue(d: Deployment, because: KubeObject | DeletedFinalStateUnknown): void {
    this.loop.enqueue(`${d.metadata.namespace ?? ''}/${d.metadata.name ?? ''}`, because);
  }

  /** The Deployment the ReplicaSet's controllerRef names, if it is the one with that uid. */
  private deploymentOf(rs: ReplicaSet): Deployment | undefined {
    return cachedController(this.deployments.indexer, 'Deployment', rs);
  }

  private addReplicaSet(rs: ReplicaSet): void {
    if (rs.metadata.deletionTimestamp) return this.deleteReplicaSet(rs);
    if (controllerOf(rs)) {
      const d = this.deploymentOf(rs);
      if (d) this.enqueue(d, rs);
      return;
    }
    for (const d of controllersSelecting(this.deployments.indexer, rs)) this.enqueue(d, rs);
  }

  private updateReplicaSet(old: ReplicaSet, rs: ReplicaSet): void {
    // A resync delivers the same version again.
    if (old.metadata.resourceVersion === rs.metadata.resourceVersion) return;
    const ref = controllerOf(rs);
    const oldRef = controllerOf(old);
    const refChanged = !deepEqual(ref, oldRef);
    if (refChanged && oldRef) {
      const d = this.deploymentOf(old);
      if (d) this.enqueue(d, rs);
    }
    if (ref) {
      const d = this.deploymentOf(rs);
      if (d) this.enqueue(d, rs);
      return;
    }
    if (refChanged || !deepEqual(rs.metadata.labels, old.metadata.labels)) for (const d of controllersSelecting(this.deployments.indexer, rs)) this.enqueue(d, rs);
  }

  private deleteReplicaSet(obj: ReplicaSet | DeletedFinalStateUnknown<ReplicaSet>): void {
    const d = this.deploymentOf(deletedObject(obj));
    if (d) this.enqueue(d, obj);
  }

  /** A Recreate Deployment waits for its old pods to be gone: the last one going queues it. */
  private deletePod(obj: Pod | DeletedFinalStateUnknown<Pod>): void {
    const pod = deletedObject(obj);
    const rs = cachedController(this.replicaSets.indexer, 'ReplicaSet', pod);
    if (!rs) return;
    const d = this.deploymentOf(rs);
    if (!d || d.spec.strategy?.type !== RECREATE) return;
    const owned = this.replicaSets.indexer.listNamespace(d.metadata.namespace ?? '').filter((r) => controllerOf(r)?.uid === d.metadata.uid);
    let remaining = 0;
    for (const pods of this.podMap(d, owned).values()) remaining += pods.length;
    if (remaining === 0) this.enqueue(d, obj);
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<SyncResult> {
    const d = this.deployments.indexer.get(key);
    if (!d) {
      ctx.observe('deployment gone');
      return;
    }
    const rsList = await this.claimReplicaSets(ctx, d);
    const plan = planSync({ deployment: d, replicaSets: rsList, pods: this.podMap(d, rsList), nowMs: this.clock.now() });
    ctx.observe(`${rsList.length} replica sets; ${describe(plan.actions)}`);
    await this.execute(ctx, d, plan);
    if (plan.requeue === 'rateLimited') this.loop.enqueueAfter(key, this.loop.queue.rateLimiter.when(key));
    // The progress deadline check: the cluster counts as settled while it waits.
    else if (plan.requeue) return requeueAfter(plan.requeue.after, { background: true });
  }

  /** The ReplicaSets the Deployment controls, after adopting matching orphans and releasing those that stopped matching. */
  private async claimReplicaSets(ctx: ReconcileContext, d: Deployment): Promise<ReplicaSet[]> {
    const namespace = d.metadata.namespace ?? '';
    const parsed = labelSelectorAsSelector(d.spec.selector);
    if (!parsed.ok) throw new Error(`deployment ${namespace}/${d.metadata.name ?? ''} has invalid label selector: ${parsed.error}`);
    const selector = parsed.value;
    const resources = { controller: DEPLOYMENTS, dependents: REPLICASETS };
    return claimThroughApi(ctx.client, d, resources, this.replicaSets.indexer.listNamespace(namespace), (rs) => selector.matches(rs.metadata.labels ?? {}));
  }

  /** The Deployment's pods by the uid of their controlling ReplicaSet, every one of rsList present. */
  private podMap(d: Deployment, rsList: readonly ReplicaSet[]): PodMap {
    const selector = labelSelectorAsSelector(d.spec.selector);
    const map = new Map<string, Pod[]>();
    for (const rs of rsList) {
      const uid = rs.metadata.uid ?? '';
      const pods = !selector.ok ? [] : this.pods.indexer.byIndex(POD_CONTROLLER_UID_INDEX, uid).filter((p) => selector.value.matches(p.metadata.labels ?? {}));
      map.set(uid, pods);
    }
    return map;
  }

  private async execute(ctx: ReconcileContext, d: Deployment, plan: Plan): Promise<void> {
    const namespace = d.metadata.namespace ?? '';
    const rsClient = ctx.client.resource<ReplicaSet>(REPLICASETS, namespace);
    const dClient = ctx.client.resource<Deployment>(DEPLOYMENTS, namespace);
    const answers: (KubeObject | undefined)[] = [];
    for (const action of plan.actions) {
      let answer: KubeObject | undefined;
      switch (action.kind) {
        case 'createReplicaSet':
          try {
            answer = await rsClient.create(action.replicaSet);
          } catch (err) {
            if (!isStatusError(err)) throw err;
            return this.createFailed(ctx, action.deployment, action.replicaSet, err);
          }
          break;
        case 'updateReplicaSet': {
          const rs = action.replicaSet;
          if (action.resourceVersionFrom !== undefined) rs.metadata.resourceVersion = answers[action.resourceVersionFrom]?.metadata.resourceVersion;
          answer = await rsClient.update(rs);
          break;
        }
        case 'deleteReplicaSet':
          try {
            await rsClient.delete(action.name);
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
          break;
        case 'updateDeploymentStatus':
          await dClient.updateStatus(action.deployment);
          break;
        case 'updateDeployment':
          await dClient.update(action.deployment);
          break;
        case 'event':
          this.recorder.event(d, action.eventType, action.reason, action.message, ctx.cause);
          break;
      }
      answers.push(answer);
    }
  }

  private async createFailed(ctx: ReconcileContext, d: Deployment, rs: ReplicaSet, err: StatusError): Promise<void> {
    const namespace = d.metadata.namespace ?? '';
    const alreadyExists = isAlreadyExists(err);
    const existing = alreadyExists ? this.replicaSets.indexer.getByName(namespace, rs.metadata.name ?? '') : undefined;
    if (alreadyExists && !existing) throw new Error(`replicaset.apps ${goQuote(rs.metadata.name ?? '')} not found`);
    const namespaceTerminating = (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
    const followUp = planCreateFailure(d, rs, { alreadyExists, namespaceTerminating, message: err.message, existing }, this.clock.now());
    if (followUp === 'adopted') {
      this.loop.enqueue(`${namespace}/${d.metadata.name ?? ''}`);
      return;
    }
    const dClient = ctx.client.resource<Deployment>(DEPLOYMENTS, namespace);
    for (const action of followUp.actions) {
      if (action.kind === 'updateDeploymentStatus') {
        // Upstream ignores this write's failure: the create error is the one to report.
        await dClient.updateStatus(action.deployment).catch((e: unknown) => {
          if (!isStatusError(e)) throw e;
        });
      } else if (action.kind === 'event') {
        this.recorder.event(d, action.eventType, action.reason, action.message, ctx.cause);
      }
    }
    throw err;
  }
}

function describe(actions: readonly DeploymentAction[]): string {
  const writes = actions.filter((a) => a.kind !== 'event');
  if (writes.length === 0) return 'no changes';
  return writes
    .map((a) => {
      switch (a.kind) {
        case 'createReplicaSet':
          return `create ${a.replicaSet.metadata.name ?? ''} (${a.replicaSet.spec.replicas ?? 0})`;
        case 'updateReplicaSet':
          return `scale ${a.replicaSet.metadata.name ?? ''} to ${a.replicaSet.spec.replicas ?? 0}`;
        case 'deleteReplicaSet':
          return `delete ${a.name}`;
        case 'updateDeploymentStatus':
          return 'update status';
        default:
          return 'update deployment';
      }
    })
    .join(', ');
}
