/**
 * nodeTree: nodes grouped by zone. The snapshot lists nodes by taking one from each zone in turn,
 * so the scheduler's search (which stops after enough feasible nodes) spreads over zones.
 */
import type { Node } from '../api';
import { LABEL_TOPOLOGY_REGION, LABEL_TOPOLOGY_ZONE } from '../api';

const LEGACY_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const LEGACY_REGION = 'failure-domain.beta.kubernetes.io/region';

/** utilnode.GetZoneKey: "region:\x00:zone", or "" for a node with neither label. */
export function zoneKey(node: Node): string {
  const labels = node.metadata.labels ?? {};
  const zone = labels[LABEL_TOPOLOGY_ZONE] ?? labels[LEGACY_ZONE] ?? '';
  const region = labels[LABEL_TOPOLOGY_REGION] ?? labels[LEGACY_REGION] ?? '';
  if (zone === '' && region === '') return '';
  return `${region}:\x00:${zone}`;
}

export class NodeTree {
  private readonly tree = new Map<string, string[]>();
  private zones: string[] = [];
  numNodes = 0;

  add(node: Node): void {
    const zone = zoneKey(node);
    const names = this.tree.get(zone);
    const name = node.metadata.name;
    if (names) {
      if (names.includes(name)) return;
      names.push(name);
    } else {
      this.zones.push(zone);
      this.tree.set(zone, [name]);
    }
    this.numNodes++;
  }

  remove(node: Node): void {
    const zone = zoneKey(node);
    const names = this.tree.get(zone);
    if (!names) return;
    const i = names.indexOf(node.metadata.name);
    if (i < 0) return;
    names.splice(i, 1);
    if (names.length === 0) {
      this.tree.delete(zone);
      this.zones = this.zones.filter((z) => z !== zone);
    }
    this.numNodes--;
  }

  update(oldNode: Node, newNode: Node): void {
    if (zoneKey(oldNode) === zoneKey(newNode)) return;
    this.remove(oldNode);
    this.add(newNode);
  }

  /** The node names, one zone at a time in round robin. */
  list(): string[] {
    const out: string[] = [];
    const lists = this.zones.map((z) => this.tree.get(z)!);
    for (let i = 0; out.length < this.numNodes; i++) {
      for (const names of lists) if (i < names.length) out.push(names[i]!);
    }
    return out;
  }
}
