/**
 * The cluster map's model: where every node box and pod square goes, in world units (CSS
 * pixels at zoom 1), and what each one shows. It is a packing of boxes, done here by hand:
 * nodes are grouped by zone (topology.kubernetes.io/zone) into panels that flow left to right;
 * inside a panel the node boxes sit on a grid of columns, each row as tall as its tallest box;
 * inside a box the pods are squares on a grid, grouped by their controller (owner) and
 * outlined per group; pods not bound to a node sit in the "scheduling queue" lane on top.
 *
 * Everything drawn is read off the state at one revision (webview/model/history.ts): nothing
 * is inferred. A node's requested amounts are the sums of its bound, unfinished pods' requests
 * (kubectl describe node's "Allocated resources").
 *
 * The model is the map's hit-test layer too: `nodeAt`, `podAt` answer which box or square is
 * under a world point; the UI tests query them through the map view.
 */
import type { NodeView, PodView, ReplicaSetView } from '../../src/protocol/cluster-state';
import type { Selector } from '../../src/protocol/selectors';
import type { ClusterState } from './history';
import { PodTable } from './pod-table';
import { nodeState, POD_TONES, type NodeState, type PodTone } from './tones';

export const NODE_W = 264;
export const PAD = 8;
/** Name line, status line, and three bars (CPU, memory, pods). */
export const HEADER_H = 22 + 16 + 3 * 12 + 6;
export const CELL = 14;
export const SQUARE = 11;
export const GAP = 14;
export const ZONE_HEADER_H = 26;
export const QUEUE_HEADER_H = 26;
/** Room under a box's pods for the scheduler's verdict, while a pod is selected. */
export const VERDICT_H = 34;
const COLS = Math.floor((NODE_W - 2 * PAD + (CELL - SQUARE)) / CELL);

export interface PodCell {
  readonly key: string;
  readonly view: PodView;
  readonly tone: PodTone;
  /** Top-left of the square, world units. */
  readonly x: number;
  readonly y: number;
  /** The node box it is in; undefined in the scheduling queue. */
  readonly node: string | undefined;
  /** Index of its owner group within its box (or the queue). */
  readonly group: number;
  /** The owner group's label: "ReplicaSet web-7d4b9c" or "no controller". */
  readonly owner: string;
  /** It matches the filters (non-matching pods are drawn faint, in place). */
  readonly matches: boolean;
}

export interface Usage {
  readonly requested: number;
  readonly allocatable: number;
}

export interface NodeBox {
  readonly name: string;
  readonly view: NodeView;
  readonly state: NodeState;
  readonly zone: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly cpu: Usage;
  readonly memory: Usage;
  readonly pods: Usage;
  readonly cells: readonly PodCell[];
  /** Where the pod grid starts and how many squares a row holds. */
  readonly gridX: number;
  readonly gridY: number;
  readonly cols: number;
  /** Some pod on it matches the filters (or no filter is set). */
  readonly matches: boolean;
}

export interface ZonePanel {
  readonly zone: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly nodes: number;
}

export interface QueueLane {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly cells: readonly PodCell[];
  readonly gridX: number;
  readonly gridY: number;
  readonly cols: number;
}

export interface MapFilters {
  /** '' for every namespace. */
  readonly namespace: string;
  /** A parsed kubectl -l selector, or undefined for none. */
  readonly selector?: Selector;
  /** "Deployment/web", "ReplicaSet/web-7d4b9c" (pods it controls, directly or through its ReplicaSets), or ''. */
  readonly owner: string;
}

export const NO_FILTERS: MapFilters = { namespace: '', owner: '' };

