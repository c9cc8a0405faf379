/**
 * The kubelet's admission of a pod bound to its node (lifecycle.NewPredicateAdmitHandler over the
 * scheduler's general predicates): the pod must fit in what the node's admitted pods leave of its
 * allocatable resources, the node must have room for one more pod, and the node's labels must
 * match the pod's nodeSelector. Only the first failure is reported, as the kubelet does; the pod
 * is then rejected (phase Failed, "Pod was rejected: <message>").
 */
import { parseQuantity } from '../api/quantity';
import { isSidecar, type Container, type Pod, type ResourceList } from './api';
import { own } from '../api/own';

export type AdmitResult = { admit: true } | { admit: false; reason: string; message: string };

/** Requests as the scheduler counts them: milli-CPU, bytes, and plain counts for the rest. */
export type Requests = Map<string, number>;

const CPU = 'cpu';
const PODS = 'pods';
/** The order Fits checks resources in. */
const FIXED_ORDER = ['cpu', 'memory', 'ephemeral-storage'];

export function admitPod(pod: Pod, nodeLabels: Readonly<Record<string, string>>, allocatable: ResourceList, admitted: readonly Pod[]): AdmitResult {
  const capacity = resourceAmounts(allocatable);
  const allowedPods = capacity.get(PODS) ?? 0;
  if (admitted.length + 1 > allowedPods) return insufficient(PODS, 1, admitted.length, allowedPods);
  const used: Requests = new Map();
  for (const p of admitted) addInto(used, podRequests(p));
  const requested = podRequests(pod);
  const names = [...FIXED_ORDER, ...[...requested.keys()].filter((n) => !FIXED_ORDER.includes(n)).sort()];
  for (const name of names) {
    const want = requested.get(name) ?? 0;
    if (want === 0) continue;
    const have = capacity.get(name) ?? 0;
    const inUse = used.get(name) ?? 0;
    if (have - inUse < want) return insufficient(name, want, inUse, have);
  }
  for (const [key, value] of Object.entries(pod.spec?.nodeSelector ?? {})) {
    if (own(nodeLabels, key) !== value) {
      return { admit: false, reason: 'NodeAffinity', message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" };
    }
  }
  return { admit: true };
}

function insufficient(resource: string, requested: number, used: number, capacity: number): AdmitResult {
  return {
    admit: false,
    reason: `OutOf${resource}`,
    message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  };
}

/**
 * resourcehelper.PodRequests: the sum over the containers, or more if an init container (with the
 * sidecars started before it) needs more; sidecars add to the containers; then the overhead.
 */
export function podRequests(pod: Pod): Requests {
  const reqs: Requests = new Map();
  for (const c of pod.spec?.containers ?? []) addInto(reqs, containerRequests(c));
  const sidecars: Requests = new Map();
  let init: Requests = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = containerRequests(c);
    let peak: Requests;
    if (isSidecar(c)) {
      addInto(reqs, own);
      addInto(sidecars, own);
      peak = new Map(sidecars);
    } else {
      peak = new Map(own);
      addInto(peak, sidecars);
    }
    init = maxOf(init, peak);
  }
  const out = maxOf(reqs, init);
  addInto(out, resourceAmounts(pod.spec?.overhead ?? {}));
  return out;
}

function containerRequests(c: Container): Requests {
  return resourceAmounts(c.resources?.requests ?? {});
}

/** Quantities as the int64 values the scheduler compares: milli-CPU, everything else rounded up. */
export function resourceAmounts(list: ResourceList): Requests {
  const out: Requests = new Map();
  for (const [name, raw] of Object.entries(list)) {
    const q = parseQuantity(String(raw));
    if (!q.ok) continue;
    out.set(name, name === CPU ? q.value.milliValue() : q.value.value());
  }
  return out;
}

function addInto(into: Requests, add: Requests): void {
  for (const [name, v] of add) into.set(name, (into.get(name) ?? 0) + v);
}

function maxOf(a: Requests, b: Requests): Requests {
  const out = new Map(a);
  for (const [name, v] of b) out.set(name, Math.max(out.get(name) ?? 0, v));
  return out;
}
