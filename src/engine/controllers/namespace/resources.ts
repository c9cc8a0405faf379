/**
 * What the namespace controller deletes: discovery's preferred namespaced resources that can be
 * deleted (ServerPreferredNamespacedResources filtered by the delete verb), each noting whether
 * it can be listed and deleted as a collection.
 */
import type { ResourceRegistry } from '../../api/registry';
import type { GroupVersionResource } from '../../api/types';

export interface DeletableResource {
  gvr: GroupVersionResource;
  list: boolean;
  deleteCollection: boolean;
}

export function deletableResources(registry: ResourceRegistry): DeletableResource[] {
  const seen = new Set<string>();
  const out: DeletableResource[] = [];
  for (const r of registry.all()) {
    const id = `${r.group}/${r.resource}`;
    if (!r.namespaced || seen.has(id)) continue;
    seen.add(id);
    if (!r.verbs.includes('delete')) continue;
    out.push({ gvr: { group: r.group, version: r.version, resource: r.resource }, list: r.verbs.includes('list'), deleteCollection: r.verbs.includes('deletecollection') });
  }
  return out;
}

/** schema.GroupVersionResource's String(): "apps/v1, Resource=deployments", "/v1, Resource=pods". */
export function gvrString(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}