export interface MapModel {
  readonly revision: number;
  readonly width: number;
  readonly height: number;
  readonly queue: QueueLane;
  readonly zones: readonly ZonePanel[];
  readonly nodes: readonly NodeBox[];
  readonly byNode: ReadonlyMap<string, NodeBox>;
  /** Every pod square, by "namespace/name". */
  readonly cells: ReadonlyMap<string, PodCell>;
  readonly toneCounts: Readonly<Record<PodTone, number>>;
  /** Pods matching the filters / all pods. */
  readonly matching: number;
  readonly total: number;
  /** The owners present, for the owner filter: "Deployment/web", "ReplicaSet/web-7d4b9c", ... */
  readonly owners: readonly string[];
  readonly namespaces: readonly string[];
  nodeAt(x: number, y: number): NodeBox | undefined;
  podAt(x: number, y: number): PodCell | undefined;
}

const collator = new Intl.Collator('en', { numeric: true });

/** Node names in display order, ranked once per new name (Intl.Collator is slow to call 10,000 times a jump). */
let nodeRanks = new Map<string, number>();
function nodeRank(name: string): number {
  let r = nodeRanks.get(name);
  if (r === undefined) {
    const names = [...nodeRanks.keys(), name].sort(collator.compare);
    nodeRanks = new Map(names.map((n, i) => [n, i]));
    r = nodeRanks.get(name)!;
  }
  return r;
}

/** The owners a pod answers to: its controller, and that controller's controller (Deployment of a ReplicaSet). */
function ownersOf(p: PodView, replicaSets: ReadonlyMap<string, ReplicaSetView>): string[] {
  if (!p.owner) return [];
  const out = [`${p.owner.kind}/${p.owner.name}`];
  if (p.owner.kind === 'ReplicaSet') {
    const rs = replicaSets.get(`${p.namespace ?? ''}/${p.owner.name}`);
    if (rs?.owner) out.push(`${rs.owner.kind}/${rs.owner.name}`);
  }
  return out;
}

/** Control-plane nodes first, then by name (numbers in names compared as numbers). */
function sortNodes(nodes: Iterable<NodeView>): NodeView[] {
  const keyed: { n: NodeView; k: number }[] = [];
  for (const n of nodes) keyed.push({ n, k: (n.roles.includes('control-plane') ? 0 : 1) * 2 ** 31 + nodeRank(n.name) });
  keyed.sort((a, b) => a.k - b.k);
  return keyed.map((e) => e.n);
}

function gridRows(count: number, cols: number): number {
  return Math.max(1, Math.ceil(count / cols));
}

export interface LayoutOptions {
  /** The viewport's width / height, to choose how many columns of boxes to make. */
  readonly aspect: number;
  /** The viewport's width in CSS pixels: at least as many boxes per row as fit in it at zoom 1. */
  readonly viewportWidth: number;
  /** Leave room in every box for a scheduler verdict (a pod is selected). */
  readonly verdicts?: boolean;
}

/** The pods at the state's revision, bucketed by node in the map's order (read once per layout, whatever the columns tried). */
interface Gathered {
  readonly table: PodTable;
  /** Rows of the bound pods, node after node, each node's in the map's order. */
  readonly bound: Int32Array;
  /** Where each node id's rows start in `bound`, and how many there are. */
  readonly start: Int32Array;
  readonly count: Int32Array;
  /** Rows of the pods in the scheduling queue (not bound, not finished). */
  readonly queued: Int32Array;
  readonly owners: readonly string[];
  readonly namespaces: readonly string[];
}

