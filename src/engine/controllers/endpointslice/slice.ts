/**
 * The EndpointSlices of a Service: their generated names, the labels they carry (the Service's
 * own plus the reserved service-name, managed-by and headless labels), their controller
 * reference to the Service, and the address families a Service asks for.
 */
import { nameIsDNSSubdomain } from '../../api/names';
import { parseIPSloppy, isIPv4 } from '../../api/ip';
import type { OwnerReference } from '../../api/types';
import {
  LABEL_HEADLESS,
  LABEL_MANAGED_BY,
  LABEL_SERVICE_NAME,
  type EndpointPort,
  type EndpointSlice,
  type Service,
} from '../util/types/endpoint';
import { setOwn } from '../../api/own';
import { isServiceIPSet } from '../util/endpoint/service';

const RESERVED_LABELS = new Set([LABEL_SERVICE_NAME, LABEL_MANAGED_BY, LABEL_HEADLESS]);

/** "<service>-" when that is a valid prefix, so generated names read "web-x7k2p". */
export function slicePrefix(serviceName: string): string {
  const prefix = `${serviceName}-`;
  return nameIsDNSSubdomain(prefix, true).length === 0 ? prefix : serviceName;
}

function sortedRecord(rec: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(rec).sort()) setOwn(out, k, rec[k]!);
  return out;
}

/**
 * The labels a slice of the Service should carry, and whether its own non-reserved labels differ
 * from the Service's (a reason to update it). Reserved labels on the Service are ignored.
 */
export function sliceLabels(slice: EndpointSlice | undefined, service: Service, controllerName: string): { labels: Record<string, string>; changed: boolean } {
  const current: Record<string, string> = {};
  for (const [k, v] of Object.entries(slice?.metadata.labels ?? {})) if (!RESERVED_LABELS.has(k)) setOwn(current, k, v);
  const wanted: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.metadata.labels ?? {})) if (!RESERVED_LABELS.has(k)) setOwn(wanted, k, v);
  const changed = !sameRecord(current, wanted);
  if (!isServiceIPSet(service)) wanted[LABEL_HEADLESS] = '';
  wanted[LABEL_SERVICE_NAME] = service.metadata.name ?? '';
  wanted[LABEL_MANAGED_BY] = controllerName;
  return { labels: sortedRecord(wanted), changed };
}

function sameRecord(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

export function serviceControllerRef(service: Service): OwnerReference {
  return { apiVersion: 'v1', kind: 'Service', name: service.metadata.name ?? '', uid: service.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

export function ownedBy(slice: EndpointSlice, service: Service): boolean {
  return (slice.metadata.ownerReferences ?? []).some((o) => o.uid === service.metadata.uid && o.kind === 'Service' && o.apiVersion === 'v1');
}

/** A new, empty slice of the Service for one port mapping and address type; the API server names it. */
export function newEndpointSlice(service: Service, ports: readonly EndpointPort[], addressType: string, controllerName: string): EndpointSlice {
  const slice: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: slicePrefix(service.metadata.name ?? ''),
      namespace: service.metadata.namespace ?? '',
      labels: {},
      ownerReferences: [serviceControllerRef(service)],
    },
    addressType,
    endpoints: [],
  };
  if (ports.length > 0) slice.ports = ports.map((p) => ({ ...p }));
  slice.metadata.labels = sliceLabels(slice, service, controllerName).labels;
  return slice;
}

/**
 * The address types the Service's IP families ask for; without families (an API server that
 * predates dual stack), the family of its cluster IP, or both for a headless Service.
 */
export function addressTypesForService(service: Service): string[] {
  const families = service.spec?.ipFamilies ?? [];
  const out: string[] = [];
  if (families.includes('IPv4')) out.push('IPv4');
  if (families.includes('IPv6')) out.push('IPv6');
  if (out.length > 0) return out;
  if (isServiceIPSet(service)) {
    const ip = parseIPSloppy(service.spec?.clusterIP ?? '');
    return [ip && !isIPv4(ip) ? 'IPv6' : 'IPv4'];
  }
  return ['IPv4', 'IPv6'];
}

/** The unchanged slice that is closest to full once `count` endpoints are added, if any fits. */
export function sliceToFill(slices: readonly EndpointSlice[], count: number, max: number): EndpointSlice | undefined {
  let closestDiff = max;
  let closest: EndpointSlice | undefined;
  for (const slice of slices) {
    const diff = max - (count + (slice.endpoints ?? []).length);
    if (diff >= 0 && diff < closestDiff) {
      closestDiff = diff;
      closest = slice;
      if (diff === 0) return closest;
    }
  }
  return closest;
}
