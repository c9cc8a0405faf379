/**
 * One HPA reconcile as a pure function (horizontal.go's reconcileAutoscaler): from the HPA, its
 * target's scale (or why it could not be read), the pods, the metrics the API answered and what
 * the controller remembers, the status to write, the events to record and whether to rescale.
 * The rescale itself is the caller's; `afterRescale` finishes the plan with its outcome.
 */
import { parseSelector, type Selector } from '../../api/labels';
import { Quantity, parseQuantity } from '../../api/quantity';
import type { AutoscalerDecision, AutoscalerMetric } from '../../trace/reconcile';
import { setOwn } from '../../api/own';
import { fail, ok, type Result } from '../../api/result';
import { milliOf, podResourceMetrics, type PodMetricsView } from './metrics';
import {
  cloneHistory,
  convertDesiredReplicasWithRules,
  convertWithBehaviorRate,
  READY_FOR_NEW_SCALE,
  recordInitialRecommendation,
  SCALE_DOWN_STABILIZED,
  stabilizeRecommendation,
  stabilizeWithBehaviors,
  storeScaleEvent,
  type AutoscalerHistory,
} from './normalize';
import { rawResourceReplicas, resourceReplicas, type ReadinessSettings, type ResourceInput, type ResourceReplicas, type Tolerances } from './replicas';
import {
  ABLE_TO_SCALE,
  SCALING_ACTIVE,
  SCALING_LIMITED,
  type ConditionStatus,
  type HorizontalPodAutoscaler,
  type HorizontalPodAutoscalerCondition,
  type HorizontalPodAutoscalerStatus,
  type MetricSpec,
  type MetricStatus,
  type MetricValueStatus,
  type Pod,
  type Scale,
} from './types';

export interface AutoscalerSettings {
  /** --horizontal-pod-autoscaler-tolerance (0.1). */
  tolerance: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization (5m). */
  downscaleStabilizationMs: number;
  cpuInitializationPeriodMs: number;
  delayOfInitialReadinessStatusMs: number;
}

export const DEFAULT_SETTINGS: AutoscalerSettings = {
  tolerance: 0.1,
  downscaleStabilizationMs: 5 * 60_000,
  cpuInitializationPeriodMs: 5 * 60_000,
  delayOfInitialReadinessStatusMs: 30_000,
};

export interface PlannedEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** The target's scale as the controller found it. */
export type ScaleLookup = Result<Scale>;

/** A metrics.k8s.io list answer (PodMetricsList items) or the client's error. */
export type MetricsAnswer = Result<readonly PodMetricsView[]>;

export interface PlanInput {
  hpa: HorizontalPodAutoscaler;
  now: number;
  rfc3339: string;
  scale: ScaleLookup;
  /** The pods of the HPA's namespace. */
  pods: readonly Pod[];
  /** The answers to the resource metrics lists, by the index of the metric spec that needs one. */
  metrics: ReadonlyMap<number, MetricsAnswer>;
  /** The other HPAs of the namespace and the selectors they last used ("ns/name"). */
  otherSelectors: ReadonlyMap<string, Selector>;
  history: AutoscalerHistory;
  settings: AutoscalerSettings;
}

export interface Plan {
  /** The status to write (undefined: unchanged, no write). */
  status: HorizontalPodAutoscalerStatus | undefined;
  events: PlannedEvent[];
  history: AutoscalerHistory;
  /** The selector this HPA now uses (for the others' ambiguity checks). */
  selector?: Selector;
  /** Set when the target's scale should change. */
  rescale?: { from: number; to: number; reason: string; scale: Scale };
  /** An error to report (as upstream's reconcileAutoscaler returns it). */
  error?: string;
  decision: AutoscalerDecision;
  /** What afterRescale needs. */
  pending?: { conditions: HorizontalPodAutoscalerCondition[]; statuses: MetricStatus[] | undefined; original: HorizontalPodAutoscalerStatus | undefined };
}

