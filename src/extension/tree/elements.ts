/**
 * The Cluster tree's shape: which elements exist (groups, objects, pods under their node,
 * EndpointSlices under their Service), their stable ids, and which of them a watch event
 * changes, so the tree refreshes only those (no flicker, no full reloads).
 */
import type { KubeObject } from '../../engine/api/types';
import type { ClusterView, ViewChange, ViewKind } from '../view-types';

/** The groups at the root, in display order (EndpointSlices show under their Service). */
export const ROOT_GROUPS: readonly ViewKind[] = ['nodes', 'namespaces', 'deployments', 'replicasets', 'horizontalpodautoscalers', 'pods', 'services', 'events'];

export { RECENT_EVENTS } from '../view-queries';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

export type TreeElement =
  | { readonly type: 'group'; readonly id: string; readonly kind: ViewKind }
  | { readonly type: 'object'; readonly id: string; readonly kind: ViewKind; readonly key: string; readonly parent?: string };

export const groupId = (kind: ViewKind): string => `group:${kind}`;

export function objectId(kind: ViewKind, key: string, parent?: string): string {
  return parent ? `${parent}>${kind}:${key}` : `${kind}:${key}`;
}

/** The node a pod is bound to, if any. */
export function podNode(pod: KubeObject | undefined): string | undefined {
  const spec = pod?.spec as { nodeName?: unknown } | undefined;
  return typeof spec?.nodeName === 'string' && spec.nodeName !== '' ? spec.nodeName : undefined;
}

/** The Service an EndpointSlice belongs to, as "namespace/name". */
export function sliceService(slice: KubeObject | undefined): string | undefined {
  const name = slice?.metadata.labels?.[SERVICE_NAME_LABEL];
  return name ? `${slice.metadata.namespace ?? ''}/${name}` : undefined;
}

function phase(pod: KubeObject | undefined): unknown {
  return (pod?.status as { phase?: unknown } | undefined)?.phase;
}

/**
 * The ids of the elements a change makes stale: the object's own items for an update, and the
 * items whose children or counts change (its group, its node, its Service) for an add or a delete.
 */
export function affectedIds(change: ViewChange): string[] {
  const { kind, key, object, old } = change;
  const ids = new Set<string>();
  const structural = change.type !== 'MODIFIED';
  if (ROOT_GROUPS.includes(kind)) {
    if (structural || kind === 'events') ids.add(groupId(kind));
    else ids.add(objectId(kind, key));
  }
  if (kind === 'pods') {
    const nodes = new Set([podNode(old), podNode(object)].filter((n): n is string => n !== undefined));
    // A node lists its pods and counts them: it changes when one comes, goes, or finishes.
    const recount = structural || podNode(old) !== podNode(object) || phase(old) !== phase(object);
    for (const node of nodes) {
      if (recount) ids.add(objectId('nodes', node));
      else ids.add(objectId('pods', key, objectId('nodes', node)));
    }
  }
  if (kind === 'endpointslices') {
    for (const svc of new Set([sliceService(old), sliceService(object)])) {
      if (!svc) continue;
      if (structural || sliceService(old) !== sliceService(object)) ids.add(objectId('services', svc));
      else ids.add(objectId('endpointslices', key, objectId('services', svc)));
    }
  }
  return [...ids];
}

/** No workloads and no Services beyond default/kubernetes: the welcome view shows instead. */
export function isClusterEmpty(view: ClusterView | undefined): boolean {
  if (!view) return true;
  if (view.count('deployments') > 0 || view.count('replicasets') > 0 || view.count('pods') > 0) return false;
  const services = view.count('services');
  return services === 0 || (services === 1 && view.get('services', 'default/kubernetes') !== undefined);
}
