/**
 * A pod's effective requests and limits (k8s.io/component-helpers resource.PodRequests and
 * PodLimits): regular containers and sidecars (restartable init containers) add up; each init
 * container counts with the sidecars started before it, and the largest of those wins where it
 * is more; pod-level cpu, memory and hugepages replace the aggregate; overhead is added (to the
 * limits only where the pod has a limit for it).
 */
import { isObject, type JsonObject } from '../../../api/types';
import { add, parseResourceList, type ResourceList } from './resources';
import { own } from '../../../api/own';

type Which = 'requests' | 'limits';

const isSupportedPodLevelResource = (name: string): boolean => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');

function containers(spec: JsonObject, field: string): JsonObject[] {
  const list = own(spec, field);
  return Array.isArray(list) ? list.filter(isObject) : [];
}

export function containerResources(c: JsonObject, which: Which): ResourceList {
  return parseResourceList(isObject(c.resources) ? c.resources[which] : undefined);
}

function maxInto(target: ResourceList, list: ResourceList): void {
  for (const [k, v] of list) {
    const cur = target.get(k);
    if (!cur || v.cmp(cur) > 0) target.set(k, v);
  }
}

function aggregate(spec: JsonObject, which: Which): ResourceList {
  let total: ResourceList = new Map();
  for (const c of containers(spec, 'containers')) total = add(total, containerResources(c, which));
  let sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of containers(spec, 'initContainers')) {
    const own = containerResources(c, which);
    if (c.restartPolicy === 'Always') {
      total = add(total, own);
      sidecars = add(sidecars, own);
      maxInto(initMax, sidecars);
    } else {
      maxInto(initMax, add(own, sidecars));
    }
  }
  maxInto(total, initMax);
  return total;
}

export function podResources(spec: JsonObject, which: Which): ResourceList {
  const total = aggregate(spec, which);
  const podLevel = parseResourceList(isObject(spec.resources) ? spec.resources[which] : undefined);
  if ([...podLevel.keys()].some(isSupportedPodLevelResource)) {
    for (const [k, v] of podLevel) if (isSupportedPodLevelResource(k)) total.set(k, v);
  }
  for (const [k, v] of parseResourceList(spec.overhead)) {
    const cur = total.get(k);
    if (which === 'requests') total.set(k, cur ? cur.add(v) : v);
    else if (cur) total.set(k, cur.add(v));
  }
  return total;
}
