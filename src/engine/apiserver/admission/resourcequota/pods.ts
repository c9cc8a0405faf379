/**
 * The pod evaluator (pkg/quota/v1/evaluator/core/pods.go). count/pods counts every pod in
 * storage; the compute resources and "pods" count only pods quota still charges: not terminal,
 * and not stuck terminating past their grace period (a lost node's pods must not block their
 * replacements). Quotas on cpu or memory require every container to state them.
 */
import { isQualifiedName } from '../../../api/names';
import { Quantity } from '../../../api/quantity';
import { isObject, type JsonObject, type KubeObject } from '../../../api/types';
import { podQOSClass } from '../../strategies/pod-qos';
import type { Evaluator } from './evaluators';
import { containerResources, podResources } from './pod-resources';
import { add, type ResourceList } from './resources';
import { quotaScopes, selectorMatches, type ScopeRequirement } from './scopes';

const COMPUTE = ['cpu', 'memory', 'ephemeral-storage'];
const POD_RESOURCES = new Set([
  'count/pods',
  ...COMPUTE,
  ...COMPUTE.map((r) => `requests.${r}`),
  ...COMPUTE.map((r) => `limits.${r}`),
  'pods',
]);
/** Resources a cpu or memory quota makes every container state (a backward-compatibility rule). */
const REQUIRED_PER_CONTAINER = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** helper.IsNativeResource: no domain, or a kubernetes.io one. */
const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
/** helper.IsExtendedResourceName: a domain-prefixed name outside kubernetes.io that makes a qualified requests.<name>. */
const isExtendedResourceName = (name: string): boolean =>
  !isNativeResource(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;

/** podComputeUsageHelper: what requests and limits count as in quota names. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', Quantity.fromInt(1)]]);
  for (const r of COMPUTE) {
    const request = requests.get(r);
    if (request) {
      out.set(r, request);
      out.set(`requests.${r}`, request);
    }
    const limit = limits.get(r);
    if (limit) out.set(`limits.${r}`, limit);
  }
  for (const [r, request] of requests) {
    if (r.startsWith('hugepages-')) {
      out.set(r, request);
      out.set(`requests.${r}`, request);
    }
    if (isExtendedResourceName(r)) out.set(`requests.${r}`, request);
  }
  return out;
}

/** QuotaV1Pod: whether quota charges the pod's compute resources at `nowMs`. */
export function quotaV1Pod(pod: KubeObject, nowMs: number): boolean {
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp && typeof deletionGracePeriodSeconds === 'number') {
    if (nowMs > Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

function crossNamespaceTerms(terms: unknown, weighted: boolean): boolean {
  if (!Array.isArray(terms)) return false;
  return terms.filter(isObject).some((t) => {
    const term = weighted ? t.podAffinityTerm : t;
    return isObject(term) && ((Array.isArray(term.namespaces) && term.namespaces.length > 0) || (term.namespaceSelector !== undefined && term.namespaceSelector !== null));
  });
}

function usesCrossNamespacePodAffinity(spec: JsonObject): boolean {
  const affinity = isObject(spec.affinity) ? spec.affinity : {};
  return [affinity.podAffinity, affinity.podAntiAffinity].some(
    (a) => isObject(a) && (crossNamespaceTerms(a.requiredDuringSchedulingIgnoredDuringExecution, false) || crossNamespaceTerms(a.preferredDuringSchedulingIgnoredDuringExecution, true)),
  );
}

/** GetPodQOS: the class the API server recorded, else computed. */
function qosClass(pod: KubeObject, spec: JsonObject): string {
  const recorded = isObject(pod.status) ? pod.status.qosClass : undefined;
  return typeof recorded === 'string' && recorded !== '' ? recorded : podQOSClass(spec);
}

function scopeMatches(r: ScopeRequirement, pod: KubeObject): boolean {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const activeDeadline = spec.activeDeadlineSeconds;
  const terminating = typeof activeDeadline === 'number' && activeDeadline >= 0;
  switch (r.scopeName) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return qosClass(pod, spec) === 'BestEffort';
    case 'NotBestEffort':
      return qosClass(pod, spec) !== 'BestEffort';
    case 'PriorityClass': {
      const name = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
      return selectorMatches(r, name ? [name] : []);
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(spec);
    default:
      return false;
  }
}

export const podEvaluator: Evaluator = {
  matchesResource: (n) =>
    POD_RESOURCES.has(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-') || (!isNativeResource(n) && n.startsWith('requests.')),
  matchesScopes: (quota, pod) => quotaScopes(quota).every((r) => scopeMatches(r, pod)),
  usage(pod, nowMs) {
    const out: ResourceList = new Map([['count/pods', Quantity.fromInt(1)]]);
    if (!quotaV1Pod(pod, nowMs)) return out;
    const spec = isObject(pod.spec) ? pod.spec : {};
    return add(out, computeUsage(podResources(spec, 'requests'), podResources(spec, 'limits')));
  },
  constraints(restricted, pod) {
    const required = restricted.filter((r) => REQUIRED_PER_CONTAINER.has(r));
    if (required.length === 0) return undefined;
    const spec = isObject(pod.spec) ? pod.spec : {};
    const missing = new Map<string, Set<string>>();
    for (const c of [spec.containers, spec.initContainers].flatMap((l) => (Array.isArray(l) ? l.filter(isObject) : []))) {
      const have = computeUsage(containerResources(c, 'requests'), containerResources(c, 'limits'));
      for (const r of required) {
        if (have.has(r)) continue;
        if (!missing.has(r)) missing.set(r, new Set());
        missing.get(r)!.add(typeof c.name === 'string' ? c.name : '');
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
  handles: (op, sub) => op === 'CREATE' && sub === '',
};