/** The metric specs that need a metrics.k8s.io list before planning. */
export function resourceMetricIndexes(hpa: HorizontalPodAutoscaler): number[] {
  return (hpa.spec.metrics ?? []).flatMap((m, i) => (m.type === 'Resource' || m.type === 'ContainerResource' ? [i] : []));
}

/** setConditionInList: lastTransitionTime moves when the status does. */
function setCondition(list: HorizontalPodAutoscalerCondition[], type: string, status: ConditionStatus, reason: string, message: string, now: string): void {
  let c = list.find((x) => x.type === type);
  if (!c) {
    c = { type, status: '' as ConditionStatus };
    list.push(c);
  }
  if (c.status !== status) c.lastTransitionTime = now;
  c.status = status;
  c.reason = reason;
  c.message = message;
}

/** schema.ParseGroupVersion's error, if any. */
function groupVersionError(apiVersion: string | undefined): string | undefined {
  const v = apiVersion ?? '';
  if (v === '' || v === '/') return undefined;
  return v.split('/').length > 2 ? `unexpected GroupVersion string: ${v}` : undefined;
}

const milliQuantity = (milli: number): string => Quantity.fromMilli(milli).toString();

/** The HPA's tolerances: the behavior's per direction (HPAConfigurableTolerance, beta in 1.35), else the flag's. */
export function tolerancesFor(hpa: HorizontalPodAutoscaler, tolerance: number): Tolerances {
  const t = { scaleDown: tolerance, scaleUp: tolerance };
  const down = hpa.spec.behavior?.scaleDown?.tolerance;
  const up = hpa.spec.behavior?.scaleUp?.tolerance;
  if (down !== undefined) {
    const q = parseQuantity(down);
    if (q.ok) t.scaleDown = q.value.milliValue() / 1000;
  }
  if (up !== undefined) {
    const q = parseQuantity(up);
    if (q.ok) t.scaleUp = q.value.milliValue() / 1000;
  }
  return t;
}

/** One metric spec's replica proposal, or why there is none; its trace either way. */
interface MetricOutcome {
  trace: AutoscalerMetric;
  result: Result<{ replicas: number; name: string; status: MetricStatus }, { message: string; condition: { reason: string; message: string } }>;
}

/** computeStatusForResourceMetricGeneric's answer: a proposal, or the error; its trace either way. */
interface ResourceMetricOutcome {
  trace: AutoscalerMetric;
  result: Result<{ replicas: number; current: MetricValueStatus; name: string }>;
}

function groupsOf(r: ResourceReplicas): Pick<AutoscalerMetric, 'ready' | 'unready' | 'missing' | 'ignored'> {
  return { ready: r.groups.readyPodCount, unready: r.groups.unready.size, missing: r.groups.missing.size, ignored: r.groups.ignored.size };
}

class Reconcile {
  readonly conditions: HorizontalPodAutoscalerCondition[];
  readonly events: PlannedEvent[] = [];
  readonly history: AutoscalerHistory;
  readonly hpa: HorizontalPodAutoscaler;
  readonly key: string;
  selector: Selector | undefined;

  constructor(private readonly input: PlanInput) {
    this.hpa = input.hpa;
    this.key = `${input.hpa.metadata.namespace ?? ''}/${input.hpa.metadata.name ?? ''}`;
    this.conditions = (input.hpa.status?.conditions ?? []).map((c) => ({ ...c }));
    this.history = cloneHistory(input.history);
  }

  set(type: string, status: ConditionStatus, reason: string, message: string): void {
    setCondition(this.conditions, type, status, reason, message, this.input.rfc3339);
  }

