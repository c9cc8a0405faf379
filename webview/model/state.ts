/**
 * What the panel remembers across being hidden and shown again (the webview is not retained):
 * the tab, each list's selection and scroll position, the filters and the flow's root. Stored
 * with vscode.setState; read back through `restoreState`, which trusts nothing it reads.
 */
import { setOwn } from '../../src/protocol/own';
import { QUIET_DEFAULTS, restoreQuiet, type Quiet } from './quiet';

export const TABS = ['map', 'graph', 'story', 'etcd', 'revisions', 'requests', 'controllers', 'scheduler', 'flow'] as const;
export type TabId = (typeof TABS)[number];
export type ListTab = Exclude<TabId, 'flow' | 'map' | 'graph' | 'story' | 'etcd'>;
export const LIST_TABS: readonly ListTab[] = ['revisions', 'requests', 'controllers', 'scheduler'];

/** Filter fields per list; '' means any. */
export const FILTER_FIELDS = {
  revisions: ['namespace', 'kind', 'actor'],
  requests: ['user', 'verb', 'outcome'],
  controllers: ['controller', 'outcome'],
  scheduler: ['pod', 'outcome'],
} as const satisfies Record<ListTab, readonly string[]>;

export type Filters = { [T in ListTab]: Record<(typeof FILTER_FIELDS)[T][number], string> };

export interface PanelState {
  tab: TabId;
  /** Selected record id per list. */
  selected: Partial<Record<ListTab, number>>;
  scroll: Partial<Record<ListTab, number>>;
  filters: Filters;
  /** The apply the Story, the Flow and "this apply only" follow (a request id); absent: the latest user write. */
  flowRoot?: number;
  /** The map's filters and selected pod. */
  map: { namespace: string; selector: string; owner: string; selectedPod?: string };
  /** The object graph's namespace filter and focused box (a graph id, "Pod/default/web-1"). */
  graph: { namespace: string; focused?: string };
  /** The revision the pictures show (replay); absent: the live cluster. */
  replay?: number;
  /** The object whose details are open. */
  details?: { kind: string; namespace?: string; name: string };
  /** What the record views leave out (heartbeats, Events, reads, other applies). */
  quiet: Quiet;
  /** Flow lanes the user folded (true) or opened (false), by lane id. */
  flowLanes: Record<string, boolean>;
  /** Column widths the user dragged, per list (px; null: the column's own width). */
  columns: Partial<Record<ListTab, (number | null)[]>>;
  /** The detail pane's width the user dragged, per list (px). */
  detailWidth: Partial<Record<ListTab, number>>;
}

export function initialState(): PanelState {
  const filters = {} as Record<ListTab, Record<string, string>>;
  for (const tab of LIST_TABS) filters[tab] = Object.fromEntries(FILTER_FIELDS[tab].map((f) => [f, '']));
  return { tab: 'map', selected: {}, scroll: {}, filters: filters as Filters, map: { namespace: '', selector: '', owner: '' }, graph: { namespace: '' }, quiet: { ...QUIET_DEFAULTS }, flowLanes: {}, columns: {}, detailWidth: {} };
}

export function restoreState(raw: unknown): PanelState {
  const state = initialState();
  if (!isRecord(raw)) return state;
  if (typeof raw.tab === 'string' && (TABS as readonly string[]).includes(raw.tab)) state.tab = raw.tab as TabId;
  const selected = isRecord(raw.selected) ? raw.selected : {};
  const scroll = isRecord(raw.scroll) ? raw.scroll : {};
  const filters = isRecord(raw.filters) ? raw.filters : {};
  for (const tab of LIST_TABS) {
    const id = selected[tab];
    if (isCount(id)) state.selected[tab] = id;
    const top = scroll[tab];
    if (isCount(top)) state.scroll[tab] = top;
    const cols = isRecord(raw.columns) ? raw.columns[tab] : undefined;
    if (Array.isArray(cols) && cols.length <= 20) state.columns[tab] = cols.map((w) => (isCount(w) && w <= 4000 ? w : null));
    const dw = isRecord(raw.detailWidth) ? raw.detailWidth[tab] : undefined;
    if (isCount(dw) && dw <= 4000) state.detailWidth[tab] = dw;
    const f = filters[tab];
    if (!isRecord(f)) continue;
    const target = state.filters[tab] as Record<string, string>;
    for (const field of FILTER_FIELDS[tab]) {
      const v = f[field];
      if (typeof v === 'string' && v.length <= 300) target[field] = v;
    }
  }
  if (isCount(raw.flowRoot)) state.flowRoot = raw.flowRoot;
  state.quiet = restoreQuiet(raw.quiet);
  if (isRecord(raw.flowLanes)) {
    for (const [lane, folded] of Object.entries(raw.flowLanes).slice(0, 200)) if (lane.length <= 300 && typeof folded === 'boolean') setOwn(state.flowLanes, lane, folded);
  }
  const map = isRecord(raw.map) ? raw.map : {};
  for (const field of ['namespace', 'selector', 'owner'] as const) {
    const v = map[field];
    if (typeof v === 'string' && v.length <= 300) state.map[field] = v;
  }
  if (typeof map.selectedPod === 'string' && map.selectedPod.length <= 320) state.map.selectedPod = map.selectedPod;
  const graph = isRecord(raw.graph) ? raw.graph : {};
  if (typeof graph.namespace === 'string' && graph.namespace.length <= 63) state.graph.namespace = graph.namespace;
  if (typeof graph.focused === 'string' && graph.focused.length <= 340) state.graph.focused = graph.focused;
  if (isCount(raw.replay) && raw.replay > 0) state.replay = raw.replay;
  const d = isRecord(raw.details) ? raw.details : undefined;
  if (d && typeof d.kind === 'string' && d.kind.length <= 40 && typeof d.name === 'string' && d.name.length <= 253 && (d.namespace === undefined || (typeof d.namespace === 'string' && d.namespace.length <= 63))) {
    state.details = { kind: d.kind, name: d.name, ...(typeof d.namespace === 'string' ? { namespace: d.namespace } : {}) };
  }
  return state;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
