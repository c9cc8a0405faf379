/**
 * The disruption controller (pkg/controller/disruption): keeps each PodDisruptionBudget's status
 * (expected, desired and currently healthy pods, disruptions allowed, the DisruptionAllowed
 * condition) up to date as its pods and their controllers change, so the eviction subresource
 * can decide. Entries the eviction subresource added to disruptedPods are dropped once the pod's
 * deletion shows, or after two minutes if it never does. A second loop turns stale
 * DisruptionTarget pod conditions to False.
 *
 * Runs as system:serviceaccount:kube-system:disruption-controller with one worker per queue, as
 * upstream; events come from "controllermanager", the source upstream's recorder names.
 */
import { labelSelectorAsSelector } from '../../api/labels';
import { goQuote } from '../../api/gofmt';
import type { ResourceRegistry } from '../../api/registry';
import { requeueAfter, type Controller, type ReconcileContext, type SyncResult } from '../../client/controller';
import { isConflict } from '../../client/errors';
import { deletedObject, metaNamespaceKey, splitMetaNamespaceKey } from '../../client/informer';
import { DEPLOYMENTS, PODDISRUPTIONBUDGETS, PODS, REPLICASETS, REPLICATIONCONTROLLERS, STATEFULSETS } from '../../client/resources';
import { controlLoop, type ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { buildDisruptedPodMap, countHealthyPods, expectedPodCount, failSafeStatus, nextStatus, type ExpectedPods } from './budget';
import { scaleFinders, type WorkloadCaches } from './finders';
import { labelSelectorString } from './selector-string';
import { clearedDisruptionTarget, staleDisruptionWaitMs } from './stale';
import type { Pod, PodDisruptionBudget, PodDisruptionBudgetStatus, Workload } from './types';

export const DISRUPTION_CONTROLLER_ACCOUNT = 'disruption-controller';

/** Errors that mean this code is wrong rather than the budget: never turned into a SyncFailed status. */
const isBug = (err: unknown): boolean => !(err instanceof Error) || err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError;

export class DisruptionController extends LoopController {
  readonly stalePods: Controller;
  private readonly budgets = this.informer<PodDisruptionBudget>(PODDISRUPTIONBUDGETS);
  private readonly pods = this.informer<Pod>(PODS);
  private readonly caches: WorkloadCaches = {
    replicationControllers: this.informer<Workload>(REPLICATIONCONTROLLERS).indexer,
    replicaSets: this.informer<Workload>(REPLICASETS).indexer,
    deployments: this.informer<Workload>(DEPLOYMENTS).indexer,
    statefulSets: this.informer<Workload>(STATEFULSETS).indexer,
  };

  /** `registry`: the API server's resources, the REST mapper for controllers found through their scale subresource. */
  constructor(
    deps: ControllerDeps,
    private readonly registry: ResourceRegistry,
  ) {
    super(deps, { name: 'disruption', workers: 1, events: { component: 'controllermanager', stream: 'disruption events' } });
    this.stalePods = controlLoop(deps, { name: 'stale-pod-disruption', workers: 1, informers: this.informers, sync: (key, ctx) => this.syncStalePod(key, ctx) });
    this.budgets.addEventHandler(this.loop.handler());
    this.pods.addEventHandler({
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (_old, pod) => this.podChanged(pod),
      onDelete: (obj) => {
        const pdb = this.budgetFor(deletedObject(obj));
        if (pdb) this.loop.enqueue(metaNamespaceKey(pdb), obj);
      },
    });
  }

  override async run(): Promise<void> {
    await Promise.all([super.run(), this.stalePods.run()]);
  }

  override shutDown(): void {
    super.shutDown();
    this.stalePods.shutDown();
  }

  private podChanged(pod: Pod): void {
    const pdb = this.budgetFor(pod);
    if (pdb) this.loop.enqueue(metaNamespaceKey(pdb), pod);
    const wait = staleDisruptionWaitMs(pod, this.clock.now());
    if (wait !== undefined) this.stalePods.enqueueAfter(metaNamespaceKey(pod), wait);
  }

  /**
   * getPdbForPod: the budget whose selector selects the pod (in v1 an empty selector selects
   * every pod); with several, the first one, and a warning on the pod.
   */
  private budgetFor(pod: Pod): PodDisruptionBudget | undefined {
    const labels = pod.metadata.labels ?? {};
    const matching = this.budgets.indexer.listNamespace(pod.metadata.namespace ?? '').filter((pdb) => {
      const selector = labelSelectorAsSelector(pdb.spec?.selector);
      return selector.ok && selector.value.matches(labels);
    });
    const first = matching[0];
    if (matching.length > 1) {
      const msg = `Pod ${goQuote(pod.metadata.namespace ?? '')}/${goQuote(pod.metadata.name ?? '')} matches multiple PodDisruptionBudgets.  Chose ${goQuote(first!.metadata.name ?? '')} arbitrarily.`;
      this.recorder.event(pod, 'Warning', 'MultiplePodDisruptionBudgets', msg);
    }
    return first;
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<void> {
    const pdb = this.budgets.indexer.get(key);
    if (!pdb) {
      ctx.observe('budget gone');
      return;
    }
    try {
      await this.trySync(pdb, ctx);
    } catch (err) {
      // A conflict is another writer (the eviction subresource): compute again from fresh state.
      if (isBug(err) || isConflict(err)) throw err;
      const message = (err as Error).message;
      ctx.observe(`sync failed: ${message}`);
      await this.writeStatus(ctx, pdb, failSafeStatus(pdb, message, this.clock.rfc3339()));
    }
  }

  private async trySync(pdb: PodDisruptionBudget, ctx: ReconcileContext): Promise<void> {
    const key = metaNamespaceKey(pdb);
    const parsed = labelSelectorAsSelector(pdb.spec?.selector);
    if (!parsed.ok) {
      this.recorder.event(pdb, 'Warning', 'NoPods', `Failed to get pods: ${parsed.error}`, ctx.cause);
      throw new Error(parsed.error);
    }
    const selector = parsed.value;
    const pods = this.pods.indexer.listNamespace(pdb.metadata.namespace ?? '', selector);
    if (pods.length === 0) this.recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found', ctx.cause);

    let expected: ExpectedPods;
    try {
      expected = await expectedPodCount(pdb, pods, scaleFinders(this.caches, this.registry, ctx.client));
    } catch (err) {
      if (!isBug(err)) this.recorder.event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${(err as Error).message}`, ctx.cause);
      throw err;
    }
    if (expected.unmanagedPods.length > 0) {
      this.recorder.event(
        pdb,
        'Warning',
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget (selector: ${labelSelectorString(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
        ctx.cause,
      );
    }

    const now = this.clock.now();
    const disrupted = buildDisruptedPodMap(pods, pdb, now);
    // Upstream names the budget's namespace twice in this message.
    const ns = pdb.metadata.namespace ?? '';
    for (const pod of disrupted.notDeleted) this.recorder.event(pod, 'Warning', 'NotDeleted', `Pod was expected by PDB ${ns}/${ns} to be deleted but it wasn't`, ctx.cause);
    const counts = { currentHealthy: countHealthyPods(pods, disrupted.disruptedPods, now), desiredHealthy: expected.desiredHealthy, expectedCount: expected.expectedCount };
    const status = nextStatus(pdb, counts, disrupted.disruptedPods, this.clock.rfc3339(now));
    ctx.observe(`${pods.length} pods, ${counts.currentHealthy} healthy; ${counts.desiredHealthy} of ${counts.expectedCount} must stay healthy${status ? '' : ' (status up to date)'}`);
    if (status) await this.writeStatus(ctx, pdb, status);
    // Look again when the first entry expires; a virtual clock lands exactly on the deadline, which is not yet past it.
    if (disrupted.recheckAtMs !== undefined) this.loop.enqueueAfter(key, disrupted.recheckAtMs - now + 1);
  }

  /** writePdbStatus: not retried here; a failure is retried by the queue. */
  private async writeStatus(ctx: ReconcileContext, pdb: PodDisruptionBudget, status: PodDisruptionBudgetStatus): Promise<void> {
    await ctx.client.resource<PodDisruptionBudget>(PODDISRUPTIONBUDGETS, pdb.metadata.namespace ?? '').updateStatus({ ...pdb, status });
  }

  private async syncStalePod(key: string, ctx: ReconcileContext): Promise<SyncResult> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pod = this.pods.indexer.getByName(namespace, name);
    if (!pod) return;
    const wait = staleDisruptionWaitMs(pod, this.clock.now());
    if (wait === undefined) return;
    if (wait > 0) return requeueAfter(wait);
    const conditions = clearedDisruptionTarget(pod, this.clock.rfc3339());
    if (!conditions) return;
    ctx.observe('DisruptionTarget condition stale for 2m0s: set to False');
    await ctx.client.resource<Pod>(PODS, namespace).updateStatus({ ...pod, status: { ...pod.status, conditions } });
  }
}
