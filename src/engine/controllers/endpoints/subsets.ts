/**
 * The subsets of a Service's Endpoints (pkg/controller/endpoint syncService and
 * pkg/api/v1/endpoints RepackSubsets): one address per pod and Service port, ready or not ready,
 * then packed so that ports offered by the same set of addresses share a subset. Addresses sort by
 * IP then pod UID. Upstream orders ports and subsets by a hash of their Go representation; here
 * ports sort by name and number and subsets by their first address, which is as stable.
 */
import { parseIPSloppy, isIPv4 } from '../../api/ip';
import { findPort, isPodReady, shouldPodBeInEndpoints, shouldSetHostname } from '../util/endpoint/pod';
import type { Pod, Service } from '../util/types/endpoint';
import { ANNOTATION_OVER_CAPACITY, MAX_CAPACITY, type EndpointAddress, type EndpointPort, type EndpointSubset } from './types';

/** The pod's address in the Service's primary IP family, if it has one. */
export function podAddress(service: Service, pod: Pod): EndpointAddress | undefined {
  let v6: boolean;
  const families = service.spec?.ipFamilies ?? [];
  if (families.length > 0) v6 = families[0] === 'IPv6';
  else {
    const ip = service.spec?.clusterIP;
    const probe = ip && ip !== 'None' ? ip : pod.status?.podIP ?? '';
    const parsed = parseIPSloppy(probe);
    v6 = parsed !== undefined && !isIPv4(parsed);
  }
  const match = (pod.status?.podIPs ?? []).find(({ ip }) => {
    const parsed = parseIPSloppy(ip);
    return parsed !== undefined && !isIPv4(parsed) === v6;
  });
  if (!match) return undefined;
  const address: EndpointAddress = { ip: match.ip };
  if (shouldSetHostname(pod, service)) address.hostname = pod.spec?.hostname ?? '';
  address.nodeName = pod.spec?.nodeName ?? '';
  address.targetRef = { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
  return address;
}

interface Entry {
  address: EndpointAddress;
  ready: boolean;
  port: EndpointPort | undefined;
}

/** One entry per pod and port it serves (or per pod, for a headless Service without ports). */
function entries(service: Service, pods: readonly Pod[]): Entry[] {
  const out: Entry[] = [];
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const servicePorts = service.spec?.ports ?? [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = podAddress(service, pod);
    if (!address) continue;
    const ready = publishNotReady || isPodReady(pod);
    if (servicePorts.length === 0) {
      if (service.spec?.clusterIP === 'None') out.push({ address, ready, port: undefined });
      continue;
    }
    for (const sp of servicePorts) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      const ep: EndpointPort = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
      if (sp.appProtocol !== undefined) ep.appProtocol = sp.appProtocol;
      out.push({ address, ready, port: ep });
    }
  }
  return out;
}

const addressKey = (a: EndpointAddress): string => `${a.ip}|${a.targetRef?.uid ?? ''}`;
const portKey = (p: EndpointPort | undefined): string => (p ? JSON.stringify([p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? null]) : '');

function compareIPs(a: string, b: string): number {
  const x = parseIPSloppy(a);
  const y = parseIPSloppy(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 16; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  const byIP = compareIPs(a.ip, b.ip);
  if (byIP !== 0) return byIP;
  const ua = a.targetRef?.uid ?? '';
  const ub = b.targetRef?.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

function comparePorts(a: EndpointPort, b: EndpointPort): number {
  const na = a.name ?? '';
  const nb = b.name ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  if (a.port !== b.port) return a.port - b.port;
  return (a.protocol ?? '') < (b.protocol ?? '') ? -1 : (a.protocol ?? '') > (b.protocol ?? '') ? 1 : 0;
}

/** The Service's subsets, packed and sorted. */
export function buildSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  // Per port: each address and whether it is ready there (ready wins over not ready).
  const byPort = new Map<string, { port: EndpointPort | undefined; addresses: Map<string, { address: EndpointAddress; ready: boolean }> }>();
  for (const e of entries(service, pods)) {
    const pk = portKey(e.port);
    let group = byPort.get(pk);
    if (!group) byPort.set(pk, (group = { port: e.port, addresses: new Map() }));
    const ak = addressKey(e.address);
    const seen = group.addresses.get(ak);
    if (!seen || !seen.ready) group.addresses.set(ak, { address: e.address, ready: e.ready });
  }
  // Ports offered by the same addresses (with the same readiness) share a subset.
  const bySet = new Map<string, { ports: EndpointPort[]; addresses: { address: EndpointAddress; ready: boolean }[] }>();
  for (const group of byPort.values()) {
    const addrs = [...group.addresses.values()].sort((a, b) => compareAddresses(a.address, b.address));
    const key = addrs.map((a) => `${addressKey(a.address)}=${a.ready}`).join(',');
    let set = bySet.get(key);
    if (!set) bySet.set(key, (set = { ports: [], addresses: addrs }));
    if (group.port) set.ports.push(group.port);
  }
  const subsets: EndpointSubset[] = [];
  for (const { ports, addresses } of bySet.values()) {
    const subset: EndpointSubset = {};
    const ready = addresses.filter((a) => a.ready).map((a) => a.address);
    const notReady = addresses.filter((a) => !a.ready).map((a) => a.address);
    if (ready.length > 0) subset.addresses = ready;
    if (notReady.length > 0) subset.notReadyAddresses = notReady;
    if (ports.length > 0) subset.ports = ports.sort(comparePorts);
    subsets.push(subset);
  }
  const first = (s: EndpointSubset): EndpointAddress | undefined => s.addresses?.[0] ?? s.notReadyAddresses?.[0];
  return subsets.sort((a, b) => {
    const fa = first(a);
    const fb = first(b);
    const byAddress = fa && fb ? compareAddresses(fa, fb) : 0;
    return byAddress !== 0 ? byAddress : portKey(a.ports?.[0]) < portKey(b.ports?.[0]) ? -1 : 1;
  });
}

/**
 * Keeps at most MAX_CAPACITY addresses, ready ones first, each subset keeping its share
 * (rounded up); true when it truncated.
 */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const s of subsets) {
    totalReady += (s.addresses ?? []).length;
    totalNotReady += (s.notReadyAddresses ?? []).length;
  }
  if (totalReady + totalNotReady <= MAX_CAPACITY) return false;
  const truncateReady = totalReady > MAX_CAPACITY;
  const max = truncateReady ? MAX_CAPACITY : MAX_CAPACITY - totalReady;
  const total = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  for (const s of subsets) {
    const inSubset = (truncateReady ? s.addresses : s.notReadyAddresses) ?? [];
    const share = Math.min(Math.ceil((inSubset.length / total) * max), canBeAdded);
    if (truncateReady) {
      s.addresses = inSubset.slice(0, share);
      delete s.notReadyAddresses;
      canBeAdded -= s.addresses.length;
    } else {
      s.notReadyAddresses = inSubset.slice(0, share);
      canBeAdded -= s.notReadyAddresses.length;
    }
  }
  return true;
}

/** Whether the annotation reflects the subsets: absent, and the subsets within capacity. */
export function capacityAnnotationCorrect(annotations: Record<string, string> | undefined, subsets: readonly EndpointSubset[] | undefined): boolean {
  let n = 0;
  for (const s of subsets ?? []) n += (s.addresses ?? []).length + (s.notReadyAddresses ?? []).length;
  if (n > MAX_CAPACITY) return false;
  return !Object.hasOwn(annotations ?? {}, ANNOTATION_OVER_CAPACITY);
}
