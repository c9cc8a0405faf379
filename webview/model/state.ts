/**
 * What the panel remembers across being hidden and shown again (the webview is not retained):
 * the tab, each list's selection and scroll position, the filters and the flow's root. Stored
 * with vscode.setState; read back through `restoreState`, which trusts nothing it reads.
 */
export const TABS = ['revisions', 'requests', 'controllers', 'scheduler', 'flow'] as const;
export type TabId = (typeof TABS)[number];
export type ListTab = Exclude<TabId, 'flow'>;
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
  /** The request the Flow view starts from; absent: the latest user write. */
  flowRoot?: number;
}

export function initialState(): PanelState {
  const filters = {} as Record<ListTab, Record<string, string>>;
  for (const tab of LIST_TABS) filters[tab] = Object.fromEntries(FILTER_FIELDS[tab].map((f) => [f, '']));
  return { tab: 'revisions', selected: {}, scroll: {}, filters: filters as Filters };
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
    const f = filters[tab];
    if (!isRecord(f)) continue;
    const target = state.filters[tab] as Record<string, string>;
    for (const field of FILTER_FIELDS[tab]) {
      const v = f[field];
      if (typeof v === 'string' && v.length <= 300) target[field] = v;
    }
  }
  if (isCount(raw.flowRoot)) state.flowRoot = raw.flowRoot;
  return state;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
