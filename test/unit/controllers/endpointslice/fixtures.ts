/** Pods, Services and slices shaped like upstream's reconciler test helpers (newPod, newServiceAndEndpointMeta). */
import { podToEndpoint } from '../../../../src/engine/controllers/endpointslice/endpoint';
import { serviceControllerRef } from '../../../../src/engine/controllers/endpointslice/slice';
import type { EndpointPort, EndpointSlice, Node, Pod, Service } from '../../../../src/engine/controllers/util/types/endpoint';

/** Valid and distinct for any n (upstream's 1.2.3.<4+n> overflows past 251). */
export const podIP = (n: number): string => `10.${Math.floor((4 + n) / 65536) % 256}.${Math.floor((4 + n) / 256) % 256}.${(4 + n) % 256}`;

export function newPod(n: number, namespace: string, ready: boolean, terminating = false): Pod {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace, name: `pod${n}`, uid: `uid-${n}`, labels: { foo: 'bar' }, resourceVersion: String(n) },
    spec: { containers: [{ name: 'container-1' }], nodeName: 'node-1' },
    status: { podIP: podIP(n), podIPs: [{ ip: podIP(n) }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
  if (terminating) pod.metadata.deletionTimestamp = '2025-01-01T00:00:00Z';
  return pod;
}

export function newService(name: string, namespace: string): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, uid: `${namespace}-${name}` },
    spec: { ports: [{ name, port: 80, targetPort: 80, protocol: 'TCP' }], selector: { foo: 'bar' }, ipFamilies: ['IPv4'], clusterIP: '10.96.0.10' },
  };
}

export const servicePorts = (name: string, port = 80): EndpointPort[] => [{ name, protocol: 'TCP', port }];

export function newEmptySlice(n: number, svc: Service, ports: EndpointPort[] = servicePorts(svc.metadata.name ?? ''), addressType = 'IPv4'): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${svc.metadata.name}-${n}`, namespace: svc.metadata.namespace, uid: `slice-${n}`, ownerReferences: [serviceControllerRef(svc)] },
    addressType,
    endpoints: [],
    ports,
  };
}

export const NODE_1: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } };

export const endpointOf = (pod: Pod, svc: Service): ReturnType<typeof podToEndpoint> => podToEndpoint(pod, { apiVersion: 'v1', kind: 'Node', metadata: {} }, svc, 'IPv4');

export function pods(count: number, namespace = 'test', from = 0): Pod[] {
  return Array.from({ length: count }, (_, i) => newPod(from + i, namespace, (from + i) % 3 !== 0));
}
