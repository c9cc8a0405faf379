/**
 * Workload load that the ready pods of a workload share, the way a Service spreads requests over
 * its ready endpoints: the `cpu-load=` behavior term. Pods carry the same load when they are in
 * the same namespace and carry the same behavior annotation (the pods of a Deployment, across
 * its ReplicaSets, while its template's annotation stays the same). One registry serves every
 * kubelet of a cluster, so that a pod on one node sees its siblings on the others.
 *
 * A group's curve counts time from when its first pod joined (was admitted to a node), as long
 * as the group has pods.
 */

export interface LoadMember {
  /** Ready to serve: receives its share of the load. */
  servingReady(): boolean;
}

interface Group {
  readonly origin: number;
  readonly members: Set<LoadMember>;
  /** readyCount memo for one instant (every node is sampled at the same instant). */
  countAt?: number;
  count?: number;
}

export class SharedLoad {
  private readonly groups = new Map<string, Group>();

  /** The group key of a pod: its namespace and its behavior annotation. */
  static key(namespace: string, annotation: string): string {
    return `${namespace}\n${annotation}`;
  }

  join(key: string, member: LoadMember, now: number): void {
    let g = this.groups.get(key);
    if (!g) {
      g = { origin: now, members: new Set() };
      this.groups.set(key, g);
    }
    g.members.add(member);
    g.countAt = undefined;
  }

  leave(key: string, member: LoadMember): void {
    const g = this.groups.get(key);
    if (!g) return;
    g.members.delete(member);
    g.countAt = undefined;
    if (g.members.size === 0) this.groups.delete(key);
  }

  /** When the group's curve started; undefined for a group without pods. */
  origin(key: string): number | undefined {
    return this.groups.get(key)?.origin;
  }

  /** How many of the group's pods are ready at `now`. */
  readyCount(key: string, now: number): number {
    const g = this.groups.get(key);
    if (!g) return 0;
    if (g.countAt === now && g.count !== undefined) return g.count;
    let n = 0;
    for (const m of g.members) if (m.servingReady()) n++;
    g.countAt = now;
    g.count = n;
    return n;
  }
}
