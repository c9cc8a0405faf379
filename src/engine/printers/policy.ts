/** kubectl get pdb and hpa. */
import type { KubeObject } from '../api/types';
import { AGE, NAME } from './common';
import { HPA_CURRENT_REPLICAS, HPA_MAX_REPLICAS, HPA_METRICS, HPA_MIN_REPLICAS, HPA_REFERENCE } from './descriptions';
import { int, intOrString, joinWithMore, kindSlashName, obj, objs, quantityString, str } from './format';
import { col, tablePrinter } from './table';
import { own } from '../api/own';

const present = (v: unknown): boolean => v !== undefined && v !== null;

/** minAvailable or maxUnavailable: the number or percentage, "N/A" when unset. */
const budget = (v: unknown): string => (present(v) ? intOrString(v) : 'N/A');

export const podDisruptionBudgetPrinter = tablePrinter([
  NAME,
  col('Min Available', 'string', 'The minimum number of pods that must be available.', (r) => budget(r.spec.minAvailable)),
  col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.', (r) => budget(r.spec.maxUnavailable)),
  col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.', (r) => int(r.status.disruptionsAllowed)),
  AGE,
]);

type MetricKind = 'External' | 'Pods' | 'Object' | 'Resource' | 'ContainerResource';
const METRIC_FIELD: Record<MetricKind, string> = {
  External: 'external',
  Pods: 'pods',
  Object: 'object',
  Resource: 'resource',
  ContainerResource: 'containerResource',
};

/** One "current/target" pair of formatHPAMetrics. */
function metricPair(spec: Record<string, unknown>, status: Record<string, unknown> | undefined): string {
  const type = str(spec.type) as MetricKind;
  const field = METRIC_FIELD[type];
  if (!field) return '<unknown type>';
  const target = obj(obj(own(spec, field)).target);
  const cur = status && present(own(status, field)) ? obj(obj(own(status, field)).current) : undefined;
  if (type === 'Pods') return `${cur ? quantityString(cur.averageValue) : '<unknown>'}/${quantityString(target.averageValue)}`;
  if (type === 'External' || type === 'Object') {
    if (present(target.averageValue)) {
      const current = cur && present(cur.averageValue) ? quantityString(cur.averageValue) : '<unknown>';
      return `${current}/${quantityString(target.averageValue)} (avg)`;
    }
    return `${cur ? quantityString(cur.value) : '<unknown>'}/${quantityString(target.value)}`;
  }
  // Resource metrics name the resource: "cpu: 42%/80%".
  const resource = `${str(obj(own(spec, field)).name)}: `;
  if (present(target.averageValue)) return `${resource}${cur ? quantityString(cur.averageValue) : '<unknown>'}/${quantityString(target.averageValue)}`;
  const current = cur && present(cur.averageUtilization) ? `${int(cur.averageUtilization)}%` : '<unknown>';
  const goal = present(target.averageUtilization) ? `${int(target.averageUtilization)}%` : '<auto>';
  return `${resource}${current}/${goal}`;
}

/** An autoscaling/v1 CPU target in the v2 shape the API server prints from. */
function v1Metrics(hpa: KubeObject): { specs: Record<string, unknown>[]; statuses: Record<string, unknown>[] } {
  const target = obj(hpa.spec).targetCPUUtilizationPercentage;
  const current = obj(hpa.status).currentCPUUtilizationPercentage;
  if (typeof target !== 'number') return { specs: [], statuses: [] };
  const spec = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } };
  const status = typeof current === 'number' ? { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } } : {};
  return { specs: [spec], statuses: [status] };
}

/** formatHPAMetrics: up to two metrics, "<none>" without any. */
function hpaMetrics(hpa: KubeObject): string {
  const v1 = hpa.apiVersion === 'autoscaling/v1' ? v1Metrics(hpa) : undefined;
  const specs = v1 ? v1.specs : objs(obj(hpa.spec).metrics);
  if (specs.length === 0) return '<none>';
  const statuses = v1 ? v1.statuses : objs(obj(hpa.status).currentMetrics);
  const list = specs.map((s, i) => metricPair(s, statuses[i]));
  return joinWithMore(list.slice(0, 2), list.length, ', ');
}

export const horizontalPodAutoscalerPrinter = tablePrinter([
  NAME,
  col('Reference', 'string', HPA_REFERENCE, (r) => kindSlashName(r.spec.scaleTargetRef)),
  col('Targets', 'string', HPA_METRICS, (r) => hpaMetrics(r.object)),
  col('MinPods', 'string', HPA_MIN_REPLICAS, (r) => (typeof r.spec.minReplicas === 'number' ? String(int(r.spec.minReplicas)) : '<unset>')),
  col('MaxPods', 'string', HPA_MAX_REPLICAS, (r) => int(r.spec.maxReplicas)),
  col('Replicas', 'string', HPA_CURRENT_REPLICAS, (r) => int(r.status.currentReplicas)),
  AGE,
]);
