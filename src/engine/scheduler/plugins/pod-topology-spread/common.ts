/**
 * PodTopologySpread's constraints: the pod's own (or, for pods without any, the system defaults
 * spreading over hostname with maxSkew 3 and zone with maxSkew 5 for pods a Service, ReplicaSet,
 * StatefulSet or ReplicationController selects), which nodes count, which pods count.
 */
import { Selector, labelSelectorAsSelector, selectorFromSet, type Labels } from '../../../api/labels';
import { ok, type Result } from '../../../api/result';
import type { Node, Pod, TopologySpreadConstraint } from '../../api';
import { LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE } from '../../api';
import type { NodeInfo } from '../../cache/node-info';
import type { SchedulerListers } from '../../host';
import type { RequiredNodeAffinity } from '../../../component-helpers/scheduling/node-affinity';
import { findUntoleratedTaint, isScheduleBlocking } from '../../../component-helpers/scheduling/taints';
import { assignOwn, setOwn } from '../../../api/own';

export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: Selector;
  /** Names this constraint's per-node count of matching pods (namespace and selector). */
  readonly countKey: string;
  readonly minDomains: number;
  readonly nodeAffinityPolicy: string;
  readonly nodeTaintsPolicy: string;
}

export const SYSTEM_DEFAULT_CONSTRAINTS: readonly TopologySpreadConstraint[] = [
  { topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LABEL_TOPOLOGY_ZONE, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

/** The constraints with this whenUnsatisfiable action, selectors parsed and matchLabelKeys merged in. */
export function filterConstraints(
  constraints: readonly TopologySpreadConstraint[],
  podLabels: Labels,
  namespace: string,
  action: 'DoNotSchedule' | 'ScheduleAnyway',
): Result<SpreadConstraint[]> {
  const out: SpreadConstraint[] = [];
  for (const c of constraints) {
    if (c.whenUnsatisfiable !== action) continue;
    const parsed = labelSelectorAsSelector(c.labelSelector);
    if (!parsed.ok) return parsed;
    let selector = parsed.value;
    const extra: Record<string, string> = {};
    for (const key of c.matchLabelKeys ?? []) if (Object.hasOwn(podLabels, key)) setOwn(extra, key, podLabels[key]!);
    if (Object.keys(extra).length > 0) selector = Selector.of([...selectorFromSet(extra).requirements, ...selector.requirements]);
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      countKey: countKeyOf(namespace, selector),
      minDomains: c.minDomains ?? 1,
      nodeAffinityPolicy: c.nodeAffinityPolicy ?? 'Honor',
      nodeTaintsPolicy: c.nodeTaintsPolicy ?? 'Ignore',
    });
  }
  return ok(out);
}

/**
 * helper.DefaultSelector: the union of the selectors of the Services selecting the pod and of its
 * controller (ReplicaSet, StatefulSet, ReplicationController).
 */
export function defaultSelector(pod: Pod, listers: SchedulerListers): Selector {
  const ns = pod.metadata.namespace;
  const podLabels = pod.metadata.labels ?? {};
  const labelSet: Record<string, string> = {};
  for (const svc of listers.services(ns)) {
    const sel = svc.spec?.selector;
    // A Service without a selector selects nothing, not everything.
    if (!sel) continue;
    if (selectorFromSet(sel).matches(podLabels)) assignOwn(labelSet, sel);
  }
  let selector = selectorFromSet(labelSet);
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller === true);
  if (!owner) return selector;
  const group = owner.apiVersion.includes('/') ? owner.apiVersion.slice(0, owner.apiVersion.indexOf('/')) : '';
  if (group === '' && owner.kind === 'ReplicationController') {
    const rc = listers.replicationController(ns, owner.name);
    if (rc?.spec?.selector) selector = selectorFromSet({ ...labelSet, ...rc.spec.selector });
  } else if (group === 'apps' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const w = owner.kind === 'ReplicaSet' ? listers.replicaSet(ns, owner.name) : listers.statefulSet(ns, owner.name);
    if (w) {
      const other = labelSelectorAsSelector(w.spec?.selector);
      if (other.ok && !other.value.nothing) selector = Selector.of([...selector.requirements, ...other.value.requirements]);
    }
  }
  return selector;
}

/** The default constraints, each with the pod's default selector; none when that selects nothing. */
export function buildDefaultConstraints(pod: Pod, listers: SchedulerListers, action: 'DoNotSchedule' | 'ScheduleAnyway'): SpreadConstraint[] {
  const ns = pod.metadata.namespace;
  const parsed = filterConstraints(SYSTEM_DEFAULT_CONSTRAINTS, pod.metadata.labels ?? {}, ns, action);
  if (!parsed.ok || parsed.value.length === 0) return [];
  const constraints = parsed.value;
  const selector = defaultSelector(pod, listers);
  if (selector.empty()) return [];
  const countKey = countKeyOf(ns, selector);
  return constraints.map((c) => ({ ...c, selector, countKey }));
}

const countKeyOf = (namespace: string, s: Selector): string => `pts\u0000${namespace}\u0000${s.nothing ? '<nothing>' : s.toString()}`;

export function nodeLabelsMatchSpreadConstraints(labels: Labels, constraints: readonly SpreadConstraint[]): boolean {
  for (const c of constraints) if (!Object.hasOwn(labels, c.topologyKey)) return false;
  return true;
}

/** Whether the node counts for this constraint under its nodeAffinityPolicy and nodeTaintsPolicy. */
export function matchNodeInclusionPolicies(c: SpreadConstraint, pod: Pod, node: NodeInfo | Node, required: RequiredNodeAffinity): boolean {
  const name = 'metadata' in node ? node.metadata.name : node.name;
  const labels = 'metadata' in node ? (node.metadata.labels ?? {}) : node.labels;
  if (c.nodeAffinityPolicy === 'Honor' && !required.matches(name, labels)) return false;
  if (c.nodeTaintsPolicy === 'Honor') {
    const taints = 'metadata' in node ? (node.spec?.taints ?? []).filter(isScheduleBlocking) : node.blockingTaints;
    if (findUntoleratedTaint(taints, pod.spec.tolerations) !== undefined) return false;
  }
  return true;
}

/** Whether matchNodeInclusionPolicies is the same for every pod with these constraints (it then depends on the node only). */
export function policiesAreTrivial(c: SpreadConstraint, required: RequiredNodeAffinity): boolean {
  return (c.nodeAffinityPolicy !== 'Honor' || !required.constrained) && c.nodeTaintsPolicy !== 'Honor';
}

/** countPodsMatchSelector: pods of the namespace the selector matches, terminating pods excluded. */
export function countPodsMatchSelector(node: NodeInfo, selector: Selector, namespace: string): number {
  if (selector.empty()) return 0;
  let count = 0;
  for (const p of node.pods) {
    if (p.terminating || p.namespace !== namespace) continue;
    if (selector.matches(p.labels)) count++;
  }
  return count;
}

/** countPodsMatchSelector for a constraint, remembered per node until its pods change. */
export function countMatching(node: NodeInfo, c: SpreadConstraint, namespace: string): number {
  if (node.pods.length === 0) return 0;
  return node.memoized(c.countKey, countForConstraint, { c, namespace });
}

const countForConstraint = (node: NodeInfo, a: { c: SpreadConstraint; namespace: string }): number => countPodsMatchSelector(node, a.c.selector, a.namespace);
