/**
 * The reconciler's placement of endpoints into the slices of one port mapping, written to keep
 * API writes few (k8s.io/endpointslice reconcileByPortMapping):
 *  1. in each existing slice keep the endpoints still wanted (updated in place), drop the rest;
 *     a slice left empty is deleted, a changed one updated; the Service's labels are kept in sync;
 *  2. top up the slices being updated anyway, fullest first;
 *  3. place what is left: when fewer than a slice's capacity remain, into the unchanged slice that
 *     ends closest to full, else into new slices.
 * Go iterates sets and maps in random order; here every choice follows insertion order, so a
 * run is reproducible.
 */
import { deepCopy } from '../../client/clone';
import { endpointKey, endpointsEqualBeyondKey } from './endpoint';
import { newEndpointSlice, sliceLabels, sliceToFill } from './slice';
import type { Endpoint, EndpointPort, EndpointSlice, Service } from '../util/types/endpoint';

export interface PortMappingPlan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
  added: number;
  removed: number;
}

export interface PortMappingInput {
  service: Service;
  existing: readonly EndpointSlice[];
  /** The wanted endpoints by endpointKey, in the order pods were listed. */
  desired: Map<string, Endpoint>;
  ports: readonly EndpointPort[];
  addressType: string;
  maxEndpointsPerSlice: number;
  controllerName: string;
}

function popFirst(desired: Map<string, Endpoint>): Endpoint {
  const [key, ep] = desired.entries().next().value as [string, Endpoint];
  desired.delete(key);
  return ep;
}

export function placeEndpoints(input: PortMappingInput): PortMappingPlan {
  const { service, maxEndpointsPerSlice: max, controllerName } = input;
  const desired = new Map(input.desired);
  const byName = new Map<string, EndpointSlice>();
  const unchanged = new Set<string>();
  const toUpdate = new Set<string>();
  const toDelete = new Set<string>();
  let removed = 0;

  for (const existing of input.existing) {
    const name = existing.metadata.name ?? '';
    byName.set(name, existing);
    const kept: Endpoint[] = [];
    let endpointUpdated = false;
    for (const ep of existing.endpoints ?? []) {
      const key = endpointKey(ep);
      const want = desired.get(key);
      if (!want) continue;
      kept.push(want);
      if (!endpointsEqualBeyondKey(want, ep)) endpointUpdated = true;
      desired.delete(key);
    }
    const { labels, changed: labelsChanged } = sliceLabels(existing, service, controllerName);
    const count = (existing.endpoints ?? []).length;
    if (endpointUpdated || count !== kept.length) {
      if (count > kept.length) removed += count - kept.length;
      if (kept.length === 0) {
        toDelete.add(name);
      } else {
        const copy = deepCopy(existing);
        copy.endpoints = kept;
        copy.metadata.labels = labels;
        byName.set(name, copy);
        toUpdate.add(name);
      }
    } else if (labelsChanged) {
      const copy = deepCopy(existing);
      copy.metadata.labels = labels;
      byName.set(name, copy);
      toUpdate.add(name);
    } else {
      unchanged.add(name);
    }
  }

  const added = desired.size;

  if (desired.size > 0 && toUpdate.size > 0) {
    const fullestFirst = [...toUpdate].map((n) => byName.get(n)!).sort((a, b) => (b.endpoints ?? []).length - (a.endpoints ?? []).length);
    for (const slice of fullestFirst) {
      const endpoints = slice.endpoints ?? [];
      while (desired.size > 0 && endpoints.length < max) endpoints.push(popFirst(desired));
      slice.endpoints = endpoints;
    }
  }

  const create: EndpointSlice[] = [];
  while (desired.size > 0) {
    let fill: EndpointSlice | undefined;
    if (desired.size < max && unchanged.size > 0) {
      const candidate = sliceToFill([...unchanged].map((n) => byName.get(n)!), desired.size, max);
      if (candidate) {
        fill = deepCopy(candidate);
        byName.set(fill.metadata.name ?? '', fill);
      }
    }
    fill ??= newEndpointSlice(service, input.ports, input.addressType, controllerName);
    const endpoints = fill.endpoints ?? [];
    while (desired.size > 0 && endpoints.length < max) endpoints.push(popFirst(desired));
    fill.endpoints = endpoints;
    if (fill.metadata.name) {
      toUpdate.add(fill.metadata.name);
      unchanged.delete(fill.metadata.name);
    } else {
      create.push(fill);
    }
  }

  return {
    create,
    update: [...toUpdate].map((n) => byName.get(n)!),
    delete: [...toDelete].map((n) => byName.get(n)!),
    added,
    removed,
  };
}
