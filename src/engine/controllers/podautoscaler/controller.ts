/**
 * The horizontal pod autoscaler controller (pkg/controller/podautoscaler): every 15 s (the sync
 * period, --horizontal-pod-autoscaler-sync-period) each HPA reads its target's scale
 * subresource, lists its pods' resource metrics from metrics.k8s.io, plans (plan.ts) and then
 * updates the scale and the HPA's status. Adds and updates of an HPA queue it after the sync
 * period too, as upstream's rate limiter does; the recommendations and scale events behind the
 * stabilization windows and scaling policies live in memory, per HPA, as upstream keeps them.
 *
 * Runs as system:serviceaccount:kube-system:horizontal-pod-autoscaler with 5 workers
 * (--concurrent-horizontal-pod-autoscaler-syncs); events come from "horizontal-pod-autoscaler".
 * Each reconcile's trace record carries its decision: the metrics it used, the proposal, the
 * stabilization and limits that changed it, and the count it set.
 */
import type { Selector } from '../../api/labels';
import type { ResourceRegistry } from '../../api/registry';
import { noKindMatchMessage } from '../../api/registry';
import { StatusError } from '../../api/status';
import { requeueAfter, type ReconcileContext, type SyncResult } from '../../client/controller';
import { deletedObject, deletionHandlingKey } from '../../client/informer';
import { HORIZONTALPODAUTOSCALERS, PODS, POD_METRICS } from '../../client/resources';
import type { AutoscalerDecision } from '../../trace/reconcile';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { emptyHistory, type AutoscalerHistory } from './normalize';
import { afterRescale, DEFAULT_SETTINGS, planAutoscale, resourceMetricIndexes, type AutoscalerSettings, type MetricsAnswer, type Plan, type ScaleLookup } from './plan';
import type { HorizontalPodAutoscaler, Pod, Scale } from './types';
import { fail, ok } from '../../api/result';

export const HPA_CONTROLLER_ACCOUNT = 'horizontal-pod-autoscaler';
/** --horizontal-pod-autoscaler-sync-period. */
export const HPA_SYNC_PERIOD_MS = 15_000;

const isBug = (err: unknown): boolean => !(err instanceof Error) || err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** client-go's text for a generic 404/503 answer names the request, as `kubectl` prints it. */
function clientError(err: unknown, verb: string, resource: string): string {
  if (!(err instanceof StatusError)) return messageOf(err);
  const generic = err.code === 404 && err.message === 'the server could not find the requested resource';
  return generic ? `${err.message} (${verb} ${resource})` : err.message;
}

export class HorizontalController extends LoopController {
  private readonly hpas = this.informer<HorizontalPodAutoscaler>(HORIZONTALPODAUTOSCALERS);
  private readonly pods = this.informer<Pod>(PODS);
  private readonly settings: AutoscalerSettings;
  private readonly history = new Map<string, AutoscalerHistory>();
  /** hpaSelectors: every HPA's last selector (none until its first reconcile parses one). */
  private readonly selectors = new Map<string, Selector | undefined>();

  constructor(
    deps: ControllerDeps,
    private readonly registry: ResourceRegistry,
    settings: Partial<AutoscalerSettings> = {},
  ) {
    super(deps, { name: 'horizontal-pod-autoscaler', events: { component: 'horizontal-pod-autoscaler', stream: 'horizontal-pod-autoscaler events' } });
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
    this.hpas.addEventHandler({
      onAdd: (hpa) => this.enqueue(hpa, true),
      // A status write (its own) changes nothing the next periodic sync would not see.
      onUpdate: (old, hpa) => this.enqueue(hpa, old.metadata.generation !== hpa.metadata.generation),
      onDelete: (obj) => {
        const key = deletionHandlingKey(deletedObject(obj));
        this.loop.queue.forget(key);
        this.selectors.delete(key);
      },
    });
  }