function gather(state: ClusterState): Gathered {
  const slots = state.podSlots ?? PodTable.of(state.pods);
  const t = slots.table;
  const cur = slots.cur;
  const order = t.order();
  const nodeIds = t.nodeNames.length;
  const rows = new Int32Array(t.pods);
  const count = new Int32Array(nodeIds);
  const ownerSeen = new Uint8Array(t.ownerLabels.length);
  const nsSeen = new Uint8Array(t.namespaces.length);
  let n = 0;
  let queuedN = 0;
  // One pass over the pods in the map's order: which are there, and on which node.
  for (let r = 0; r < order.length; r++) {
    const pair = order[r]!;
    const pod = t.podOfPair(pair);
    const row = cur[pod]!;
    if (row < 0 || t.pair(row) !== pair) continue;
    rows[n++] = row;
    ownerSeen[t.owner(row)] = 1;
    nsSeen[t.namespaceOf(pod)] = 1;
    const node = t.node(row);
    if (node >= 0) count[node]!++;
    else if (t.holds(row)) queuedN++;
  }
  const start = new Int32Array(nodeIds);
  let total = 0;
  for (let i = 0; i < nodeIds; i++) {
    start[i] = total;
    total += count[i]!;
  }
  // A counting sort by node keeps each node's pods in the map's order.
  const bound = new Int32Array(total);
  const fill = start.slice();
  const queued = new Int32Array(queuedN);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    const node = t.node(row);
    if (node >= 0) bound[fill[node]!++] = row;
    else if (t.holds(row)) queued[q++] = row;
  }
  const owners = new Set<string>();
  for (let o = 0; o < ownerSeen.length; o++) if (ownerSeen[o]) {
    const ref = t.ownerRefs[o];
    if (ref) owners.add(ref);
  }
  for (const rs of state.replicaSets.values()) if (rs.owner && owners.has(`ReplicaSet/${rs.name}`)) owners.add(`${rs.owner.kind}/${rs.owner.name}`);
  const namespaces: string[] = [];
  for (let i = 0; i < nsSeen.length; i++) if (nsSeen[i] && t.namespaces[i]) namespaces.push(t.namespaces[i]!);
  return { table: t, bound, start, count, queued, owners: [...owners].sort(collator.compare), namespaces: namespaces.sort(collator.compare) };
}

/** Viewport height / width known: try each column count of a small cluster and keep the one that shows it largest. */
export function layoutMap(state: ClusterState, filters: MapFilters, options: LayoutOptions & { readonly viewportHeight?: number }): MapModel {
  const n = state.nodes.size;
  const vh = options.viewportHeight;
  const pods = gather(state);
  if (vh === undefined || n === 0 || n > 48) return layoutWith(state, pods, filters, options, undefined);
  let best: MapModel | undefined;
  let bestScale = 0;
  for (let cols = 1; cols <= n; cols++) {
    const m = layoutWith(state, pods, filters, options, cols);
    const scale = Math.min(options.viewportWidth / m.width, vh / m.height);
    if (scale > bestScale * 1.02) {
      best = m;
      bestScale = scale;
    }
  }
  return best!;
}

