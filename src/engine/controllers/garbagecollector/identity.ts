/**
 * What the garbage collector queues: an object by kind, namespace, name and uid, or a "virtual"
 * owner known only from someone's ownerReference and still to be looked up. The workqueue key
 * spells the identity out ("ReplicaSet.apps/v1 default/web-5d9c7 1f0c..."), so the trace reads
 * well and the key alone says what to look at.
 */
import type { ResourceRegistry } from '../../api/registry';
import { parseApiVersion, type GroupVersionResource, type OwnerReference } from '../../api/types';

export interface Identity {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  /** Only known from an ownerReference: the collector must check that it exists. */
  virtual: boolean;
}

const VIRTUAL = 'virtual';

export function identityKey(id: Identity): string {
  const where = id.namespace ? `${id.namespace}/${id.name}` : id.name;
  return `${id.kind}.${id.apiVersion} ${where} ${id.uid}${id.virtual ? ` ${VIRTUAL}` : ''}`;
}

export function parseIdentityKey(key: string): Identity {
  const [kindVersion = '', where = '', uid = '', flag] = key.split(' ');
  const dot = kindVersion.indexOf('.');
  const slash = where.indexOf('/');
  return {
    kind: kindVersion.slice(0, dot),
    apiVersion: kindVersion.slice(dot + 1),
    namespace: slash < 0 ? '' : where.slice(0, slash),
    name: slash < 0 ? where : where.slice(slash + 1),
    uid,
    virtual: flag === VIRTUAL,
  };
}

/** objectReference.String(), as the collector's messages print identities. */
export function describeIdentity(id: Pick<Identity, 'apiVersion' | 'kind' | 'namespace' | 'name' | 'uid'>): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}]`;
}

export function ownerIdentity(ref: OwnerReference, namespace: string): Identity {
  return { apiVersion: ref.apiVersion, kind: ref.kind, namespace, name: ref.name, uid: ref.uid, virtual: true };
}

export class RestMappingError extends Error {}

/** The resource of a kind, and whether it is namespaced (the collector's REST mapper). */
export function restMapping(registry: ResourceRegistry, apiVersion: string, kind: string): { gvr: GroupVersionResource; namespaced: boolean } {
  const { group, version } = parseApiVersion(apiVersion);
  const info = registry.byGvk(group, version, kind);
  if (!info) throw new RestMappingError(`unable to get REST mapping for ${kind}.${apiVersion}`);
  return { gvr: { group, version, resource: info.resource }, namespaced: info.namespaced };
}
