/**
 * autoscaling/v1 HorizontalPodAutoscalers, kept as autoscaling/v2 (pkg/apis/autoscaling/v1
 * conversion): v1's targetCPUUtilizationPercentage is v2's cpu Utilization metric (80% when a v1
 * object names no metric at all, the default applied in conversion), and what v1 has no field
 * for travels in annotations: the other metrics (autoscaling.alpha.kubernetes.io/metrics, in v1's
 * MetricSpec shape), the behavior (.../behavior), the conditions (.../conditions) and every
 * current metric (.../current-metrics, v1's MetricStatus shape). Reading v1 writes them; writing
 * v1 reads them back and drops them.
 */
import { encodeLikeGo } from '../encoding/go-json';
import type { JsonObject, KubeObject } from '../../api/types';
import type { Conversion } from './types';
import { own, table } from '../../api/own';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
const ANNOTATIONS = [METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION];

type J = JsonObject;
const o = (v: unknown): J | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as J) : undefined);
const arr = (v: unknown): J[] => (Array.isArray(v) ? (v.filter((x) => o(x)) as J[]) : []);
const defined = (obj: J): J => Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as J;

/** v2 MetricTarget -> v1 (v2beta1-shaped) target fields, under the given prefix ("target" / "targetAverage"). */
function v1Source(kind: string, s: J): J {
  const t = o(s.target) ?? {};
  switch (kind) {
    case 'Resource':
      return defined({ name: s.name, targetAverageUtilization: t.averageUtilization, targetAverageValue: t.averageValue });
    case 'ContainerResource':
      return defined({ name: s.name, targetAverageUtilization: t.averageUtilization, targetAverageValue: t.averageValue, container: s.container });
    case 'Pods':
      return defined({ metricName: o(s.metric)?.name, targetAverageValue: t.averageValue, selector: o(s.metric)?.selector });
    case 'Object':
      return defined({ target: s.describedObject, metricName: o(s.metric)?.name, targetValue: t.value, selector: o(s.metric)?.selector, averageValue: t.averageValue });
    case 'External':
      return defined({ metricName: o(s.metric)?.name, metricSelector: o(s.metric)?.selector, targetValue: t.value, targetAverageValue: t.averageValue });
    default:
      return s;
  }
}

function v2Source(kind: string, s: J): J {
  switch (kind) {
    case 'Resource':
    case 'ContainerResource': {
      const target = s.targetAverageUtilization !== undefined ? { type: 'Utilization', averageUtilization: s.targetAverageUtilization } : { type: 'AverageValue', averageValue: s.targetAverageValue };
      return defined({ name: s.name, target, container: kind === 'ContainerResource' ? s.container : undefined });
    }
    case 'Pods':
      return { metric: defined({ name: s.metricName, selector: s.selector }), target: { type: 'AverageValue', averageValue: s.targetAverageValue } };
    case 'Object':
      return {
        describedObject: s.target,
        target: s.averageValue !== undefined ? { type: 'AverageValue', averageValue: s.averageValue } : { type: 'Value', value: s.targetValue },
        metric: defined({ name: s.metricName, selector: s.selector }),
      };
    case 'External':
      return { metric: defined({ name: s.metricName, selector: s.metricSelector }), target: s.targetAverageValue !== undefined ? { type: 'AverageValue', averageValue: s.targetAverageValue } : { type: 'Value', value: s.targetValue } };
    default:
      return s;
  }
}

const FIELD = table<string>({ Resource: 'resource', ContainerResource: 'containerResource', Pods: 'pods', Object: 'object', External: 'external' });

function v1Status(kind: string, s: J): J {
  const c = o(s.current) ?? {};
  switch (kind) {
    case 'Resource':
      return defined({ name: s.name, currentAverageUtilization: c.averageUtilization, currentAverageValue: c.averageValue ?? '0' });
    case 'ContainerResource':
      return defined({ name: s.name, currentAverageUtilization: c.averageUtilization, currentAverageValue: c.averageValue ?? '0', container: s.container });
    case 'Pods':
      return defined({ metricName: o(s.metric)?.name, currentAverageValue: c.averageValue, selector: o(s.metric)?.selector });
    case 'Object':
      return defined({ target: s.describedObject, metricName: o(s.metric)?.name, currentValue: c.value, selector: o(s.metric)?.selector, averageValue: c.averageValue });
    case 'External':
      return defined({ metricName: o(s.metric)?.name, metricSelector: o(s.metric)?.selector, currentValue: c.value, currentAverageValue: c.averageValue });
    default:
      return s;
  }
}

