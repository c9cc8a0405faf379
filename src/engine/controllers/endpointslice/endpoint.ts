/**
 * A Pod as an EndpointSlice endpoint: its addresses of the slice's family, its conditions
 * (serving = Ready; terminating = being deleted; ready = serving and not terminating, or always
 * with publishNotReadyAddresses), node, zone, hostname and a reference to the pod. And the
 * identity of an endpoint across syncs (addresses, hostname, pod) that lets the reconciler update
 * an endpoint in place when only its conditions or topology change.
 */
import { ipString, isIPv4, parseIPSloppy } from '../../api/ip';
import { findPort, isPodReady, shouldSetHostname } from '../util/endpoint/pod';
import { LABEL_TOPOLOGY_ZONE, type Endpoint, type EndpointPort, type Node, type Pod, type Service } from '../util/types/endpoint';

export function endpointAddresses(pod: Pod, addressType: string): string[] {
  const out: string[] = [];
  for (const { ip } of pod.status?.podIPs ?? []) {
    const parsed = parseIPSloppy(ip);
    if (!parsed) continue;
    const v4 = isIPv4(parsed);
    if ((v4 && addressType === 'IPv4') || (!v4 && addressType === 'IPv6')) out.push(ipString(parsed));
  }
  return out;
}

export function podToEndpoint(pod: Pod, node: Node | undefined, service: Service, addressType: string): Endpoint {
  const serving = isPodReady(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  const ready = service.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const ep: Endpoint = {
    addresses: endpointAddresses(pod, addressType),
    conditions: { ready, serving, terminating },
  };
  if (shouldSetHostname(pod, service)) ep.hostname = pod.spec?.hostname ?? '';
  ep.targetRef = { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata.labels?.[LABEL_TOPOLOGY_ZONE];
  if (zone) ep.zone = zone;
  return ep;
}

/** The slice ports of a pod: one per Service port its containers offer (a headless Service may have none). */
export function endpointPorts(service: Service, pod: Pod): EndpointPort[] {
  const ports: EndpointPort[] = [];
  const servicePorts = service.spec?.ports ?? [];
  if (servicePorts.length === 0 && service.spec?.clusterIP === 'None') return ports;
  for (const sp of servicePorts) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    const ep: EndpointPort = { name: sp.name ?? '', protocol: sp.protocol ?? 'TCP', port };
    if (sp.appProtocol !== undefined) ep.appProtocol = sp.appProtocol;
    ports.push(ep);
  }
  return ports;
}

/** Groups pods by the ports they resolve to: slices hold endpoints with one port mapping. */
export function portMapKey(ports: readonly EndpointPort[]): string {
  return ports
    .map((p) => JSON.stringify([p.name ?? '', p.protocol ?? '', p.port ?? 0, p.appProtocol ?? null]))
    .sort()
    .join('|');
}

/** What identifies an endpoint across syncs: sorted addresses, hostname and the pod it stands for. */
export function endpointKey(ep: Endpoint): string {
  return JSON.stringify([[...ep.addresses].sort(), ep.hostname ?? '', ep.targetRef?.namespace ?? '', ep.targetRef?.name ?? '']);
}

/** Equal in what the key leaves out: node, zone, conditions and the pod reference (its uid). */
export function endpointsEqualBeyondKey(a: Endpoint, b: Endpoint): boolean {
  return (
    a.nodeName === b.nodeName &&
    a.zone === b.zone &&
    a.conditions?.ready === b.conditions?.ready &&
    a.conditions?.serving === b.conditions?.serving &&
    a.conditions?.terminating === b.conditions?.terminating &&
    a.targetRef?.kind === b.targetRef?.kind &&
    a.targetRef?.namespace === b.targetRef?.namespace &&
    a.targetRef?.name === b.targetRef?.name &&
    a.targetRef?.uid === b.targetRef?.uid &&
    (a.targetRef === undefined) === (b.targetRef === undefined)
  );
}
