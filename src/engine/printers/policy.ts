/** kubectl get pdb and hpa. */
import type { KubeObject } from '../api/types';
import { ageColumn, nameColumn } from './common';
import { HPA_CURRENT_REPLICAS, HPA_MAX_REPLICAS, HPA_METRICS, HPA_MIN_REPLICAS, HPA_REFERENCE } from './descriptions';
import { ageOf, int, intOrString, obj, objs, quantityString, str } from './format';
import { column, type Printer } from './table';
import { own } from '../api/own';

const present = (v: unknown): boolean => v !== undefined && v !== null;

export const podDisruptionBudgetPrinter: Printer = {
  columns: [
    nameColumn,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageColumn,
  ],
  cells(pdb, ctx) {
    const spec = obj(pdb.spec);
    return [
      pdb.metadata.name ?? '',
      present(spec.minAvailable) ? intOrString(spec.minAvailable) : 'N/A',
      present(spec.maxUnavailable) ? intOrString(spec.maxUnavailable) : 'N/A',
      int(obj(pdb.status).disruptionsAllowed),
      ageOf(pdb, ctx.now),
    ];
  },
};

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
  const max = 2;
  if (list.length > max) return `${list.slice(0, max).join(', ')} + ${list.length - max} more...`;
  return list.join(', ');
}

export const horizontalPodAutoscalerPrinter: Printer = {
  columns: [
    nameColumn,
    column('Reference', 'string', HPA_REFERENCE),
    column('Targets', 'string', HPA_METRICS),
    column('MinPods', 'string', HPA_MIN_REPLICAS),
    column('MaxPods', 'string', HPA_MAX_REPLICAS),
    column('Replicas', 'string', HPA_CURRENT_REPLICAS),
    ageColumn,
  ],
  cells(hpa, ctx) {
    const spec = obj(hpa.spec);
    const ref = obj(spec.scaleTargetRef);
    return [
      hpa.metadata.name ?? '',
      `${str(ref.kind)}/${str(ref.name)}`,
      hpaMetrics(hpa),
      typeof spec.minReplicas === 'number' ? String(int(spec.minReplicas)) : '<unset>',
      int(spec.maxReplicas),
      int(obj(hpa.status).currentReplicas),
      ageOf(hpa, ctx.now),
    ];
  },
};
