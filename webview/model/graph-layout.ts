/**
 * Where the object graph's boxes go, computed by ELK's layered algorithm (elkjs). ELK runs where
 * the `Layouter` given to `useLayouter` runs it: in the panel, a Web Worker
 * (webview/ui/elk-worker.ts), so a large graph's layout never blocks the main thread; in the
 * unit tests, ELK on the calling thread. The graph model
 * (webview/model/graph.ts) fixes what ELK must keep:
 * - columns: each kind is an ELK partition, so Deployments, ReplicaSets, Pods, EndpointSlices
 *   and Services stand in that order left to right whatever the edges;
 * - order: within a column the boxes keep the model's order (considerModelOrder with
 *   forceNodeModelOrder), so the new ReplicaSet stays above the old and a change of status
 *   never reshuffles the picture;
 * - ports: an EndpointSlice's endpoints are ports on its left side, one per row, so each
 *   routing edge leaves from its endpoint's row.
 * ELK then places the boxes of each column to keep edges short and straight. Edges for the
 * layout all run left to right (routing and selector edges are given to it reversed); the view
 * draws its own curves between the placed boxes.
 *
 * Layouts are cached by the graph's structure (its boxes, their sizes and order, its edges): a
 * status change, or replay moving back to a structure seen before, reuses the same positions,
 * so nothing moves that did not change.
 */
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { SIZE, type GraphModel } from './graph';

export interface Placed {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface GraphLayout {
  readonly signature: string;
  readonly positions: ReadonlyMap<string, Placed>;
  readonly width: number;
  readonly height: number;
  /** The x of each column present (for its heading), by column index. */
  readonly columns: ReadonlyMap<number, { x: number; w: number }>;
  /** How long ELK took, ms (for a worker: from the graph sent to the positions received). */
  readonly ms: number;
  /** Where ELK ran. */
  readonly thread: 'worker' | 'main';
}

/** Something that runs ELK on a graph: elkjs's API in the tests, its worker in the panel. */
export interface Layouter {
  readonly thread: 'worker' | 'main';
  layout(graph: ElkNode): Promise<ElkNode>;
}

let layouter: Layouter | undefined;

/** Sets where layouts run (once, at start; the cache is kept: positions do not depend on it). */
export function useLayouter(l: Layouter): void {
  layouter = l;
}

/** The top margin the view keeps for the column headings. */
export const HEADING_H = 30;

const OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.partitioning.activate': 'true',
  'elk.separateConnectedComponents': 'false',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.layered.crossingMinimization.forceNodeModelOrder': 'true',
  // The order is fixed, so crossing minimisation has nothing to search for.
  'elk.layered.thoroughness': '1',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.nodePlacement.bk.fixedAlignment': 'BALANCED',
  // The view draws its own edges: ELK's routes are not used.
  'elk.edgeRouting': 'POLYLINE',
  'elk.spacing.nodeNode': '10',
  'elk.layered.spacing.nodeNodeBetweenLayers': '72',
  'elk.padding': `[top=${HEADING_H + 6},left=12,bottom=12,right=12]`,
};

/** The structure a layout depends on: boxes (id, size, column, order) and edges. */
export function layoutSignature(model: GraphModel): string {
  const parts: string[] = [];
  for (const n of model.nodes) parts.push(`${n.id}:${n.column}:${n.order}:${n.w}x${n.h}`);
  parts.push('|');
  for (const e of model.edges) parts.push(e.id);
  return parts.join('\n');
}

const cache = new Map<string, GraphLayout>();
const CACHE_SIZE = 48;

/** The ELK graph for a model (exported for the unit tests). */
export function elkGraph(model: GraphModel): ElkNode {
  const children: ElkNode[] = model.nodes.map((n) => ({
    id: n.id,
    width: n.w,
    height: n.h,
    layoutOptions: {
      'elk.partitioning.partition': String(n.column),
      ...(n.endpoints && n.endpoints.length > 0 ? { 'elk.portConstraints': 'FIXED_POS' } : {}),
    },
    ...(n.endpoints && n.endpoints.length > 0
      ? { ports: n.endpoints.map((r, i) => ({ id: r.id, x: 0, y: SIZE.EndpointSlice.h + i * SIZE.endpointRow + SIZE.endpointRow / 2, width: 1, height: 1, layoutOptions: { 'elk.port.side': 'WEST' } })) }
      : {}),
  }));
  const edges: ElkExtendedEdge[] = [];
  for (const e of model.edges) {
    const from = model.byId.get(e.from);
    const to = model.byId.get(e.to);
    if (!from || !to) continue;
    // Every layout edge runs left to right: the owner to the right (a Service) and the routers
    // (slices, Services) are given reversed.
    const source = from.column <= to.column ? (e.fromPort ?? e.from) : e.to;
    const target = from.column <= to.column ? e.to : (e.fromPort ?? e.from);
    edges.push({ id: e.id, sources: [source], targets: [target] });
  }
  return { id: 'graph', layoutOptions: OPTIONS, children, edges };
}

/** Lays the model out (or answers from the cache). */
export async function layoutGraph(model: GraphModel): Promise<GraphLayout> {
  const signature = layoutSignature(model);
  const hit = cache.get(signature);
  if (hit) {
    cache.delete(signature);
    cache.set(signature, hit);
    return hit;
  }
  if (!layouter) throw new Error('no graph layouter (useLayouter was not called)');
  const thread = layouter.thread;
  const t0 = performance.now();
  const out = await layouter.layout(elkGraph(model));
  const ms = performance.now() - t0;
  const positions = new Map<string, Placed>();
  const columns = new Map<number, { x: number; w: number }>();
  for (const c of out.children ?? []) {
    const n = model.byId.get(c.id);
    if (!n) continue;
    const p = { x: c.x ?? 0, y: c.y ?? 0, w: n.w, h: n.h };
    positions.set(c.id, p);
    const col = columns.get(n.column);
    if (!col || p.x < col.x) columns.set(n.column, { x: p.x, w: Math.max(col?.w ?? 0, n.w) });
    else if (n.w > col.w) col.w = n.w;
  }
  const layout: GraphLayout = { signature, positions, width: out.width ?? 0, height: out.height ?? 0, columns, ms, thread };
  cache.set(signature, layout);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return layout;
}
