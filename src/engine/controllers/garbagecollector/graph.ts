/**
 * The collector's view of ownership, kept by the shared informers instead of a graph of its own:
 * every monitored resource's cache is indexed by uid and by owner uid, so "which object has this
 * uid" and "which objects name it as owner" are index lookups. Upstream monitors every deletable
 * resource; kubesim monitors the kinds that own or are owned in a cluster (workloads and their
 * pods, revisions and slices, services, config, nodes and leases).
 */
import type { ResourceRegistry } from '../../api/registry';
import { formatApiVersion, type GroupVersionResource, type KubeObject } from '../../api/types';
import { OWNER_UID_INDEX, ownerUidIndexFunc, type IndexFunc, type SharedInformerFactory, type SharedIndexInformer } from '../../client/informer';
import {
  CONFIGMAPS,
  CONTROLLERREVISIONS,
  DAEMONSETS,
  DEPLOYMENTS,
  ENDPOINTSLICES,
  JOBS,
  LEASES,
  NODES,
  PERSISTENTVOLUMECLAIMS,
  PODS,
  REPLICASETS,
  REPLICATIONCONTROLLERS,
  SECRETS,
  SERVICEACCOUNTS,
  SERVICES,
  STATEFULSETS,
} from '../../client/resources';
import type { Identity } from './identity';

const CRONJOBS: GroupVersionResource = { group: 'batch', version: 'v1', resource: 'cronjobs' };

export const MONITORED_RESOURCES: readonly GroupVersionResource[] = [
  PODS,
  REPLICASETS,
  DEPLOYMENTS,
  STATEFULSETS,
  DAEMONSETS,
  CONTROLLERREVISIONS,
  JOBS,
  CRONJOBS,
  REPLICATIONCONTROLLERS,
  SERVICES,
  ENDPOINTSLICES,
  CONFIGMAPS,
  SECRETS,
  SERVICEACCOUNTS,
  PERSISTENTVOLUMECLAIMS,
  NODES,
  LEASES,
];

export const UID_INDEX = 'uid';
const uidIndexFunc: IndexFunc = (obj) => (obj.metadata.uid ? [obj.metadata.uid] : []);

export interface Monitor {
  gvr: GroupVersionResource;
  apiVersion: string;
  kind: string;
  informer: SharedIndexInformer;
}

export interface Entry {
  object: KubeObject;
  monitor: Monitor;
}

export class OwnershipGraph {
  readonly monitors: Monitor[];

  constructor(informers: SharedInformerFactory, registry: ResourceRegistry) {
    this.monitors = [];
    for (const gvr of MONITORED_RESOURCES) {
      const info = registry.byGroupResource(gvr.group, gvr.resource, gvr.version);
      if (!info) continue;
      const informer = informers.informerFor(gvr, {}, { [UID_INDEX]: uidIndexFunc, [OWNER_UID_INDEX]: ownerUidIndexFunc });
      this.monitors.push({ gvr, apiVersion: formatApiVersion(info.group, info.version), kind: info.kind, informer });
    }
  }

  byUid(uid: string): Entry | undefined {
    for (const monitor of this.monitors) {
      const [object] = monitor.informer.indexer.byIndex(UID_INDEX, uid);
      if (object) return { object, monitor };
    }
    return undefined;
  }

  /** Objects naming `uid` among their owners, in cache order. */
  dependents(uid: string): Entry[] {
    const out: Entry[] = [];
    for (const monitor of this.monitors) for (const object of monitor.informer.indexer.byIndex(OWNER_UID_INDEX, uid)) out.push({ object, monitor });
    return out;
  }

  identity(entry: Entry): Identity {
    const m = entry.object.metadata;
    return { apiVersion: entry.monitor.apiVersion, kind: entry.monitor.kind, namespace: m.namespace ?? '', name: m.name ?? '', uid: m.uid ?? '', virtual: false };
  }

  synced(): boolean {
    return this.monitors.every((m) => m.informer.hasSynced());
  }
}