function v2Status(kind: string, s: J): J {
  switch (kind) {
    case 'Resource':
    case 'ContainerResource':
      return defined({ name: s.name, current: defined({ averageValue: s.currentAverageValue, averageUtilization: s.currentAverageUtilization }), container: kind === 'ContainerResource' ? s.container : undefined });
    case 'Pods':
      return { metric: defined({ name: s.metricName, selector: s.selector }), current: { averageValue: s.currentAverageValue } };
    case 'Object':
      return { metric: defined({ name: s.metricName, selector: s.selector }), current: defined({ value: s.currentValue, averageValue: s.averageValue }), describedObject: s.target };
    case 'External':
      return { metric: defined({ name: s.metricName, selector: s.metricSelector }), current: defined({ value: s.currentValue, averageValue: s.currentAverageValue }) };
    default:
      return s;
  }
}

const mapEntry = (m: J, convert: (kind: string, s: J) => J): J => {
  const kind = String(m.type ?? '');
  const field = own(FIELD, kind);
  const src = field ? o(own(m, field)) : undefined;
  return field && src ? { type: kind, [field]: convert(kind, src) } : { type: kind };
};

const isCpuUtilization = (m: J): boolean => m.type === 'Resource' && o(m.resource)?.name === 'cpu' && o(o(m.resource)?.target)?.averageUtilization !== undefined;

function parseAnnotation(annotations: Record<string, string>, key: string): unknown {
  const raw = own(annotations, key);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** v2 (stored) -> v1. */
export function hpaV2ToV1(hpa: KubeObject): KubeObject {
  const spec = o(hpa.spec) ?? {};
  const status = o(hpa.status);
  const annotations: Record<string, string> = { ...(hpa.metadata.annotations ?? {}) };
  const metrics = arr(spec.metrics);
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => !isCpuUtilization(m)).map((m) => mapEntry(m, v1Source));
  if (others.length > 0) annotations[METRIC_SPECS_ANNOTATION] = JSON.stringify(others);
  if (spec.behavior !== undefined && spec.behavior !== null) annotations[BEHAVIOR_ANNOTATION] = JSON.stringify(spec.behavior);
  const current = arr(status?.currentMetrics);
  if (current.length > 0) annotations[METRIC_STATUSES_ANNOTATION] = JSON.stringify(current.map((m) => mapEntry(m, v1Status)));
  const conditions = arr(status?.conditions);
  if (conditions.length > 0) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(conditions);
  const cpuStatus = current.find((m) => m.type === 'Resource' && o(m.resource)?.name === 'cpu');
  const out: KubeObject = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: Object.keys(annotations).length > 0 ? { ...hpa.metadata, annotations } : hpa.metadata,
    spec: defined({ scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas, targetCPUUtilizationPercentage: cpu ? o(o(cpu.resource)?.target)?.averageUtilization : undefined }),
  };
  if (status) {
    out.status = defined({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: cpuStatus ? o(o(cpuStatus.resource)?.current)?.averageUtilization : undefined,
    });
  }
  return encodeLikeGo(out);
}

/** v1 -> v2 (stored). */
export function hpaV1ToV2(hpa: KubeObject): KubeObject {
  const spec = o(hpa.spec) ?? {};
  const status = o(hpa.status);
  const given = hpa.metadata.annotations ?? {};
  const metrics: J[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  metrics.push(...arr(parseAnnotation(given, METRIC_SPECS_ANNOTATION)).map((m) => mapEntry(m, v2Source)));
  // The default CPU target is applied here: only conversion sees the annotations.
  if (metrics.length === 0) metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } });
  const behavior = o(parseAnnotation(given, BEHAVIOR_ANNOTATION));
  const annotations = Object.fromEntries(Object.entries(given).filter(([k]) => !ANNOTATIONS.includes(k)));
  const metadata = { ...hpa.metadata };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;
  const out: KubeObject = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata,
    spec: defined({ scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas, metrics, behavior }),
  };
  if (status) {
    let current = arr(parseAnnotation(given, METRIC_STATUSES_ANNOTATION)).map((m) => mapEntry(m, v2Status));
    if (current.length === 0 && typeof status.currentCPUUtilizationPercentage === 'number') {
      current = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
    }
    const conditions = arr(parseAnnotation(given, CONDITIONS_ANNOTATION));
    out.status = defined({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentMetrics: current.length > 0 ? current : undefined,
      conditions: conditions.length > 0 ? conditions : undefined,
    });
  }
  return encodeLikeGo(out);
}

export const HPA_V1_CONVERSION: Conversion = {
  storageApiVersion: 'autoscaling/v2',
  servedApiVersion: 'autoscaling/v1',
  toStorage: hpaV1ToV2,
  fromStorage: (obj) => (obj.apiVersion === 'autoscaling/v1' ? obj : hpaV2ToV1(obj)),
};
