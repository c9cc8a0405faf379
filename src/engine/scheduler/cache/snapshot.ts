/**
 * The per-cycle view of the cluster (cache.Snapshot): the NodeInfos in node-tree order plus the
 * short lists the affinity plugins iterate. A scheduling cycle reads only this, never the live
 * cache, so what one cycle sees cannot change under it.
 */
import type { NodeInfo } from './node-info';

export class Snapshot {
  readonly nodeInfoMap = new Map<string, NodeInfo>();
  list: NodeInfo[] = [];
  havePodsWithAffinityList: NodeInfo[] = [];
  havePodsWithRequiredAntiAffinityList: NodeInfo[] = [];

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
