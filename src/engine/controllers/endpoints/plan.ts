/**
 * The Endpoints object a Service should have (pkg/controller/endpoint syncService): its subsets,
 * the Service's labels plus the headless label, the trigger time and over-capacity annotations.
 * Nothing is written when subsets (ignoring pod resourceVersions), labels and the capacity
 * annotation already match.
 */
import { deepCopy } from '../../client/clone';
import { isServiceIPSet } from '../util/endpoint/service';
import { ANNOTATION_TRIGGER_TIME, LABEL_HEADLESS, type Pod, type Service } from '../util/types/endpoint';
import { buildSubsets, capacityAnnotationCorrect, truncateSubsets } from './subsets';
import { ANNOTATION_OVER_CAPACITY, type EndpointSubset, type Endpoints } from './types';
import { setOwn } from '../../api/own';

export type EndpointsPlan = { verb: 'none' } | { verb: 'create' | 'update'; endpoints: Endpoints };

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

/** JSON with object keys sorted: equal values print the same whatever order their keys arrived in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v,
  );
}

function sameSubsets(a: readonly EndpointSubset[] | undefined, b: readonly EndpointSubset[]): boolean {
  return canonical(a ?? []) === canonical(b);
}

function sorted(rec: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(rec).sort()) setOwn(out, k, rec[k]!);
  return out;
}

export function planEndpoints(service: Service, pods: readonly Pod[], current: Endpoints | undefined, triggerTime: string | undefined): EndpointsPlan {
  const subsets = buildSubsets(service, pods);
  const serviceLabels = service.metadata.labels ?? {};
  if (current) {
    const { [LABEL_HEADLESS]: _headless, ...compareLabels } = current.metadata.labels ?? {};
    if (sameSubsets(current.subsets, subsets) && sameLabels(compareLabels, serviceLabels) && capacityAnnotationCorrect(current.metadata.annotations, current.subsets)) {
      return { verb: 'none' };
    }
  }
  const next: Endpoints = current
    ? deepCopy(current)
    : { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: service.metadata.name ?? '', namespace: service.metadata.namespace ?? '' } };
  const annotations = { ...(next.metadata.annotations ?? {}) };
  if (triggerTime !== undefined) annotations[ANNOTATION_TRIGGER_TIME] = triggerTime;
  else delete annotations[ANNOTATION_TRIGGER_TIME];
  if (truncateSubsets(subsets)) annotations[ANNOTATION_OVER_CAPACITY] = 'truncated';
  else delete annotations[ANNOTATION_OVER_CAPACITY];
  const labels: Record<string, string> = { ...serviceLabels };
  if (!isServiceIPSet(service)) labels[LABEL_HEADLESS] = '';
  else delete labels[LABEL_HEADLESS];
  if (Object.keys(labels).length > 0) next.metadata.labels = sorted(labels);
  else delete next.metadata.labels;
  if (Object.keys(annotations).length > 0) next.metadata.annotations = sorted(annotations);
  else delete next.metadata.annotations;
  if (subsets.length > 0) next.subsets = subsets;
  else delete next.subsets;
  return { verb: current ? 'update' : 'create', endpoints: next };
}
