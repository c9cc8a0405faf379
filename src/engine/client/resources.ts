/** The resources control-plane components talk to, as the client addresses them. */
import type { GroupVersionResource } from '../api/types';

const gvr = (group: string, version: string, resource: string): GroupVersionResource => Object.freeze({ group, version, resource });

export const NAMESPACES = gvr('', 'v1', 'namespaces');
export const NODES = gvr('', 'v1', 'nodes');
export const PODS = gvr('', 'v1', 'pods');
export const SERVICES = gvr('', 'v1', 'services');
export const ENDPOINTS = gvr('', 'v1', 'endpoints');
export const EVENTS = gvr('', 'v1', 'events');
export const CONFIGMAPS = gvr('', 'v1', 'configmaps');
export const SECRETS = gvr('', 'v1', 'secrets');
export const SERVICEACCOUNTS = gvr('', 'v1', 'serviceaccounts');
export const PERSISTENTVOLUMECLAIMS = gvr('', 'v1', 'persistentvolumeclaims');
export const PERSISTENTVOLUMES = gvr('', 'v1', 'persistentvolumes');
export const REPLICATIONCONTROLLERS = gvr('', 'v1', 'replicationcontrollers');
export const DEPLOYMENTS = gvr('apps', 'v1', 'deployments');
export const REPLICASETS = gvr('apps', 'v1', 'replicasets');
export const STATEFULSETS = gvr('apps', 'v1', 'statefulsets');
export const DAEMONSETS = gvr('apps', 'v1', 'daemonsets');
export const CONTROLLERREVISIONS = gvr('apps', 'v1', 'controllerrevisions');
export const JOBS = gvr('batch', 'v1', 'jobs');
export const ENDPOINTSLICES = gvr('discovery.k8s.io', 'v1', 'endpointslices');
export const LEASES = gvr('coordination.k8s.io', 'v1', 'leases');
export const EVENTS_V1 = gvr('events.k8s.io', 'v1', 'events');
export const PRIORITYCLASSES = gvr('scheduling.k8s.io', 'v1', 'priorityclasses');
export const PODDISRUPTIONBUDGETS = gvr('policy', 'v1', 'poddisruptionbudgets');
export const CSINODES = gvr('storage.k8s.io', 'v1', 'csinodes');
export const STORAGECLASSES = gvr('storage.k8s.io', 'v1', 'storageclasses');
export const HORIZONTALPODAUTOSCALERS = gvr('autoscaling', 'v2', 'horizontalpodautoscalers');
export const POD_METRICS = gvr('metrics.k8s.io', 'v1beta1', 'pods');

/** "apps/v1/deployments": a stable key for maps of per-resource things (informers). */
export function resourceKey(r: GroupVersionResource): string {
  return `${r.group}/${r.version}/${r.resource}`;
}
