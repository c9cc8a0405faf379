/**
 * Matching pods per topology domain over all nodes, kept across cycles. Every cycle of a pod with
 * spreading counts one selector's pods on every node (upstream does, in parallel); consecutive
 * pods of one workload share the selector, and between two cycles only a few nodes change. So
 * the totals are kept per (namespace, selector, topology key) and refreshed from the nodes the
 * snapshot reports as changed. Only nodes every pod counts alike are cached (no inclusion
 * policy depends on the pod); for other pods the caller counts directly.
 */
import type { NodeInfo } from '../../cache/node-info';
import type { Snapshot } from '../../cache/snapshot';
import { countMatching, type SpreadConstraint } from './common';

interface Entry {
  update: number;
  /** Per node: its domain (undefined: not counted) and matching pods. */
  readonly perNode: Map<string, { value: string | undefined; count: number }>;
  /** Matching pods per domain, for every domain a counted node is in. */
  readonly totals: Map<string, number>;
  /** Counted nodes per domain: a domain without nodes is gone. */
  readonly nodes: Map<string, number>;
}

const MAX_ENTRIES = 64;

export class DomainCounts {
  private readonly entries = new Map<string, Entry>();

  /**
   * Totals per domain value of `c.topologyKey` over the nodes for which `counted(node)` holds;
   * `counted` must depend on the node only (its labels), the same for every call with this key.
   */
  totals(snapshot: Snapshot, c: SpreadConstraint, namespace: string, requiredKeys: string, counted: (node: NodeInfo) => boolean): ReadonlyMap<string, number> {
    const key = `${c.countKey}\u0000${c.topologyKey}\u0000${requiredKeys}`;
    let entry = this.entries.get(key);
    const changed = entry ? snapshot.changesSince(entry.update) : undefined;
    if (!entry || !changed) {
      entry = { update: snapshot.updates, perNode: new Map(), totals: new Map(), nodes: new Map() };
      for (const node of snapshot.list) this.count(entry, node, c, namespace, counted);
    } else {
      for (const name of new Set(changed)) {
        this.uncount(entry, name);
        const node = snapshot.get(name);
        if (node) this.count(entry, node, c, namespace, counted);
      }
      entry.update = snapshot.updates;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return entry.totals;
  }

  private count(e: Entry, node: NodeInfo, c: SpreadConstraint, namespace: string, counted: (node: NodeInfo) => boolean): void {
    if (!counted(node)) {
      e.perNode.set(node.name, { value: undefined, count: 0 });
      return;
    }
    const value = node.labels[c.topologyKey] ?? '';
    const count = countMatching(node, c, namespace);
    e.perNode.set(node.name, { value, count });
    e.totals.set(value, (e.totals.get(value) ?? 0) + count);
    e.nodes.set(value, (e.nodes.get(value) ?? 0) + 1);
  }

  private uncount(e: Entry, name: string): void {
    const prev = e.perNode.get(name);
    if (!prev) return;
    e.perNode.delete(name);
    if (prev.value === undefined) return;
    const nodes = (e.nodes.get(prev.value) ?? 0) - 1;
    if (nodes <= 0) {
      e.nodes.delete(prev.value);
      e.totals.delete(prev.value);
      return;
    }
    e.nodes.set(prev.value, nodes);
    e.totals.set(prev.value, (e.totals.get(prev.value) ?? 0) - prev.count);
  }
}
