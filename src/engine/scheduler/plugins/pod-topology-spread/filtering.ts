/**
 * PodTopologySpread filtering: for each DoNotSchedule constraint, the matching pods per topology
 * domain; a node fits when its domain's count (+1 if the pod matches itself) minus the global
 * minimum stays within maxSkew. The two smallest domains are tracked ("critical paths") so the
 * minimum survives the add/remove updates preemption and nominated pods make.
 */
import type { Pod } from '../../api';
import type { NodeInfo } from '../../cache/node-info';
import type { PodInfo } from '../../cache/pod-info';
import type { StateData } from '../../framework/cycle-state';
import { Code, Status } from '../../framework/status';
import { RequiredNodeAffinity } from '../../../component-helpers/scheduling/node-affinity';
import type { Snapshot } from '../../cache/snapshot';
import { countMatching, matchNodeInclusionPolicies, nodeLabelsMatchSpreadConstraints, policiesAreTrivial, type SpreadConstraint } from './common';
import type { DomainCounts } from './domain-counts';
import { own } from '../../../api/own';

export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + ' (missing required label)';

const MAX_INT32 = 2147483647;

/** The two domains with the fewest matching pods, smallest first. */
export class CriticalPaths {
  readonly paths: [{ value: string; num: number }, { value: string; num: number }] = [
    { value: '', num: MAX_INT32 },
    { value: '', num: MAX_INT32 },
  ];

  update(value: string, num: number): void {
    const p = this.paths;
    const existing = value === p[0].value ? p[0] : value === p[1].value ? p[1] : undefined;
    if (existing) {
      existing.num = num;
      if (p[0].num > p[1].num) [p[0], p[1]] = [p[1], p[0]];
    } else if (num < p[0].num) {
      p[1] = p[0];
      p[0] = { value, num };
    } else if (num < p[1].num) {
      p[1] = { value, num };
    }
  }

  clone(): CriticalPaths {
    const c = new CriticalPaths();
    c.paths[0] = { ...this.paths[0] };
    c.paths[1] = { ...this.paths[1] };
    return c;
  }
}

export class PreFilterState implements StateData {
  constructor(
    readonly constraints: readonly SpreadConstraint[],
    readonly tpValueToMatchNum: Map<string, number>[],
    readonly criticalPaths: CriticalPaths[],
  ) {}

  clone(): PreFilterState {
    return new PreFilterState(
      this.constraints,
      this.tpValueToMatchNum.map((m) => new Map(m)),
      this.criticalPaths.map((c) => c.clone()),
    );
  }

  minMatchNum(i: number): number {
    const c = this.constraints[i]!;
    if (this.tpValueToMatchNum[i]!.size < c.minDomains) return 0;
    return this.criticalPaths[i]!.paths[0].num;
  }

  /** AddPod/RemovePod: a pod appears on or leaves `node` (nominated pods, preemption victims). */
  updateWithPod(updated: PodInfo, preemptor: Pod, node: NodeInfo, delta: 1 | -1): void {
    if (updated.namespace !== preemptor.metadata.namespace || !node.node) return;
    if (!nodeLabelsMatchSpreadConstraints(node.labels, this.constraints)) return;
    const required = new RequiredNodeAffinity(preemptor);
    this.constraints.forEach((c, i) => {
      if (!c.selector.matches(updated.labels)) return;
      if (!matchNodeInclusionPolicies(c, preemptor, node, required)) return;
      const v = own(node.labels, c.topologyKey)!;
      const n = (this.tpValueToMatchNum[i]!.get(v) ?? 0) + delta;
      this.tpValueToMatchNum[i]!.set(v, n);
      this.criticalPaths[i]!.update(v, n);
    });
  }
}

export function calPreFilterState(pod: Pod, constraints: readonly SpreadConstraint[], snapshot: Snapshot, domains: DomainCounts): PreFilterState {
  const required = new RequiredNodeAffinity(pod);
  const ns = pod.metadata.namespace;
  const requiredKeys = constraints.map((c) => c.topologyKey).join(',');
  const tpValueToMatchNum = constraints.map((c) => {
    const counted = (node: NodeInfo): boolean => nodeLabelsMatchSpreadConstraints(node.labels, constraints) && matchNodeInclusionPolicies(c, pod, node, required);
    if (policiesAreTrivial(c, required)) return new Map(domains.totals(snapshot, c, ns, requiredKeys, counted));
    const m = new Map<string, number>();
    for (const node of snapshot.list) {
      if (!counted(node)) continue;
      const v = own(node.labels, c.topologyKey)!;
      m.set(v, (m.get(v) ?? 0) + countMatching(node, c, ns));
    }
    return m;
  });
  const criticalPaths = tpValueToMatchNum.map((m) => {
    const cp = new CriticalPaths();
    for (const [v, n] of m) cp.update(v, n);
    return cp;
  });
  return new PreFilterState(constraints, tpValueToMatchNum, criticalPaths);
}

export function filterNode(s: PreFilterState, pod: PodInfo, node: NodeInfo): Status | null {
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    if (!Object.hasOwn(node.labels, c.topologyKey)) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_NODE_LABEL_NOT_MATCH]);
    const selfMatch = c.selector.matches(pod.labels) ? 1 : 0;
    const matchNum = s.tpValueToMatchNum[i]!.get(own(node.labels, c.topologyKey)!) ?? 0;
    if (matchNum + selfMatch - s.minMatchNum(i) > c.maxSkew) return new Status(Code.Unschedulable, [ERR_REASON_CONSTRAINTS_NOT_MATCH]);
  }
  return null;
}
