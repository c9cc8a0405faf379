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
import { own } from '../../../api/own';

interface Entry {
  update: number;
  /** Per node, by its position in the snapshot's list: its domain (undefined: not counted) and matching pods. */
  readonly values: (string | undefined)[];
  readonly counts: Int32Array;
  /** Matching pods per domain, for every domain a counted node is in. */
  readonly totals: Map<string, number>;
  /** Counted nodes per domain: a domain without nodes is gone. */
  readonly nodes: Map<string, number>;
}

/** Workloads whose pods take turns in the queue, each kept at a domain and a count per node. */
const MAX_ENTRIES = 512;

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
      entry = { update: snapshot.updates, values: new Array<string | undefined>(snapshot.list.length), counts: new Int32Array(snapshot.list.length), totals: new Map(), nodes: new Map() };
      for (let i = 0; i < snapshot.list.length; i++) this.count(entry, i, snapshot.list[i]!, c, namespace, counted);
    } else {
      // The list has not changed since the entry was made: a changed node not in it was never counted.
      for (const name of new Set(changed)) {
        const i = snapshot.position(name);
        if (i === undefined) continue;
        this.uncount(entry, i);
        this.count(entry, i, snapshot.list[i]!, c, namespace, counted);
      }
      entry.update = snapshot.updates;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return entry.totals;
  }

  private count(e: Entry, i: number, node: NodeInfo, c: SpreadConstraint, namespace: string, counted: (node: NodeInfo) => boolean): void {
    if (!counted(node)) {
      e.values[i] = undefined;
      e.counts[i] = 0;
      return;
    }
    const value = own(node.labels, c.topologyKey) ?? '';
    const count = countMatching(node, c, namespace);
    e.values[i] = value;
    e.counts[i] = count;
    e.totals.set(value, (e.totals.get(value) ?? 0) + count);
    e.nodes.set(value, (e.nodes.get(value) ?? 0) + 1);
  }

  private uncount(e: Entry, i: number): void {
    const value = e.values[i];
    if (value === undefined) return;
    e.values[i] = undefined;
    const nodes = (e.nodes.get(value) ?? 0) - 1;
    if (nodes <= 0) {
      e.nodes.delete(value);
      e.totals.delete(value);
      return;
    }
    e.nodes.set(value, nodes);
    e.totals.set(value, (e.totals.get(value) ?? 0) - e.counts[i]!);
  }
}
