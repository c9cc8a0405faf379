/**
 * The panel's webview: receives the host's records, applies them once per animation frame within
 * a time budget, keeps the UI state (tab, selections, scroll positions, filters) in the webview
 * state so it survives the panel being hidden, and wires the tabs together through record links.
 */
import type { RevisionRecord } from '../../src/engine/trace/revision';
import type { HostMessage, PanelRecord, RevisionMessage, WebviewMessage } from '../../src/protocol/panel';
import { drain, FrameQueue } from '../model/frame-queue';
import { formatCount } from '../model/format';
import { controllersList, requestsList, revisionsList, schedulerList } from '../model/lists';
import { RecordStore } from '../model/record-store';
import { RECONCILE_COLUMNS, REQUEST_COLUMNS, REVISION_COLUMNS, SCHEDULER_COLUMNS, type Kinds } from '../model/rows';
import { LIST_TABS, restoreState, TABS, type Filters, type ListTab, type PanelState, type TabId } from '../model/state';
import { linkText, reconcileDetail, requestDetail, revisionDetail, schedulingDetail, type DetailContext } from './details';
import { h, replaceChildren } from './dom';
import { FlowView } from './flow-view';
import { ListView, type ListViewHost } from './list-view';

export interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** Milliseconds of each frame spent applying records, and records per step. */
const FRAME_BUDGET_MS = 8;
const CHUNK = 2000;