  event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.push({ type, reason, message });
  }

  /** getUnableComputeReplicaCountCondition: records the event and returns the condition. */
  unable(reason: string, error: string): { reason: string; message: string } {
    this.event('Warning', reason, error);
    return { reason, message: `the HPA was unable to compute the replica count: ${error}` };
  }

  /** validateAndParseSelector. */
  validateSelector(selectorText: string | undefined): Result<Selector> {
    if (!selectorText) {
      const msg = 'selector is required';
      this.event('Warning', 'SelectorRequired', msg);
      this.set(SCALING_ACTIVE, 'False', 'InvalidSelector', "the HPA target's scale is missing a selector");
      return fail(msg);
    }
    const result = parseSelector(selectorText);
    if (!result.ok) {
      const msg = `couldn't convert selector into a corresponding internal selector object: ${result.error}`;
      this.event('Warning', 'InvalidSelector', msg);
      this.set(SCALING_ACTIVE, 'False', 'InvalidSelector', msg);
      return fail(msg);
    }
    const parsed = result.value;
    this.selector = parsed;
    const selecting = new Set<string>();
    for (const pod of this.podsFor(parsed)) {
      const labels = pod.metadata.labels ?? {};
      if (parsed.matches(labels)) selecting.add(this.key);
      for (const [other, sel] of this.input.otherSelectors) if (sel.matches(labels)) selecting.add(other);
    }
    if (selecting.size > 1) {
      const msg = `pods by selector ${selectorText} are controlled by multiple HPAs: [${[...selecting].sort().join(' ')}]`;
      this.event('Warning', 'AmbiguousSelector', msg);
      this.set(SCALING_ACTIVE, 'False', 'AmbiguousSelector', msg);
      return fail(msg);
    }
    return ok(parsed);
  }

  podsFor(selector: Selector): Pod[] {
    return this.input.pods.filter((p) => selector.matches(p.metadata.labels ?? {}));
  }

  /** computeReplicasForMetric for one spec. */
  metric(spec: MetricSpec, index: number, specReplicas: number, selector: Selector): MetricOutcome {
    const tolerances = tolerancesFor(this.hpa, this.input.settings.tolerance);
    switch (spec.type) {
      case 'Resource':
      case 'ContainerResource': {
        const source = spec.type === 'Resource' ? spec.resource : spec.containerResource;
        const resource = source?.name ?? '';
        const container = spec.type === 'ContainerResource' ? spec.containerResource?.container ?? '' : '';
        const { trace, result: r } = this.resourceMetric(spec, index, specReplicas, selector, tolerances, resource, container);
        if (!r.ok) {
          const reason = spec.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
          const condition = this.unable(reason, r.error);
          const outer = spec.type === 'Resource' ? `failed to get ${resource} resource metric value: ${r.error}` : `failed to get ${container} container metric value: ${r.error}`;
          return { trace: { ...trace, error: r.error }, result: fail({ message: outer, condition }) };
        }
        const { current } = r.value;
        const status: MetricStatus =
          spec.type === 'Resource' ? { type: 'Resource', resource: { name: resource, current } } : { type: 'ContainerResource', containerResource: { name: resource, current, container } };
        return { trace, result: ok({ replicas: r.value.replicas, name: r.value.name, status }) };
      }
      case 'Pods': {
        const name = spec.pods?.metric.name ?? '';
        const err = `unable to get metric ${name}: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered`;
        const condition = this.unable('FailedGetPodsMetric', err);
        return { trace: { metric: `pods metric ${name}`, current: '<unknown>', target: spec.pods?.target.averageValue ?? '', error: err }, result: fail({ message: `failed to get pods metric value: ${err}`, condition }) };
      }
      case 'Object': {
        const name = spec.object?.metric.name ?? '';
        const ref = spec.object?.describedObject;
        const err = `unable to get metric ${name}: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered on ${ref?.kind ?? ''} ${this.hpa.metadata.namespace ?? ''}/${ref?.name ?? ''}`;
        const condition = this.unable('FailedGetObjectMetric', err);
        const target = spec.object?.target;
        return { trace: { metric: `${ref?.kind ?? ''} metric ${name}`, current: '<unknown>', target: target?.value ?? target?.averageValue ?? '', error: err }, result: fail({ message: `failed to get object metric value: ${err}`, condition }) };
      }
      case 'External': {
        const name = spec.external?.metric.name ?? '';
        const target = spec.external?.target;
        const inner = `unable to fetch metrics from external metrics API: the server could not find the requested resource (get ${name}.external.metrics.k8s.io)`;
        const err = `unable to get external metric ${this.hpa.metadata.namespace ?? ''}/${name}/nil: ${inner}`;
        const condition = this.unable('FailedGetExternalMetric', err);
        const outer = target?.averageValue !== undefined ? `failed to get ${name} external metric: ${err}` : `failed to get external metric ${name}: ${err}`;
        return { trace: { metric: `external metric ${name}`, current: '<unknown>', target: target?.value ?? target?.averageValue ?? '', error: err }, result: fail({ message: `failed to get ${name} external metric value: ${outer}`, condition }) };
      }
      default: {
        const err = `unknown metric source type ${JSON.stringify(spec.type)}`;
        const condition = this.unable('InvalidMetricSourceType', err);
        return { trace: { metric: spec.type, current: '<unknown>', target: '', error: err }, result: fail({ message: err, condition }) };
      }
    }
  }

  /** computeStatusForResourceMetricGeneric. */
  resourceMetric(
    spec: MetricSpec,
    index: number,
    currentReplicas: number,
    selector: Selector,
    tolerances: Tolerances,
    resource: string,
    container: string,
  ): ResourceMetricOutcome {
    const target = (spec.type === 'Resource' ? spec.resource?.target : spec.containerResource?.target) ?? { type: '' };
    const byValue = target.averageValue !== undefined;
    const label = byValue ? `${resource} resource` : spec.type === 'ContainerResource' ? `${resource} container resource utilization (percentage of request)` : `${resource} resource utilization (percentage of request)`;
    const goal = byValue ? target.averageValue! : target.averageUtilization !== undefined ? `${target.averageUtilization}%` : '';
    const trace: AutoscalerMetric = { metric: spec.type === 'ContainerResource' ? `${resource} of container ${container}` : resource, current: '<unknown>', target: goal };
    if (!byValue && target.averageUtilization === undefined) {
      return { trace, result: fail('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set') };
    }
    const what = byValue ? 'usage' : 'utilization';
    const answer = this.input.metrics.get(index) ?? fail('no metrics returned from resource metrics API');
    const fetched = answer.ok ? podResourceMetrics(answer.value, resource, container) : fail(`unable to fetch metrics from resource metrics API: ${answer.error}`);
    if (!fetched.ok) return { trace, result: fail(`failed to get ${resource} ${what}: unable to get metrics for resource ${resource}: ${fetched.error}`) };
    const input: ResourceInput = {
      currentReplicas,
      resource,
      container,
      tolerances,
      pods: this.podsFor(selector),
      metrics: fetched.value.metrics,
      timestamp: fetched.value.timestamp,
      settings: this.readiness(),
    };
    if (byValue) {
      const targetMilli = milliOf(target.averageValue) ?? 0;
      const raw = rawResourceReplicas(input, targetMilli);
      if (!raw.ok) return { trace, result: fail(`failed to get ${resource} ${what}: ${raw.error}`) };
      const r = raw.value;
      const current = milliQuantity(r.rawAverage);
      return { trace: { ...trace, current, replicas: r.replicas, ...groupsOf(r) }, result: ok({ replicas: r.replicas, current: { averageValue: current }, name: label }) };
    }
    const byUtilization = resourceReplicas(input, target.averageUtilization!);
    if (!byUtilization.ok) return { trace, result: fail(`failed to get ${resource} ${what}: ${byUtilization.error}`) };
    const r = byUtilization.value;
    return {
      trace: { ...trace, current: `${r.utilization}%`, value: milliQuantity(r.rawAverage), replicas: r.replicas, ...groupsOf(r) },
      result: ok({ replicas: r.replicas, current: { averageValue: milliQuantity(r.rawAverage), averageUtilization: r.utilization }, name: label }),
    };
  }

  readiness(): ReadinessSettings {
    const s = this.input.settings;
    return { cpuInitializationPeriodMs: s.cpuInitializationPeriodMs, delayOfInitialReadinessStatusMs: s.delayOfInitialReadinessStatusMs, now: this.input.now };
  }
}

