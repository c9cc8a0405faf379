/** The pod a ReplicaSet creates from its template (GetPodFromTemplate in controller_utils.go). */
import type { OwnerReference } from '../../api/types';
import type { Pod, ReplicaSet } from '../util/types/workload';

/** metav1.NewControllerRef for a ReplicaSet. */
export function replicaSetControllerRef(rs: ReplicaSet): OwnerReference {
  return { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name ?? '', uid: rs.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** "<name>-", unless that is too long to be a name prefix (the API server validates it with a trailing character). */
export function podNamePrefix(controllerName: string): string {
  const prefix = `${controllerName}-`;
  return prefix.length + 1 <= 253 ? prefix : controllerName;
}

export function podFromTemplate(rs: ReplicaSet): Pod {
  const template = rs.spec.template ?? {};
  const meta = template.metadata ?? {};
  const metadata: Pod['metadata'] = { generateName: podNamePrefix(rs.metadata.name ?? ''), namespace: rs.metadata.namespace };
  if (meta.labels) metadata.labels = { ...meta.labels };
  if (meta.annotations) metadata.annotations = { ...meta.annotations };
  metadata.ownerReferences = [replicaSetControllerRef(rs)];
  if (meta.finalizers) metadata.finalizers = [...meta.finalizers];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(template.spec ?? { containers: [] }) };
}
