/**
 * Which objects change how other objects are admitted or validated. A manifest's documents are
 * checked in order, each seeing what the documents above it created (as `kubesim validate` does);
 * knowing which earlier documents can matter lets the server revalidate only what an edit can
 * affect, and run the rest as dry runs against one shared state.
 */
import { isObject, type JsonObject } from '../../engine/api/types';

/** group/Kind of objects that admission or authorization reads while handling other objects. */
const CONTEXT_KINDS = new Set([
  '/Namespace',
  '/ServiceAccount',
  '/LimitRange',
  '/ResourceQuota',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'scheduling.k8s.io/PriorityClass',
  'storage.k8s.io/StorageClass',
  'networking.k8s.io/IngressClass',
  'node.k8s.io/RuntimeClass',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
]);

export function isContextKind(group: string, kind: string): boolean {
  return CONTEXT_KINDS.has(`${group}/${kind}`);
}

/** What a document is about: enough to decide what it depends on. */
export interface DocumentIdentity {
  group: string;
  kind: string;
  /** "" for cluster-scoped kinds; "default" when a namespaced document names none. */
  namespace: string;
  /** Absent for generateName documents: they never name an existing object. */
  name?: string;
  /** A Service that asks for a given cluster IP or node port: a later Service may collide with it. */
  claimsAllocations: boolean;
}

export function identityKey(id: DocumentIdentity): string | undefined {
  return id.name === undefined ? undefined : `${id.group}/${id.kind}/${id.namespace}/${id.name}`;
}

export function claimsServiceAllocations(group: string, kind: string, obj: JsonObject): boolean {
  if (group !== '' || kind !== 'Service' || !isObject(obj.spec)) return false;
  const spec = obj.spec;
  const ip = (v: unknown) => typeof v === 'string' && v !== '' && v !== 'None';
  if (ip(spec.clusterIP) || (Array.isArray(spec.clusterIPs) && spec.clusterIPs.some(ip))) return true;
  return Array.isArray(spec.ports) && spec.ports.some((p) => isObject(p) && p.nodePort !== undefined && p.nodePort !== 0);
}

/** Whether `earlier`, once stored, can change the outcome for `later`. */
export function affects(earlier: DocumentIdentity, later: DocumentIdentity): boolean {
  const a = identityKey(earlier);
  if (a !== undefined && a === identityKey(later)) return true;
  if (earlier.claimsAllocations) return later.group === '' && later.kind === 'Service';
  if (!isContextKind(earlier.group, earlier.kind)) return false;
  if (earlier.group === '' && earlier.kind === 'Namespace') return later.namespace === earlier.name;
  return earlier.namespace === '' || earlier.namespace === later.namespace;
}

/** Documents whose objects must really be stored for the documents below them to be judged right. */
export function persists(id: DocumentIdentity): boolean {
  return id.claimsAllocations || isContextKind(id.group, id.kind);
}