/** reconcileAutoscaler, up to the scale update. */
export function planAutoscale(input: PlanInput): Plan {
  const { hpa, now } = input;
  const r = new Reconcile(input);
  const original = hpa.status;
  const minReplicas = hpa.spec.minReplicas ?? 1;
  const maxReplicas = hpa.spec.maxReplicas;
  const decision: AutoscalerDecision = { currentReplicas: 0, desiredReplicas: 0, minReplicas, maxReplicas, metrics: [] };
  const finish = (status: HorizontalPodAutoscalerStatus, extra: Partial<Plan> = {}): Plan => ({
    status: statusChanged(original, status) ? status : undefined,
    events: r.events,
    history: r.history,
    selector: r.selector,
    decision,
    ...extra,
  });
  const keep = (current?: number): HorizontalPodAutoscalerStatus =>
    withStatus(original, { currentReplicas: current ?? original?.currentReplicas ?? 0, desiredReplicas: original?.desiredReplicas ?? 0, currentMetrics: original?.currentMetrics, conditions: r.conditions });

  const gvError = groupVersionError(hpa.spec.scaleTargetRef.apiVersion);
  const scaleError = gvError ?? (input.scale.ok ? undefined : input.scale.error);
  if (scaleError !== undefined || !input.scale.ok) {
    const message = scaleError ?? '';
    r.event('Warning', 'FailedGetScale', message);
    r.set(ABLE_TO_SCALE, 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${message}`);
    decision.error = message;
    return finish(keep(), { error: message });
  }
  const scale = input.scale.value;
  r.set(ABLE_TO_SCALE, 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
  const currentReplicas = scale.spec?.replicas ?? 0;
  decision.currentReplicas = currentReplicas;
  recordInitialRecommendation(r.history, currentReplicas, now);

  let desired = 0;
  let reason = '';
  let rescale = true;
  let statuses: MetricStatus[] | undefined;
  let retError: string | undefined;
  if (currentReplicas === 0 && minReplicas !== 0) {
    desired = 0;
    rescale = false;
    r.set(SCALING_ACTIVE, 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
  } else if (currentReplicas > maxReplicas) {
    reason = 'Current number of replicas above Spec.MaxReplicas';
    desired = maxReplicas;
  } else if (currentReplicas < minReplicas) {
    reason = 'Current number of replicas below Spec.MinReplicas';
    desired = minReplicas;
  } else {
    const computed = computeReplicasForMetrics(r, scale, decision);
    statuses = computed.statuses;
    if (computed.error !== undefined && computed.replicas === -1) {
      r.event('Warning', 'FailedComputeMetricsReplicas', computed.error);
      decision.error = computed.error;
      const status = withStatus(original, { currentReplicas, desiredReplicas: original?.desiredReplicas ?? 0, currentMetrics: statuses, conditions: r.conditions });
      const message = `failed to compute desired number of replicas based on listed metrics for ${reference(hpa)}: ${computed.error}`;
      return finish(status, { error: message });
    }
    retError = computed.error;
    decision.proposal = computed.replicas;
    if (computed.replicas > desired) desired = computed.replicas;
    if (desired > currentReplicas) reason = `${computed.metric} above target`;
    if (desired < currentReplicas) reason = 'All metrics below target';
    desired = hpa.spec.behavior ? normalizeWithBehaviors(r, input, currentReplicas, desired, minReplicas, decision) : normalize(r, input, currentReplicas, desired, minReplicas, decision);
    rescale = desired !== currentReplicas;
  }
  decision.desiredReplicas = rescale ? desired : currentReplicas;
  if (rescale) {
    decision.reason = reason;
    return {
      status: undefined,
      events: r.events,
      history: r.history,
      selector: r.selector,
      decision,
      error: retError,
      rescale: { from: currentReplicas, to: desired, reason, scale },
      pending: { conditions: r.conditions, statuses, original },
    };
  }
  const status = withStatus(original, { currentReplicas, desiredReplicas: currentReplicas, currentMetrics: statuses, conditions: r.conditions });
  return finish(status, { error: retError });
}

/** The end of reconcileAutoscaler once the scale update answered (error: its message). */
export function afterRescale(plan: Plan, input: Pick<PlanInput, 'hpa' | 'now' | 'rfc3339'>, error?: string): Plan {
  const { rescale, pending } = plan;
  if (!rescale || !pending) return plan;
  const conditions = pending.conditions.map((c) => ({ ...c }));
  const events = [...plan.events];
  const history = cloneHistory(plan.history);
  const set = (type: string, status: ConditionStatus, reason: string, message: string) => setCondition(conditions, type, status, reason, message, input.rfc3339);
  let status: HorizontalPodAutoscalerStatus;
  let outError = plan.error;
  const decision: AutoscalerDecision = { ...plan.decision };
  if (error !== undefined) {
    events.push({ type: 'Warning', reason: 'FailedRescale', message: `New size: ${rescale.to}; reason: ${rescale.reason}; error: ${error}` });
    set(ABLE_TO_SCALE, 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${error}`);
    status = withStatus(pending.original, { currentReplicas: rescale.from, desiredReplicas: pending.original?.desiredReplicas ?? 0, currentMetrics: pending.statuses, conditions });
    outError = `failed to rescale ${reference(input.hpa)}: ${error}`;
    decision.error = error;
    decision.desiredReplicas = rescale.from;
  } else {
    set(ABLE_TO_SCALE, 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${rescale.to}`);
    events.push({ type: 'Normal', reason: 'SuccessfulRescale', message: `New size: ${rescale.to}; reason: ${rescale.reason}` });
    storeScaleEvent(history, input.hpa.spec.behavior, rescale.from, rescale.to, input.now);
    status = withStatus(pending.original, { currentReplicas: rescale.from, desiredReplicas: rescale.to, currentMetrics: pending.statuses, conditions, lastScaleTime: input.rfc3339 });
    decision.rescaled = true;
  }
  return { ...plan, status: statusChanged(pending.original, status) ? status : undefined, events, history, error: outError, decision, rescale, pending: undefined };
}

const reference = (hpa: HorizontalPodAutoscaler): string => `${hpa.spec.scaleTargetRef.kind}/${hpa.metadata.namespace ?? ''}/${hpa.spec.scaleTargetRef.name}`;

/** setStatus: a new status keeping lastScaleTime unless given; fields in Go's order. */
function withStatus(
  original: HorizontalPodAutoscalerStatus | undefined,
  s: { currentReplicas: number; desiredReplicas: number; currentMetrics: MetricStatus[] | null | undefined; conditions: HorizontalPodAutoscalerCondition[]; lastScaleTime?: string },
): HorizontalPodAutoscalerStatus {
  const out: HorizontalPodAutoscalerStatus = { desiredReplicas: s.desiredReplicas };
  const lastScaleTime = s.lastScaleTime ?? original?.lastScaleTime;
  const ordered: HorizontalPodAutoscalerStatus = {} as HorizontalPodAutoscalerStatus;
  if (lastScaleTime) ordered.lastScaleTime = lastScaleTime;
  if (s.currentReplicas) ordered.currentReplicas = s.currentReplicas;
  ordered.desiredReplicas = out.desiredReplicas;
  if (s.currentMetrics && s.currentMetrics.length > 0) ordered.currentMetrics = s.currentMetrics;
  if (s.conditions.length > 0) ordered.conditions = s.conditions;
  return ordered;
}

/** apiequality.Semantic.DeepEqual of the statuses. */
function statusChanged(a: HorizontalPodAutoscalerStatus | undefined, b: HorizontalPodAutoscalerStatus): boolean {
  return JSON.stringify(canonical(a ?? { desiredReplicas: 0 })) !== JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined || x === 0 || x === '' || (Array.isArray(x) && x.length === 0)) continue;
      setOwn(out, k, canonical(x));
    }
    return out;
  }
  return v;
}

/** computeReplicasForMetrics. */
function computeReplicasForMetrics(r: Reconcile, scale: Scale, decision: AutoscalerDecision): { replicas: number; metric: string; statuses?: MetricStatus[]; error?: string } {
  const selected = r.validateSelector(scale.status?.selector);
  if (!selected.ok) return { replicas: -1, metric: '', error: selected.error };
  const selector = selected.value;
  const specs = r.hpa.spec.metrics ?? [];
  const specReplicas = scale.spec?.replicas ?? 0;
  const statuses: MetricStatus[] = specs.map(() => ({ type: '' }));
  let replicas = 0;
  let metric = '';
  let invalid = 0;
  let firstError: string | undefined;
  let firstCondition: { reason: string; message: string } | undefined;
  specs.forEach((spec, i) => {
    const { trace, result } = r.metric(spec, i, specReplicas, selector);
    decision.metrics.push(trace);
    if (!result.ok) {
      if (invalid === 0) {
        firstError = result.error.message;
        firstCondition = result.error.condition;
      }
      invalid++;
      return;
    }
    statuses[i] = result.value.status;
    if (replicas === 0 || result.value.replicas > replicas) {
      replicas = result.value.replicas;
      metric = result.value.name;
    }
  });
  const error = firstError !== undefined ? `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstError}` : undefined;
  if (invalid >= specs.length || (invalid > 0 && replicas < specReplicas)) {
    if (firstCondition) r.set(SCALING_ACTIVE, 'False', firstCondition.reason, firstCondition.message);
    return { replicas: -1, metric: '', statuses, error: error ?? 'invalid metrics (0 invalid out of 0)' };
  }
  r.set(SCALING_ACTIVE, 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`);
  return { replicas, metric, statuses, error };
}