  /** enqueueHPA: AddRateLimited, which waits the sync period. */
  private enqueue(hpa: HorizontalPodAutoscaler, changed: boolean): void {
    const key = deletionHandlingKey(hpa);
    if (!this.selectors.has(key)) this.selectors.set(key, undefined);
    if (changed) this.loop.enqueueAfter(key, HPA_SYNC_PERIOD_MS);
    else this.loop.queue.addAfter(key, HPA_SYNC_PERIOD_MS, { background: true });
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<SyncResult> {
    const hpa = this.hpas.indexer.get(key);
    if (!hpa) {
      this.history.delete(key);
      ctx.observe('autoscaler gone');
      return;
    }
    let rescaled = false;
    try {
      rescaled = await this.reconcile(key, hpa, ctx);
    } catch (err) {
      if (isBug(err)) throw err;
      ctx.observe(`error: ${messageOf(err)}`);
    }
    // Every HPA is synced again after the period; only one that just scaled keeps the cluster busy.
    return requeueAfter(HPA_SYNC_PERIOD_MS, { background: !rescaled });
  }

  private async reconcile(key: string, shared: HorizontalPodAutoscaler, ctx: ReconcileContext): Promise<boolean> {
    const hpa = structuredClone(shared) as HorizontalPodAutoscaler;
    const namespace = hpa.metadata.namespace ?? '';
    const now = this.clock.now();
    const rfc3339 = this.clock.rfc3339(now);
    const target = await this.getScale(ctx, hpa);
    const metrics = new Map<number, MetricsAnswer>();
    if (target.lookup.ok && this.needsMetrics(hpa, target.lookup.value)) {
      const selector = target.lookup.value.status?.selector ?? '';
      for (const i of resourceMetricIndexes(hpa)) metrics.set(i, await this.listPodMetrics(ctx, namespace, selector));
    }
    const otherSelectors = new Map<string, Selector>();
    for (const [k, sel] of this.selectors) if (k !== key && sel && k.startsWith(`${namespace}/`)) otherSelectors.set(k, sel);
    const input = {
      hpa,
      now,
      rfc3339,
      scale: target.lookup,
      pods: this.pods.indexer.listNamespace(namespace),
      metrics,
      otherSelectors,
      history: this.history.get(key) ?? emptyHistory(),
      settings: this.settings,
    };
    let plan = planAutoscale(input);
    if (plan.selector && this.selectors.has(key)) this.selectors.set(key, plan.selector);
    if (plan.rescale && target.resource) {
      let failure: string | undefined;
      try {
        const scale: Scale = { ...plan.rescale.scale, spec: { ...plan.rescale.scale.spec, replicas: plan.rescale.to } };
        await ctx.client.resource(target.resource, namespace).updateScale(hpa.spec.scaleTargetRef.name, scale);
      } catch (err) {
        if (isBug(err)) throw err;
        failure = messageOf(err);
      }
      plan = afterRescale(plan, input, failure);
    }
    this.history.set(key, plan.history);
    for (const e of plan.events) this.recorder.event(hpa, e.type, e.reason, e.message, ctx.cause);
    ctx.detail({ autoscaler: plan.decision });
    ctx.observe(summary(plan.decision, plan.error));
    if (plan.status) {
      try {
        await ctx.client.resource<HorizontalPodAutoscaler>(HORIZONTALPODAUTOSCALERS, namespace).updateStatus({ ...hpa, status: plan.status });
      } catch (err) {
        if (isBug(err)) throw err;
        this.recorder.event(hpa, 'Warning', 'FailedUpdateStatus', messageOf(err), ctx.cause);
        ctx.observe(`${summary(plan.decision, plan.error)}; failed to update status for ${hpa.metadata.name ?? ''}: ${messageOf(err)}`);
      }
    }
    return plan.decision.rescaled === true;
  }

  /** The scale is read only where the planner goes on to the metrics (the target's count is in range). */
  private needsMetrics(hpa: HorizontalPodAutoscaler, scale: Scale): boolean {
    const current = scale.spec?.replicas ?? 0;
    const min = hpa.spec.minReplicas ?? 1;
    return !(current === 0 && min !== 0) && current <= hpa.spec.maxReplicas && current >= min;
  }

  /** RESTMappings of the target's group and kind, then scaleForResourceMappings: the first that answers. */
  private async getScale(ctx: ReconcileContext, hpa: HorizontalPodAutoscaler): Promise<{ lookup: ScaleLookup; resource?: { group: string; version: string; resource: string } }> {
    const ref = hpa.spec.scaleTargetRef;
    const apiVersion = ref.apiVersion ?? '';
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const versions = this.registry.versionsOfKind(group, ref.kind);
    if (versions.length === 0) return { lookup: fail(noKindMatchMessage(group, ref.kind, [])) };
    let first: string | undefined;
    for (const version of versions) {
      const info = this.registry.byGvk(group, version, ref.kind);
      if (!info) continue;
      const gvr = { group, version, resource: info.resource };
      try {
        const scale = (await ctx.client.resource(gvr, hpa.metadata.namespace).getScale(ref.name)) as Scale;
        return { lookup: ok(scale), resource: gvr };
      } catch (err) {
        if (isBug(err)) throw err;
        first ??= clientError(err, 'get', `${info.resource}${group ? `.${group}` : ''}`);
      }
    }
    return { lookup: fail(first ?? 'unrecognized resource') };
  }

  /** resourceMetricsClient's list of PodMetrics for the selector. */
  private async listPodMetrics(ctx: ReconcileContext, namespace: string, selector: string): Promise<MetricsAnswer> {
    try {
      const list = await ctx.client.resource(POD_METRICS, namespace).list({ labelSelector: selector });
      return ok(list.items);
    } catch (err) {
      if (isBug(err)) throw err;
      return fail(clientError(err, 'get', 'pods.metrics.k8s.io'));
    }
  }
}

/** The reconcile in one line: "cpu 120%/50% (2 ready) -> 4 of 2 (ScaleUpLimit); rescaled 2 -> 4". */
export function summary(d: AutoscalerDecision, error: string | undefined): string {
  const metrics = d.metrics.map((m) => `${m.metric} ${m.current}/${m.target}${m.ready !== undefined ? ` (${m.ready} ready${m.unready ? `, ${m.unready} unready` : ''}${m.missing ? `, ${m.missing} without metrics` : ''})` : ''}`).join(', ');
  const head = metrics ? `${metrics}; ` : '';
  if (d.rescaled) return `${head}scaled ${d.currentReplicas} -> ${d.desiredReplicas}${d.limited ? ` (${d.limited})` : ''}`;
  if (error) return `${head}${error}`;
  const why = d.stabilized ?? d.limited;
  return `${head}${d.currentReplicas} replicas, keep${why ? ` (${why}${d.proposal !== undefined ? `: proposal ${d.proposal}` : ''})` : ''}`;
}

export type { Plan };
