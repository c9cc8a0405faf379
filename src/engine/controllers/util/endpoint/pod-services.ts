/**
 * Which Services to sync when a pod changes: those whose selector matches it now or matched it
 * before. A pod update that touches nothing endpoints depend on (not its labels, hostname,
 * subdomain, deletion, readiness or IPs) syncs nothing; a pure label change syncs only the
 * Services it joined or left. Shared by the EndpointSlice and Endpoints controllers, whose pod
 * event handler it also is.
 */
import { selectorFromSet } from '../../../api/labels';
import type { Controller } from '../../../client/controller';
import { deletedObject, type EventHandler, type Indexer } from '../../../client/informer';
import { isPodReady } from './pod';
import type { Pod, Service } from '../types/endpoint';

/**
 * The pods a Service's endpoints are made of: those of its namespace its selector selects; none
 * (undefined) for an ExternalName Service or one without a selector, whose endpoints others manage.
 */
export function selectedPods(service: Service, pods: Indexer<Pod>): Pod[] | undefined {
  const selector = service.spec?.selector;
  if (service.spec?.type === 'ExternalName' || selector === undefined || selector === null) return undefined;
  return pods.listNamespace(service.metadata.namespace ?? '', selectorFromSet(selector));
}

/** Keys ("ns/name") of the Services in the pod's namespace whose selector matches the labels; a nil selector matches nothing. */
export function servicesSelecting(services: readonly Service[], labels: Record<string, string>): Set<string> {
  const out = new Set<string>();
  for (const svc of services) {
    const selector = svc.spec?.selector;
    if (selector === undefined || selector === null) continue;
    if (selectorFromSet(selector).matches(labels)) out.add(`${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}`);
  }
  return out;
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const x = a ?? {};
  const y = b ?? {};
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && y[k] === x[k]);
}

/** [pod changed in a way endpoints show, pod changed in a way that may change its Services]. */
export function podEndpointsChanged(oldPod: Pod, newPod: Pod): [boolean, boolean] {
  const labelsChanged =
    !sameLabels(oldPod.metadata.labels, newPod.metadata.labels) ||
    oldPod.spec?.hostname !== newPod.spec?.hostname ||
    oldPod.spec?.subdomain !== newPod.spec?.subdomain;
  if (oldPod.metadata.deletionTimestamp !== newPod.metadata.deletionTimestamp) return [true, labelsChanged];
  if (isPodReady(oldPod) !== isPodReady(newPod)) return [true, labelsChanged];
  const oldIPs = oldPod.status?.podIPs ?? [];
  const newIPs = newPod.status?.podIPs ?? [];
  if (oldIPs.length !== newIPs.length || oldIPs.some((ip, i) => ip.ip !== newIPs[i]!.ip)) return [true, labelsChanged];
  return [false, labelsChanged];
}

/** The Services to sync for a pod update, given the Services of its namespace. */
export function servicesToUpdateOnPodChange(services: readonly Service[], oldPod: Pod, newPod: Pod): Set<string> {
  if (oldPod.metadata.resourceVersion === newPod.metadata.resourceVersion) return new Set();
  const [podChanged, labelsChanged] = podEndpointsChanged(oldPod, newPod);
  if (!podChanged && !labelsChanged) return new Set();
  const now = servicesSelecting(services, newPod.metadata.labels ?? {});
  if (!labelsChanged) return now;
  const before = servicesSelecting(services, oldPod.metadata.labels ?? {});
  if (podChanged) return new Set([...now, ...before]);
  const out = new Set<string>();
  for (const k of now) if (!before.has(k)) out.add(k);
  for (const k of before) if (!now.has(k)) out.add(k);
  return out;
}

/** The pod event handler: queues on the loop the Services (from the cache) each pod change concerns, the pod event as cause. */
export function podServicesHandler(services: Indexer<Service>, loop: Controller): EventHandler<Pod> {
  const inNamespace = (pod: Pod): Service[] => services.listNamespace(pod.metadata.namespace ?? '');
  return {
    onAdd: (pod) => {
      for (const key of servicesSelecting(inNamespace(pod), pod.metadata.labels ?? {})) loop.enqueue(key, pod);
    },
    onUpdate: (old, pod) => {
      for (const key of servicesToUpdateOnPodChange(inNamespace(pod), old, pod)) loop.enqueue(key, pod);
    },
    onDelete: (obj) => {
      const pod = deletedObject(obj);
      for (const key of servicesSelecting(inNamespace(pod), pod.metadata.labels ?? {})) loop.enqueue(key, obj);
    },
  };
}