/** normalizeDesiredReplicas (no behavior). */
function normalize(r: Reconcile, input: PlanInput, current: number, proposal: number, minReplicas: number, decision: AutoscalerDecision): number {
  const stabilized = stabilizeRecommendation(r.history, proposal, input.settings.downscaleStabilizationMs, input.now);
  const able = stabilized !== proposal ? SCALE_DOWN_STABILIZED : READY_FOR_NEW_SCALE;
  r.set(ABLE_TO_SCALE, 'True', able.reason, able.message);
  if (stabilized !== proposal) decision.stabilized = able.reason;
  const limited = convertDesiredReplicasWithRules(current, stabilized, minReplicas, input.hpa.spec.maxReplicas);
  r.set(SCALING_LIMITED, limited.replicas === stabilized ? 'False' : 'True', limited.reason, limited.message);
  if (limited.replicas !== stabilized) decision.limited = limited.reason;
  return limited.replicas;
}

/** normalizeDesiredReplicasWithBehaviors. */
function normalizeWithBehaviors(r: Reconcile, input: PlanInput, current: number, proposal: number, minReplicas: number, decision: AutoscalerDecision): number {
  const behavior = input.hpa.spec.behavior ?? {};
  // maybeInitScaleDownStabilizationWindow: the flag's window where the behavior leaves it unset.
  const scaleDown = { ...(behavior.scaleDown ?? {}) };
  if (behavior.scaleDown && scaleDown.stabilizationWindowSeconds === undefined) scaleDown.stabilizationWindowSeconds = Math.trunc(input.settings.downscaleStabilizationMs / 1000);
  const args = { scaleUp: behavior.scaleUp ?? {}, scaleDown, minReplicas, maxReplicas: input.hpa.spec.maxReplicas, currentReplicas: current, desiredReplicas: proposal };
  const stabilized = stabilizeWithBehaviors(r.history, args, input.now);
  if (stabilized.replicas !== proposal) {
    r.set(ABLE_TO_SCALE, 'True', stabilized.reason, stabilized.message);
    decision.stabilized = stabilized.reason;
  } else r.set(ABLE_TO_SCALE, 'True', READY_FOR_NEW_SCALE.reason, READY_FOR_NEW_SCALE.message);
  const limited = convertWithBehaviorRate(r.history, { ...args, desiredReplicas: stabilized.replicas }, input.now);
  r.set(SCALING_LIMITED, limited.replicas === stabilized.replicas ? 'False' : 'True', limited.reason, limited.message);
  if (limited.replicas !== stabilized.replicas) decision.limited = limited.reason;
  return limited.replicas;
}
