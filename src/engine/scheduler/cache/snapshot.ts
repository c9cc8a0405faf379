/**
 * The per-cycle view of the cluster (cache.Snapshot): the NodeInfos in node-tree order plus the
 * short lists the affinity plugins iterate. A scheduling cycle reads only this, never the live
 * cache, so what one cycle sees cannot change under it.
 */
import type { NodeInfo } from './node-info';

/** How many updates back changesSince() can answer. */
const CHANGE_LOG_SIZE = 1024;

export class Snapshot {
  readonly nodeInfoMap = new Map<string, NodeInfo>();
  list: NodeInfo[] = [];
  havePodsWithAffinityList: NodeInfo[] = [];
  havePodsWithRequiredAntiAffinityList: NodeInfo[] = [];
  /** Counts updates; aggregates built from the snapshot remember the update they saw. */
  updates = 0;
  /** The update at which the set or order of nodes last changed (everything derived is stale). */
  listChangedAt = 0;
  private readonly changeLog: (readonly string[])[] = [];
  /** Each node's index in `list`, as of the last rebuild of the list. */
  private positions = new Map<string, number>();

  /** Records an update: the nodes whose NodeInfo changed, and whether the node list was rebuilt. */
  recordUpdate(changed: readonly string[], listRebuilt: boolean): void {
    this.updates++;
    if (listRebuilt) {
      this.listChangedAt = this.updates;
      this.positions = new Map(this.list.map((n, i) => [n.name, i]));
    }
    this.changeLog[this.updates % CHANGE_LOG_SIZE] = changed;
  }

  /**
   * The nodes changed after update `since` (duplicates possible), or undefined when that is too
   * far back or the node list changed since: then everything must be recomputed.
   */
  changesSince(since: number): string[] | undefined {
    if (since < this.listChangedAt || this.updates - since >= CHANGE_LOG_SIZE) return undefined;
    const out: string[] = [];
    for (let u = since + 1; u <= this.updates; u++) out.push(...this.changeLog[u % CHANGE_LOG_SIZE]!);
    return out;
  }

  /** The node's index in `list`; aggregates kept since the last list rebuild index their per-node data by it. */
  position(name: string): number | undefined {
    return this.positions.get(name);
  }

  get(name: string): NodeInfo | undefined {
    return this.nodeInfoMap.get(name);
  }

  numNodes(): number {
    return this.list.length;
  }

  /** Recomputes the affinity short lists from `list`. */
  rebuildAffinityLists(): void {
    this.havePodsWithAffinityList = this.list.filter((n) => n.podsWithAffinity.length > 0);
    this.havePodsWithRequiredAntiAffinityList = this.list.filter((n) => n.podsWithRequiredAntiAffinity.length > 0);
  }
}
