/**
 * Why each node was rejected (framework.NodeToStatus, Diagnosis) and the message kube-scheduler
 * builds from it (FitError.Error()): "0/N nodes are available: <count> <reason>, ...", reasons
 * counted across nodes and sorted as strings, then the PostFilter (preemption) message.
 */
import type { NodeInfo } from '../cache/node-info';
import { Code, Status } from './status';

export const NO_NODE_AVAILABLE = (n: number): string => `0/${n} nodes are available`;

export class NodeToStatus {
  private readonly map = new Map<string, Status>();
  /** The status of every node not named in the map (nodes a PreFilter result excluded). */
  absentNodesStatus = new Status(Code.UnschedulableAndUnresolvable);

  set(node: string, status: Status): void {
    this.map.set(node, status);
  }

  get(node: string): Status {
    return this.map.get(node) ?? this.absentNodesStatus;
  }

  has(node: string): boolean {
    return this.map.has(node);
  }

  len(): number {
    return this.map.size;
  }

  entries(): IterableIterator<[string, Status]> {
    return this.map.entries();
  }

  /** The nodes whose status has `code`, absent nodes included when the absent status has it. */
  nodesForStatusCode(allNodes: readonly NodeInfo[], code: Code): NodeInfo[] {
    if (this.absentNodesStatus.code === code) {
      if (this.map.size === 0) return allNodes.slice();
      return allNodes.filter((n) => this.get(n.name).code === code);
    }
    const byName = new Map(allNodes.map((n) => [n.name, n] as const));
    const out: NodeInfo[] = [];
    for (const [name, s] of this.map) {
      const info = byName.get(name);
      if (s.code === code && info) out.push(info);
    }
    return out;
  }
}

export class Diagnosis {
  readonly nodeToStatus = new NodeToStatus();
  /** Plugins that rejected the pod: only their events can make it schedulable. */
  unschedulablePlugins = new Set<string>();
  pendingPlugins = new Set<string>();
  preFilterMsg = '';
  postFilterMsg = '';

  addPluginStatus(s: Status): void {
    if (!s.plugin) return;
    if (s.isRejected()) this.unschedulablePlugins.add(s.plugin);
    if (s.code === Code.Pending) this.pendingPlugins.add(s.plugin);
  }
}

/** FitError.Error(). */
export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg = NO_NODE_AVAILABLE(numAllNodes) + ':';
  if (d.preFilterMsg !== '') {
    msg += ` ${d.preFilterMsg}.`;
  } else {
    const reasons = new Map<string, number>();
    for (const [, status] of d.nodeToStatus.entries()) {
      for (const r of status.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
    const absent = numAllNodes - d.nodeToStatus.len();
    if (absent > 0) {
      for (const r of d.nodeToStatus.absentNodesStatus.reasons) reasons.set(r, (reasons.get(r) ?? 0) + absent);
    }
    const histogram = [...reasons].map(([r, n]) => `${n} ${r}`).sort();
    if (histogram.length > 0) msg += ` ${histogram.join(', ')}.`;
  }
  if (d.postFilterMsg !== '') msg += ` ${d.postFilterMsg}`;
  return msg;
}
