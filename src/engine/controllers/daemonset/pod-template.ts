/**
 * The pod a DaemonSet runs on a node (pkg/controller/daemon/util): its template with the
 * revision labels, the tolerations every daemon pod gets (it stays on not-ready and unreachable
 * nodes and ignores pressure and cordoning), and a required node affinity pinning it to the node
 * by metadata.name, which the scheduler honours.
 */
import type { PodSpec } from '../../api/generated/core-v1';
import type { OwnerReference } from '../../api/types';
import { deepCopy } from '../../client/clone';
import type { Toleration } from '../../component-helpers/scheduling/types';
import type { Pod } from '../util/types/workload';
import { CONTROLLER_REVISION_HASH_LABEL, POD_TEMPLATE_GENERATION_LABEL, type DaemonSet } from './types';

const DAEMON_TOLERATIONS: readonly Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];
const NETWORK_UNAVAILABLE: Toleration = { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' };

/** AddOrUpdateDaemonPodTolerations: each toleration replaces one with the same key and effect. */
export function withDaemonTolerations(spec: PodSpec): void {
  const add = spec.hostNetwork === true ? [...DAEMON_TOLERATIONS, NETWORK_UNAVAILABLE] : DAEMON_TOLERATIONS;
  let out = [...(Array.isArray(spec.tolerations) ? spec.tolerations : [])];
  for (const t of add) {
    const i = out.findIndex((x) => x.key === t.key && x.effect === t.effect);
    if (i >= 0) out[i] = { ...t };
    else out = [...out, { ...t }];
  }
  spec.tolerations = out;
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: every required term pins metadata.name to the node. */
function pinToNode(spec: PodSpec, nodeName: string): void {
  const field = { key: 'metadata.name', operator: 'In', values: [nodeName] };
  const affinity = spec.affinity ?? {};
  const nodeAffinity = affinity.nodeAffinity ?? {};
  const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = Array.isArray(required?.nodeSelectorTerms) ? required.nodeSelectorTerms : [];
  const pinned = terms.length === 0 ? [{ matchFields: [field] }] : terms.map((t) => ({ ...t, matchFields: [field] }));
  spec.affinity = { ...affinity, nodeAffinity: { ...nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: pinned } } };
}

export function daemonSetControllerRef(ds: DaemonSet): OwnerReference {
  return { apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name ?? '', uid: ds.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** The spec every daemon pod shares, before it is pinned to a node (also what scheduling predicates see). */
export function daemonPodSpec(ds: DaemonSet): PodSpec {
  // Validation requires a template with containers: a stored DaemonSet has a pod spec.
  const spec = deepCopy(ds.spec.template.spec ?? ({} as PodSpec));
  withDaemonTolerations(spec);
  return spec;
}

export function daemonPod(ds: DaemonSet, nodeName: string, hash: string): Pod {
  const meta = ds.spec.template.metadata ?? {};
  const labels: Record<string, string> = { ...(meta.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash, [POD_TEMPLATE_GENERATION_LABEL]: String(ds.metadata.generation ?? 1) };
  const metadata: Pod['metadata'] = { generateName: `${ds.metadata.name ?? ''}-`, namespace: ds.metadata.namespace, labels };
  if (meta.annotations) metadata.annotations = { ...meta.annotations };
  metadata.ownerReferences = [daemonSetControllerRef(ds)];
  const spec = daemonPodSpec(ds);
  pinToNode(spec, nodeName);
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}
