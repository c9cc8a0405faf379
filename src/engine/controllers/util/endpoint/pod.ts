/**
 * What makes a Pod an endpoint of a Service: an IP, not finished, and (for the legacy Endpoints)
 * not terminating; its readiness; its hostname for a headless Service it names as subdomain;
 * the container port a Service's targetPort resolves to.
 */
import type { Pod, PodCondition, Service, ServicePort } from '../types/endpoint';

export function podReadyCondition(pod: Pod): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

export function isPodReady(pod: Pod): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** Succeeded and Failed pods never run again. */
export function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (!pod.status?.podIP && (pod.status?.podIPs ?? []).length === 0) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}

export function shouldSetHostname(pod: Pod, service: Service): boolean {
  const hostname = pod.spec?.hostname ?? '';
  return hostname.length > 0 && (pod.spec?.subdomain ?? '') === service.metadata.name && service.metadata.namespace === pod.metadata.namespace;
}

/**
 * The port a Service port sends to on this pod: a number as it is; a name looked up in the
 * pod's containers (and its sidecars: init containers that always restart), with the same
 * protocol. Undefined when no container offers it: the pod gets no endpoint for that port.
 */
export function findPort(pod: Pod, servicePort: ServicePort): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  const protocol = servicePort.protocol ?? 'TCP';
  const matches = (ports: { name?: string; containerPort: number; protocol?: string }[] | undefined): number | undefined =>
    ports?.find((p) => p.name === target && (p.protocol ?? 'TCP') === protocol)?.containerPort;
  for (const c of pod.spec?.containers ?? []) {
    const port = matches(c.ports);
    if (port !== undefined) return port;
  }
  for (const c of pod.spec?.initContainers ?? []) {
    if (c.restartPolicy !== 'Always') continue;
    const port = matches(c.ports);
    if (port !== undefined) return port;
  }
  return undefined;
}
