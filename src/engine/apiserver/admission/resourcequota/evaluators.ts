/**
 * What an object counts against a quota (pkg/quota/v1/evaluator/core and the generic object
 * count evaluator): every object counts as count/<resource>[.<group>]; pods, services and
 * persistent volume claims also use their legacy names and compute, node-port and storage usage.
 */
import { parseQuantity, Quantity } from '../../../api/quantity';
import { isObject, type JsonObject, type KubeObject } from '../../../api/types';
import { podQOSClass } from '../../strategies/pod-qos';
import type { Operation } from '../types';
import { add, type ResourceList } from './resources';

export interface Evaluator {
  /** Whether the quota resource name is one this evaluator accounts for. */
  matchesResource(name: string): boolean;
  /** Whether the quota (with its scopes) applies to the object. */
  matchesScopes(quota: KubeObject, obj: KubeObject): boolean;
  usage(obj: KubeObject): ResourceList;
  /** Resource names the quota restricts that the object must set (pod requests and limits). */
  constraints(restricted: readonly string[], obj: KubeObject): string | undefined;
  handles(operation: Operation, subresource: string): boolean;
}

const one = (): Quantity => Quantity.fromInt(1);
const LEGACY_COUNTS = new Set(['configmaps', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas', 'services', 'pods']);

function countName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

function hasScopes(quota: KubeObject): boolean {
  const spec = isObject(quota.spec) ? quota.spec : {};
  const selector = isObject(spec.scopeSelector) ? spec.scopeSelector : {};
  return (Array.isArray(spec.scopes) && spec.scopes.length > 0) || (Array.isArray(selector.matchExpressions) && selector.matchExpressions.length > 0);
}

function objectCount(group: string, resource: string): Evaluator {
  const names = new Set([countName(group, resource)]);
  if (group === '' && LEGACY_COUNTS.has(resource)) names.add(resource);
  return {
    matchesResource: (n) => names.has(n),
    matchesScopes: (quota) => !hasScopes(quota),
    usage: () => new Map([...names].map((n) => [n, one()])),
    constraints: () => undefined,
    handles: (op, sub) => op === 'CREATE' && sub === '',
  };
}

// ---- pods ----

const POD_COMPUTE = ['cpu', 'memory', 'ephemeral-storage'];

function quantities(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!isObject(v)) return out;
  for (const [k, raw] of Object.entries(v)) {
    const q = typeof raw === 'string' || typeof raw === 'number' ? parseQuantity(String(raw)) : undefined;
    if (q instanceof Quantity) out.set(k, q);
  }
  return out;
}

function containerLists(spec: JsonObject, field: string): JsonObject[] {
  const list = spec[field];
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** The pod's effective requests or limits: the sum of its containers, at least each init container. */
function podResources(pod: KubeObject, which: 'requests' | 'limits'): ResourceList {
  const spec = isObject(pod.spec) ? pod.spec : {};
  let total: ResourceList = new Map();
  for (const c of containerLists(spec, 'containers')) total = add(total, quantities(isObject(c.resources) ? c.resources[which] : undefined));
  for (const c of containerLists(spec, 'initContainers')) {
    for (const [k, v] of quantities(isObject(c.resources) ? c.resources[which] : undefined)) {
      const cur = total.get(k);
      if (!cur || v.cmp(cur) > 0) total.set(k, v);
    }
  }
  return total;
}

function podComputeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', one()]]);
  for (const [k, v] of requests) {
    if (POD_COMPUTE.includes(k)) out.set(k, v);
    out.set(`requests.${k}`, v);
  }
  for (const [k, v] of limits) out.set(`limits.${k}`, v);
  return out;
}

const isTerminal = (pod: KubeObject): boolean => {
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  return phase === 'Succeeded' || phase === 'Failed';
};

function podScopeMatches(scope: string, operator: string, values: string[], pod: KubeObject): boolean {
  const spec = isObject(pod.spec) ? pod.spec : {};
  switch (scope) {
    case 'Terminating':
      return typeof spec.activeDeadlineSeconds === 'number';
    case 'NotTerminating':
      return typeof spec.activeDeadlineSeconds !== 'number';
    case 'BestEffort':
      return podQOSClass(spec) === 'BestEffort';
    case 'NotBestEffort':
      return podQOSClass(spec) !== 'BestEffort';
    case 'PriorityClass': {
      const name = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
      if (operator === 'Exists') return name !== '';
      if (operator === 'DoesNotExist') return name === '';
      if (operator === 'In') return values.includes(name);
      if (operator === 'NotIn') return !values.includes(name);
      return false;
    }
    default:
      return false;
  }
}

const podEvaluator: Evaluator = {
  matchesResource: (n) =>
    n === 'pods' || n === 'count/pods' || POD_COMPUTE.includes(n) || n.startsWith('requests.') || n.startsWith('limits.'),
  matchesScopes(quota, pod) {
    const spec = isObject(quota.spec) ? quota.spec : {};
    const scopes = Array.isArray(spec.scopes) ? spec.scopes.filter((s): s is string => typeof s === 'string') : [];
    const selector = isObject(spec.scopeSelector) ? spec.scopeSelector : {};
    const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isObject) : [];
    return (
      scopes.every((s) => podScopeMatches(s, 'Exists', [], pod)) &&
      exprs.every((e) =>
        podScopeMatches(
          String(e.scopeName ?? ''),
          String(e.operator ?? ''),
          Array.isArray(e.values) ? e.values.map(String) : [],
          pod,
        ),
      )
    );
  },
  usage(pod) {
    const out: ResourceList = new Map([['count/pods', one()]]);
    if (isTerminal(pod)) return out;
    return add(out, podComputeUsage(podResources(pod, 'requests'), podResources(pod, 'limits')));
  },
  constraints(restricted, pod) {
    const required = restricted.filter((r) => ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'].includes(r));
    if (required.length === 0) return undefined;
    const spec = isObject(pod.spec) ? pod.spec : {};
    const missing = new Map<string, Set<string>>();
    for (const c of [...containerLists(spec, 'containers'), ...containerLists(spec, 'initContainers')]) {
      const res = isObject(c.resources) ? c.resources : {};
      const have = podComputeUsage(quantities(res.requests), quantities(res.limits));
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

// ---- services ----

const serviceEvaluator: Evaluator = {
  matchesResource: (n) => ['services', 'count/services', 'services.nodeports', 'services.loadbalancers'].includes(n),
  matchesScopes: (quota) => !hasScopes(quota),
  usage(svc) {
    const spec = isObject(svc.spec) ? svc.spec : {};
    const ports = Array.isArray(spec.ports) ? spec.ports.filter(isObject) : [];
    const out: ResourceList = new Map([
      ['services', one()],
      ['count/services', one()],
    ]);
    if (spec.type === 'NodePort') out.set('services.nodeports', Quantity.fromInt(ports.length));
    if (spec.type === 'LoadBalancer') {
      const counted = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => typeof p.nodePort === 'number' && p.nodePort !== 0) : ports;
      out.set('services.nodeports', Quantity.fromInt(counted.length));
      out.set('services.loadbalancers', one());
    }
    return out;
  },
  constraints: () => undefined,
  handles: (op, sub) => (op === 'CREATE' || op === 'UPDATE') && sub === '',
};

// ---- persistent volume claims ----

const pvcEvaluator: Evaluator = {
  matchesResource: (n) =>
    ['persistentvolumeclaims', 'count/persistentvolumeclaims', 'requests.storage'].includes(n) || n.includes('.storageclass.storage.k8s.io/'),
  matchesScopes: (quota) => !hasScopes(quota),
  usage(pvc) {
    const spec = isObject(pvc.spec) ? pvc.spec : {};
    const requests = quantities(isObject(spec.resources) ? spec.resources.requests : undefined);
    const out: ResourceList = new Map([
      ['persistentvolumeclaims', one()],
      ['count/persistentvolumeclaims', one()],
    ]);
    const storage = requests.get('storage');
    const sc = typeof spec.storageClassName === 'string' ? spec.storageClassName : '';
    if (storage) out.set('requests.storage', storage);
    if (sc) {
      out.set(`${sc}.storageclass.storage.k8s.io/persistentvolumeclaims`, one());
      if (storage) out.set(`${sc}.storageclass.storage.k8s.io/requests.storage`, storage);
    }
    return out;
  },
  constraints: () => undefined,
  handles: (op, sub) => (op === 'CREATE' || op === 'UPDATE') && sub === '',
};

export function evaluatorFor(group: string, resource: string): Evaluator {
  if (group === '' && resource === 'pods') return podEvaluator;
  if (group === '' && resource === 'services') return serviceEvaluator;
  if (group === '' && resource === 'persistentvolumeclaims') return pvcEvaluator;
  return objectCount(group, resource);
}
