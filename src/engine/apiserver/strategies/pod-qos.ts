/**
 * The pod's QoS class (pkg/apis/core/helper/qos.GetPodQOS), which the API server writes into
 * status.qosClass on create: Guaranteed when every container limits cpu and memory and requests
 * equal limits, BestEffort when nothing is requested or limited, Burstable otherwise.
 */
import { quantityOrUndefined, type Quantity } from '../../api/quantity';
import { isObject, type JsonObject, type JsonValue } from '../../api/types';

const QOS_RESOURCES = ['cpu', 'memory'];

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

export function podQOSClass(spec: JsonObject | undefined): QOSClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  for (const c of containersOf(spec)) {
    const resources = isObject(c.resources) ? c.resources : {};
    for (const [name, q] of positiveQuantities(resources.requests)) add(requests, name, q);
    const limited = new Set<string>();
    for (const [name, q] of positiveQuantities(resources.limits)) {
      limited.add(name);
      add(limits, name, q);
    }
    if (!QOS_RESOURCES.every((r) => limited.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || lim.cmp(req) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

function containersOf(spec: JsonObject | undefined): JsonObject[] {
  const out: JsonObject[] = [];
  for (const field of ['initContainers', 'containers'] as const) {
    const list = spec?.[field];
    if (Array.isArray(list)) for (const c of list) if (isObject(c)) out.push(c);
  }
  return out;
}

function positiveQuantities(list: JsonValue | undefined): [string, Quantity][] {
  if (!isObject(list)) return [];
  const out: [string, Quantity][] = [];
  for (const [name, v] of Object.entries(list)) {
    if (!QOS_RESOURCES.includes(name) || (typeof v !== 'string' && typeof v !== 'number')) continue;
    const q = quantityOrUndefined(String(v));
    if (q && q.sign() > 0) out.push([name, q]);
  }
  return out;
}

function add(m: Map<string, Quantity>, name: string, q: Quantity): void {
  const cur = m.get(name);
  m.set(name, cur ? cur.add(q) : q);
}