function layoutWith(state: ClusterState, pods: Gathered, filters: MapFilters, options: LayoutOptions, forcedColumns: number | undefined): MapModel {
  const filtering = filters.namespace !== '' || filters.selector !== undefined || filters.owner !== '';
  const matches = (p: PodView, os: string[]): boolean =>
    (filters.namespace === '' || p.namespace === filters.namespace) &&
    (filters.selector === undefined || filters.selector.matches(p.labels)) &&
    (filters.owner === '' || os.includes(filters.owner));
  const t = pods.table;

  const toneCounts = Object.fromEntries(POD_TONES.map((tone) => [tone, 0])) as Record<PodTone, number>;
  let matching = 0;
  let total = 0;
  // Groups in the order of their owners' names; within a group, by namespace and name (the
  // table's order). `rows` from `from`, `n` of them.
  const place = (rows: Int32Array, from: number, n: number, gridX: number, gridY: number, cols: number, node: string | undefined): PodCell[] => {
    const out: PodCell[] = new Array(n);
    let group = -1;
    let last = '';
    for (let i = 0; i < n; i++) {
      const row = rows[from + i]!;
      const p = t.view(row);
      const owner = t.ownerLabels[t.owner(row)]!;
      if (owner !== last) {
        group++;
        last = owner;
      }
      const tone = t.tone(row);
      const m = !filtering || matches(p, ownersOf(p, state.replicaSets));
      out[i] = { key: t.keys[t.podOf(row)]!, view: p, tone, x: gridX + (i % cols) * CELL, y: gridY + Math.floor(i / cols) * CELL, node, group, owner, matches: m };
      toneCounts[tone]++;
      total++;
      if (m) matching++;
    }
    return out;
  };
  const onNode = (name: string): { from: number; n: number } => {
    const id = t.nodeIdOf(name);
    return id === undefined ? { from: 0, n: 0 } : { from: pods.start[id]!, n: pods.count[id]! };
  };

  // Zones and their nodes.
  const nodes = sortNodes(state.nodes.values());
  const zoneNames = [...new Set(nodes.map((n) => n.zone ?? ''))].sort((a, b) => (a === '' ? 1 : b === '' ? -1 : collator.compare(a, b)));
  const heights = new Map<NodeView, number>();
  for (const n of nodes) heights.set(n, HEADER_H + gridRows(onNode(n.name).n, COLS) * CELL + PAD + (options.verdicts ? VERDICT_H : 0));
  const heightOf = (n: NodeView) => heights.get(n)!;
  const avgH = nodes.length ? nodes.reduce((s, n) => s + heightOf(n), 0) / nodes.length : HEADER_H;
  const fit = Math.max(1, Math.floor((options.viewportWidth - GAP) / (NODE_W + GAP)));
  const squarish = Math.ceil(Math.sqrt((nodes.length * options.aspect * (avgH + GAP)) / (NODE_W + GAP)));
  const columns = forcedColumns ?? Math.max(1, Math.min(nodes.length, Math.max(fit, squarish)));
  // Each zone gets columns in proportion to its nodes, so that the panels fill a row together.
  const zoneColumns = (members: number) => Math.max(1, Math.min(members, Math.round((columns * members) / Math.max(1, nodes.length))));
  const rowWidth = columns * (NODE_W + GAP) + GAP;

  const boxes: NodeBox[] = [];
  const zones: ZonePanel[] = [];
  // Zone panels are placed after the queue lane, whose height depends on the world's width.
  const panels: { zone: string; w: number; h: number; members: { n: NodeView; dx: number; dy: number; h: number }[] }[] = [];
  for (const zone of zoneNames) {
    const members = nodes.filter((n) => (n.zone ?? '') === zone);
    const cols = zoneNames.length === 1 ? Math.min(members.length, columns) : zoneColumns(members.length);
    const placed: { n: NodeView; dx: number; dy: number; h: number }[] = [];
    let dy = ZONE_HEADER_H;
    for (let i = 0; i < members.length; i += cols) {
      const row = members.slice(i, i + cols);
      const rowH = Math.max(...row.map(heightOf));
      row.forEach((n, j) => placed.push({ n, dx: GAP + j * (NODE_W + GAP), dy, h: heightOf(n) }));
      dy += rowH + GAP;
    }
    panels.push({ zone, w: cols * (NODE_W + GAP) + GAP, h: dy, members: placed });
  }
  // A row of panels may be a little wider than a row of boxes: each panel has its own margins.
  const worldW = Math.max(rowWidth + zoneNames.length * 2 * GAP, ...panels.map((p) => p.w), NODE_W + 2 * GAP);

  // The scheduling queue lane.
  const queueCols = Math.max(1, Math.floor((worldW - 2 * GAP + (CELL - SQUARE)) / CELL));
  const queued = pods.queued;
  const queueH = QUEUE_HEADER_H + (queued.length ? gridRows(queued.length, queueCols) * CELL : 0) + PAD;
  const queueCells = place(queued, 0, queued.length, GAP, QUEUE_HEADER_H, queueCols, undefined);
  const queue: QueueLane = { x: 0, y: 0, w: worldW, h: queueH, cells: queueCells, gridX: GAP, gridY: QUEUE_HEADER_H, cols: queueCols };

  // Shelf packing of the zone panels below it.
  let x = 0;
  let y = queueH + GAP;
  let shelfH = 0;
  for (const panel of panels) {
    if (x > 0 && x + panel.w > worldW) {
      x = 0;
      y += shelfH + GAP;
      shelfH = 0;
    }
    zones.push({ zone: panel.zone, x, y, w: panel.w, h: panel.h, nodes: panel.members.length });
    for (const m of panel.members) {
      const bx = x + m.dx;
      const by = y + m.dy;
      const on = onNode(m.n.name);
      const gridX = bx + PAD;
      const gridY = by + HEADER_H;
      const placed = place(pods.bound, on.from, on.n, gridX, gridY, COLS, m.n.name);
      let cpu = 0;
      let memory = 0;
      let count = 0;
      for (let i = on.from; i < on.from + on.n; i++) {
        const row = pods.bound[i]!;
        if (!t.holds(row)) continue;
        cpu += t.cpu(row);
        memory += t.memory(row);
        count++;
      }
      boxes.push({
        name: m.n.name,
        view: m.n,
        state: nodeState(m.n, state.machines.get(m.n.name)),
        zone: panel.zone,
        x: bx,
        y: by,
        w: NODE_W,
        h: m.h,
        cpu: { requested: cpu, allocatable: m.n.allocatable.milliCPU },
        memory: { requested: memory, allocatable: m.n.allocatable.memory },
        pods: { requested: count, allocatable: m.n.allocatable.pods },
        cells: placed,
        gridX,
        gridY,
        cols: COLS,
        matches: !filtering || placed.some((c) => c.matches),
      });
    }
    x += panel.w + GAP;
    shelfH = Math.max(shelfH, panel.h);
  }
  const height = y + shelfH + GAP;
  const byNode = new Map(boxes.map((b) => [b.name, b]));
  let cellIndex: Map<string, PodCell> | undefined;
  const index = new BoxIndex(boxes);

  const cellIn = (gridX: number, gridY: number, cols: number, list: readonly PodCell[], px: number, py: number): PodCell | undefined => {
    const cx = Math.floor((px - gridX) / CELL);
    const cy = Math.floor((py - gridY) / CELL);
    if (cx < 0 || cy < 0 || cx >= cols) return undefined;
    // The gap between squares belongs to no pod.
    if (px - gridX - cx * CELL > SQUARE || py - gridY - cy * CELL > SQUARE) return undefined;
    return list[cy * cols + cx];
  };

  return {
    revision: state.revision,
    width: worldW,
    height,
    queue,
    zones,
    nodes: boxes,
    byNode,
    // Built on first use: the draw asks for one or two keys, the tests for all.
    get cells(): ReadonlyMap<string, PodCell> {
      if (!cellIndex) {
        cellIndex = new Map();
        for (const c of queueCells) cellIndex.set(c.key, c);
        for (const b of boxes) for (const c of b.cells) cellIndex.set(c.key, c);
      }
      return cellIndex;
    },
    toneCounts,
    matching,
    total,
    owners: pods.owners,
    namespaces: pods.namespaces,
    nodeAt: (px, py) => index.at(px, py),
    podAt(px, py) {
      if (px >= queue.x && px < queue.x + queue.w && py >= queue.y && py < queue.y + queue.h) return cellIn(queue.gridX, queue.gridY, queue.cols, queue.cells, px, py);
      const box = index.at(px, py);
      return box ? cellIn(box.gridX, box.gridY, box.cols, box.cells, px, py) : undefined;
    },
  };
}

/** A uniform grid over the boxes: the ones under a point, without looking at every box. */
class BoxIndex {
  private readonly size = 512;
  private readonly buckets = new Map<number, NodeBox[]>();

  constructor(boxes: readonly NodeBox[]) {
    for (const b of boxes) {
      for (let gx = Math.floor(b.x / this.size); gx <= Math.floor((b.x + b.w) / this.size); gx++) {
        for (let gy = Math.floor(b.y / this.size); gy <= Math.floor((b.y + b.h) / this.size); gy++) {
          const k = gx * 100_003 + gy;
          let list = this.buckets.get(k);
          if (!list) this.buckets.set(k, (list = []));
          list.push(b);
        }
      }
    }
  }

  at(x: number, y: number): NodeBox | undefined {
    const list = this.buckets.get(Math.floor(x / this.size) * 100_003 + Math.floor(y / this.size));
    return list?.find((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h);
  }
}