const TAB_TITLES: Record<TabId, string> = { revisions: 'Revisions', requests: 'Requests', controllers: 'Controllers', scheduler: 'Scheduler', flow: 'Flow' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyListView = ListView<any, any>;

export class App implements ListViewHost {
  readonly store = new RecordStore();
  private kindsMap: Kinds = {};
  private readonly state: PanelState;
  private readonly queue = new FrameQueue<PanelRecord>();
  private skipped = 0;
  /** Records of the current sync still to apply; the saved scroll positions return after them. */
  private syncing = 0;
  private synced = false;
  private frame = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private nextRequest = 1;
  private readonly answers = new Map<number, (m: RevisionMessage) => void>();
  private readonly lists: Record<ListTab, AnyListView>;
  private readonly flow: FlowView;
  private readonly tabs: HTMLElement;
  private readonly summary: HTMLElement;

  constructor(
    root: HTMLElement,
    private readonly vscode: VsCodeApi,
  ) {
    this.state = restoreState(vscode.getState());
    const ctx: DetailContext = {
      store: this.store,
      kinds: () => this.kindsMap,
      link: (id, text) => this.link(id, text),
      timeTravel: (r) => this.timeTravel(r),
      showFlow: (id) => {
        this.state.flowRoot = id;
        this.flow.reset();
        this.flow.add([...this.store.records]);
        this.showTab('flow');
      },
    };
    this.lists = {
      revisions: new ListView(this, {
        spec: revisionsList,
        columns: REVISION_COLUMNS,
        noun: 'revisions',
        label: 'etcd revisions',
        filterLabels: { namespace: 'Namespace', kind: 'Kind', actor: 'Actor' },
        detail: (r) => revisionDetail(r, ctx),
      }),
      requests: new ListView(this, {
        spec: requestsList,
        columns: REQUEST_COLUMNS,
        noun: 'requests',
        label: 'API requests',
        filterLabels: { user: 'User', verb: 'Verb', outcome: 'Outcome' },
        detail: (r) => requestDetail(r, ctx),
      }),
      controllers: new ListView(this, {
        spec: controllersList,
        columns: RECONCILE_COLUMNS,
        noun: 'reconciles',
        label: 'Controller reconciles',
        filterLabels: { controller: 'Controller', outcome: 'Outcome' },
        detail: (r) => reconcileDetail(r, ctx),
      }),
      scheduler: new ListView(this, {
        spec: schedulerList,
        columns: SCHEDULER_COLUMNS,
        noun: 'scheduling records',
        label: 'Scheduling attempts and bindings',
        filterLabels: { pod: 'Pod', outcome: 'Outcome' },
        detail: (r) => schedulingDetail(r, ctx),
      }),
    };
    this.flow = new FlowView({
      store: this.store,
      root: () => this.state.flowRoot,
      setRoot: (id) => {
        this.state.flowRoot = id;
        this.save();
      },
      navigate: (id) => this.navigate(id),
    });
    this.summary = h('div', { class: 'summary', slot: 'end', role: 'status' });
    this.tabs = h('vscode-panels', { activeid: `tab-${this.state.tab}`, 'aria-label': 'Control plane views' });
    for (const tab of TABS) this.tabs.append(h('vscode-panel-tab', { id: `tab-${tab}` }, TAB_TITLES[tab]));
    this.tabs.append(this.summary);
    for (const tab of TABS) this.tabs.append(h('vscode-panel-view', { id: `view-${tab}` }, tab === 'flow' ? this.flow.element : this.lists[tab].element));
    this.tabs.addEventListener('change', (e) => {
      if (e.target !== this.tabs) return;
      const id = (this.tabs as HTMLElement & { activeid?: string }).activeid ?? '';
      const tab = id.replace(/^tab-/, '') as TabId;
      if (!TABS.includes(tab) || tab === this.state.tab) return;
      this.state.tab = tab;
      this.save();
      this.schedule();
    });
    replaceChildren(root, this.tabs);
    root.removeAttribute('aria-busy');
    window.addEventListener('message', (e: MessageEvent<HostMessage>) => this.receive(e.data));
    this.post({ type: 'ready' });
  }

  // ---- ListViewHost ----

  kinds(): Kinds {
    return this.kindsMap;
  }

  filters<T extends ListTab>(tab: T): Filters[T] {
    return this.state.filters[tab];
  }

  setFilter(tab: ListTab, field: string, value: string): void {
    const filters = this.state.filters[tab] as Record<string, string>;
    if (filters[field] === value) return;
    filters[field] = value;
    this.lists[tab].rebuild();
    this.save();
    this.schedule();
  }

  selected(tab: ListTab): number | undefined {
    return this.state.selected[tab];
  }

  setSelected(tab: ListTab, id: number | undefined): void {
    if (id === undefined) delete this.state.selected[tab];
    else this.state.selected[tab] = id;
    this.save();
  }

  setScroll(tab: ListTab, top: number): void {
    if (!this.synced) return;
    this.state.scroll[tab] = Math.round(top);
    this.save();
  }

  // ---- messages ----

  private receive(message: HostMessage): void {
    switch (message.type) {
      case 'reset':
        this.store.reset(message.capacity, message.firstId);
        this.kindsMap = message.kinds;
        this.queue.clear();
        this.skipped = 0;
        this.syncing = message.total;
        this.synced = false;
        for (const tab of LIST_TABS) {
          this.lists[tab].clearFacets();
          this.lists[tab].rebuild();
        }
        this.flow.reset();
        this.schedule();
        return;
      case 'records':
        this.queue.push(message.records);
        this.skipped += message.dropped;
        this.schedule();
        return;
      case 'revision': {
        const answer = this.answers.get(message.requestId);
        this.answers.delete(message.requestId);
        answer?.(message);
        return;
      }
    }
  }

  private post(message: WebviewMessage): void {
    this.vscode.postMessage(message);
  }

  private timeTravel(r: RevisionRecord): Promise<RevisionMessage> {
    const requestId = this.nextRequest++;
    return new Promise((resolve) => {
      this.answers.set(requestId, resolve);
      this.post({ type: 'getRevision', requestId, revision: r.revision, group: r.group, resource: r.resource, name: r.name, ...(r.namespace ? { namespace: r.namespace } : {}) });
    });
  }

  // ---- frames ----

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.onFrame());
  }

  private onFrame(): void {
    this.frame = 0;
    drain(this.queue, (chunk) => this.apply(chunk), () => performance.now(), FRAME_BUDGET_MS, CHUNK);
    if (!this.synced && this.syncing <= 0) this.restore();
    for (const tab of LIST_TABS) this.lists[tab].update(tab === this.state.tab);
    this.flow.update(this.state.tab === 'flow');
    this.renderSummary();
    if (this.queue.size > 0) this.schedule();
  }

  private apply(chunk: PanelRecord[]): void {
    const { added, dropped } = this.store.add(chunk, this.skipped);
    this.skipped = 0;
    this.syncing -= chunk.length;
    for (const tab of LIST_TABS) {
      const list = this.lists[tab];
      list.add(added);
      if (dropped.length > 0) list.dropBelow(this.store.firstId, dropped);
    }
    this.flow.add(added);
  }

  /** After a sync: the lists go back to where the user left them. */
  private restore(): void {
    this.synced = true;
    for (const tab of LIST_TABS) this.lists[tab].restoreScroll(this.state.scroll[tab]);
  }

  private renderSummary(): void {
    const last = this.store.records.last();
    const text = `${formatCount(this.store.size)} records${last ? ` · t=${new Date(last.time).toISOString().slice(11, 19)}` : ''}${this.synced ? '' : ' · syncing…'}`;
    if (this.summary.textContent !== text) this.summary.textContent = text;
  }

  // ---- navigation ----

  private showTab(tab: TabId): void {
    this.state.tab = tab;
    this.tabs.setAttribute('activeid', `tab-${tab}`);
    this.save();
    this.schedule();
  }

  private tabOf(r: PanelRecord): ListTab | undefined {
    for (const tab of LIST_TABS) if (this.listSpecAccepts(tab, r)) return tab;
    return undefined;
  }

  private listSpecAccepts(tab: ListTab, r: PanelRecord): boolean {
    const specs = { revisions: revisionsList, requests: requestsList, controllers: controllersList, scheduler: schedulerList };
    return specs[tab].accepts(r);
  }

  /** Shows a record in the list that holds it, clearing that list's filters if they hide it. */
  navigate(id: number): void {
    const r = this.store.get(id);
    const tab = r && this.tabOf(r);
    if (!tab) return;
    this.showTab(tab);
    const list = this.lists[tab];
    if (!list.reveal(id)) {
      const filters = this.state.filters[tab] as Record<string, string>;
      for (const f of Object.keys(filters)) filters[f] = '';
      list.rebuild();
      list.reveal(id);
    }
    this.setSelected(tab, id);
    requestAnimationFrame(() => list.focusList());
  }

  private link(id: number, text?: string): Node {
    const r = this.store.get(id);
    if (!r) return h('span', { class: 'gone' }, `#${id} (no longer held: it fell off)`);
    const label = text ?? linkText(r);
    if (!this.tabOf(r)) return h('span', {}, label);
    const button = h('button', { class: 'record-link', type: 'button' }, label);
    button.addEventListener('click', () => this.navigate(id));
    return button;
  }

  private save(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.vscode.setState(this.state);
    }, 100);
  }
}
