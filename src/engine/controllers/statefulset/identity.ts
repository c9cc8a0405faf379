/**
 * A StatefulSet pod's stable identity (stateful_set_utils.go): name <set>-<ordinal>, hostname
 * the same and subdomain the governing Service, the pod-name and pod-index labels, and one
 * PersistentVolumeClaim per volumeClaimTemplate named <template>-<set>-<ordinal>, mounted by the
 * template's name.
 */
import type { JsonObject, KubeObject, OwnerReference } from '../../api/types';
import { deepCopy } from '../../client/clone';
import type { Pod } from '../util/types/workload';
import { POD_INDEX_LABEL, POD_NAME_LABEL, POD_REVISION_LABEL, type StatefulSet } from './types';

export function podName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata.name ?? ''}-${ordinal}`;
}

/** The ordinal in a pod's name, or -1 when it is not one of the set's names. */
export function ordinalOf(set: StatefulSet, pod: KubeObject): number {
  const prefix = `${set.metadata.name ?? ''}-`;
  const name = pod.metadata.name ?? '';
  if (!name.startsWith(prefix)) return -1;
  const rest = name.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : -1;
}

export function claimName(set: StatefulSet, template: KubeObject, ordinal: number): string {
  return `${template.metadata.name ?? ''}-${set.metadata.name ?? ''}-${ordinal}`;
}

export function statefulSetControllerRef(set: StatefulSet): OwnerReference {
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.metadata.name ?? '', uid: set.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** The claims the pod needs (the set's selector labels added to each template's). */
export function claimsFor(set: StatefulSet, ordinal: number): KubeObject[] {
  const selectorLabels = set.spec.selector?.matchLabels ?? {};
  return (set.spec.volumeClaimTemplates ?? []).map((t) => {
    const claim: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: claimName(set, t, ordinal), namespace: set.metadata.namespace, labels: { ...(t.metadata.labels ?? {}), ...selectorLabels } },
      spec: deepCopy(t.spec ?? {}),
    };
    if (t.metadata.annotations) claim.metadata.annotations = { ...t.metadata.annotations };
    return claim;
  });
}

/** newVersionedStatefulSetPod: the pod for an ordinal from the template of a revision. */
export function newStatefulSetPod(set: StatefulSet, template: StatefulSet['spec']['template'], revisionName: string, ordinal: number): Pod {
  const name = podName(set, ordinal);
  const meta = template?.metadata ?? {};
  const labels = { ...(meta.labels ?? {}), [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal), [POD_REVISION_LABEL]: revisionName };
  const metadata: Pod['metadata'] = { name, namespace: set.metadata.namespace, labels };
  if (meta.annotations) metadata.annotations = { ...meta.annotations };
  metadata.ownerReferences = [statefulSetControllerRef(set)];
  const spec = deepCopy((template?.spec ?? {}) as JsonObject);
  spec.hostname = name;
  if (set.spec.serviceName) spec.subdomain = set.spec.serviceName;
  const claims = set.spec.volumeClaimTemplates ?? [];
  if (claims.length > 0) {
    const names = new Set(claims.map((c) => c.metadata.name));
    const volumes = (Array.isArray(spec.volumes) ? (spec.volumes as JsonObject[]) : []).filter((v) => !names.has(String(v.name)));
    spec.volumes = [...claims.map((c) => ({ name: c.metadata.name ?? '', persistentVolumeClaim: { claimName: claimName(set, c, ordinal) } })), ...volumes];
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: spec as Pod['spec'] };
}
