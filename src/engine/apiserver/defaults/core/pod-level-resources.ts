/**
 * Pod-level resources defaulting (PodLevelResources, beta and on in 1.35). Only pods that already
 * set some pod-level resources get more:
 * - hugepages limits default to the containers' aggregate limit, unless a pod-level request
 *   for that size is set;
 * - when pod-level limits are set, missing pod-level cpu/memory requests default to the
 *   containers' aggregate requests, and any still missing request to the pod-level limit.
 * The aggregate follows the sidecar formula: regular and restartable init containers add up; an
 * ordinary init container needs itself plus the sidecars started before it; the pod needs the
 * larger of the two.
 */
import type { JsonObject } from '../../../api/types';
import { isEmpty, mapToFill, objectAt, objectsIn } from '../fields';
import type { Quantity } from '../../../api/quantity';
import { quantityOf } from './resource-list';
import { setOwn } from '../../../api/own';

type ResourceTotals = Map<string, Quantity>;

const hugePagesPrefix = 'hugepages-';

function isSupportedPodLevelResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name.startsWith(hugePagesPrefix);
}

/** Of the supported resources, the ones that may be overcommitted (not hugepages). */
function isOvercommittable(name: string): boolean {
  return name === 'cpu' || name === 'memory';
}

function containerList(container: JsonObject, kind: 'limits' | 'requests'): ResourceTotals {
  const out: ResourceTotals = new Map();
  const resources = objectAt(container, 'resources');
  const list = resources && objectAt(resources, kind);
  for (const [name, value] of Object.entries(list ?? {})) {
    const q = quantityOf(value);
    if (q) out.set(name, q);
  }
  return out;
}

function addInto(total: ResourceTotals, more: ResourceTotals): void {
  for (const [name, q] of more) {
    const have = total.get(name);
    total.set(name, have ? have.add(q) : q);
  }
}

function maxInto(total: ResourceTotals, more: ResourceTotals): void {
  for (const [name, q] of more) {
    const have = total.get(name);
    if (!have || q.cmp(have) > 0) total.set(name, q);
  }
}

function aggregateContainers(spec: JsonObject, kind: 'limits' | 'requests'): ResourceTotals {
  const total: ResourceTotals = new Map();
  for (const c of objectsIn(spec, 'containers')) addInto(total, containerList(c, kind));
  const sidecars: ResourceTotals = new Map();
  const initPeak: ResourceTotals = new Map();
  for (const c of objectsIn(spec, 'initContainers')) {
    const own = containerList(c, kind);
    const use: ResourceTotals = new Map();
    if (c.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      addInto(use, sidecars);
    } else {
      addInto(use, own);
      addInto(use, sidecars);
    }
    maxInto(initPeak, use);
  }
  maxInto(total, initPeak);
  return total;
}

export function defaultHugePagePodLimits(spec: JsonObject): void {
  const resources = objectAt(spec, 'resources');
  if (!resources || (isEmpty(resources.limits) && isEmpty(resources.requests))) return;
  const requests = objectAt(resources, 'requests') ?? {};
  const limits = mapToFill(resources, 'limits');
  if (!limits) return;
  for (const [name, q] of aggregateContainers(spec, 'limits')) {
    if (!name.startsWith(hugePagesPrefix) || Object.hasOwn(requests, name) || Object.hasOwn(limits, name)) continue;
    setOwn(limits, name, q.toString());
  }
  if (resources.limits !== limits && Object.keys(limits).length > 0) resources.limits = limits;
}

export function defaultPodRequests(spec: JsonObject): void {
  const resources = objectAt(spec, 'resources');
  const limits = resources && objectAt(resources, 'limits');
  if (!resources || !limits || isEmpty(limits)) return;
  const requests = mapToFill(resources, 'requests');
  if (!requests) return;
  for (const [name, q] of aggregateContainers(spec, 'requests')) {
    if (!Object.hasOwn(requests, name) && isOvercommittable(name)) setOwn(requests, name, q.toString());
  }
  for (const [name, value] of Object.entries(limits)) {
    if (!Object.hasOwn(requests, name) && isSupportedPodLevelResource(name)) setOwn(requests, name, value);
  }
  if (resources.requests !== requests && Object.keys(requests).length > 0) resources.requests = requests;
}
