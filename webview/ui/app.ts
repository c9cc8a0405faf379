/**
 * The panel's webview: receives the host's records, applies them once per animation frame within
 * a time budget, keeps the UI state (tab, selections, scroll positions, filters) in the webview
 * state so it survives the panel being hidden, and wires the tabs together through record links.
 */
import { setOwn } from '../../src/protocol/own';
import type { RevisionRecord } from '../../src/protocol/trace-records';
import type { ObjectView, PodView } from '../../src/protocol/cluster-state';
import type { DetailsMessage, HostMessage, PanelRecord, RevisionMessage, WebviewMessage } from '../../src/protocol/panel';
import { drain, FrameQueue } from '../model/frame-queue';
import { AttemptIndex } from '../model/attempts';
import { StateHistory, type ClusterState, type NotHeld } from '../model/history';
import { formatCount } from '../model/format';
import { controllersList, requestsList, revisionsList, schedulerList } from '../model/lists';
import { RecordStore } from '../model/record-store';
import { RECONCILE_COLUMNS, REQUEST_COLUMNS, REVISION_COLUMNS, SCHEDULER_COLUMNS, type Kinds } from '../model/rows';
import { LIST_TABS, restoreState, TABS, type Filters, type ListTab, type PanelState, type TabId } from '../model/state';
import { linkText, reconcileDetail, requestDetail, revisionDetail, schedulingDetail, type DetailContext } from './details';
import { h, replaceChildren } from './dom';
import { FlowView } from './flow-view';
import { ListView, type ListViewHost } from './list-view';
import { MapView, type MapHitTest } from './map-view';
import { GraphView, type GraphHitTest } from './graph-view';
import { StoryView } from './story-view';
import { EtcdView } from './etcd-view';
import { Timeline } from './timeline';
import { isUserWrite } from '../model/flow';
import type { ApiRequestRecord } from '../../src/protocol/trace-records';
import { ObjectDetails, type ObjectRef } from './object-details';
import { podVerdicts } from '../model/verdicts';
import { hiddenReason, type HiddenReason, type Quiet } from '../model/quiet';
import { latestApply } from '../model/story';
import { kindOf } from '../model/rows';
import { causalClosure } from '../../src/protocol/timeline';
import { StoreHead, timelineStatus } from '../model/head';

export interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** Milliseconds of each frame spent applying records, and records per step. */
const FRAME_BUDGET_MS = 8;
const CHUNK = 2000;

const TAB_TITLES: Record<TabId, string> = { map: 'Map', graph: 'Graph', story: 'Story', etcd: 'etcd', revisions: 'Revisions', requests: 'Requests', controllers: 'Controllers', scheduler: 'Scheduler', flow: 'Flow' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyListView = ListView<any, any>;

export class App implements ListViewHost {
  readonly store = new RecordStore();
  /** The cluster state at every revision held: what the map, the graph and replay draw. */
  readonly history = new StateHistory();
  /** Scheduling attempts by pod, placed against the store's revisions. */
  readonly attempts = new AttemptIndex();
  /** The store's newest revision, from the trace (the history holds only the kinds drawn). */
  readonly head = new StoreHead();
  readonly map: MapView;
  readonly graph: GraphView;
  readonly details: ObjectDetails;
  readonly timeline: Timeline;
  /** The user's writes (applies, deletes) the trace holds: the timeline's markers. */
  private userWrites: ApiRequestRecord[] = [];
  /** The user scrubbed the timeline since this load (told to the host once). */
  private scrubbed = false;
  private readonly detailAnswers = new Map<number, (m: DetailsMessage) => void>();
  private kindsMap: Kinds = {};
  private readonly state: PanelState;
  private readonly queue = new FrameQueue<PanelRecord>();
  private skipped = 0;
  /** Records of the current sync still to apply; the saved scroll positions return after them. */
  private syncing = 0;
  private synced = false;
  private frame = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saveDirty = false;
  private nextRequest = 1;
  private readonly answers = new Map<number, (m: RevisionMessage) => void>();
  private readonly lists: Record<ListTab, AnyListView>;
  /** The followed apply's closure while "this apply only" is on (see followedClosure). */
  private closure: { root: number | undefined; ids: Set<number>; size: number } | undefined;
  private closureCheck = 0;
  private readonly flow: FlowView;
  readonly story: StoryView;
  readonly etcd: EtcdView;
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
        quiet: ['heartbeats', 'events', 'applyOnly'],
        detail: (r) => revisionDetail(r, ctx),
      }),
      requests: new ListView(this, {
        spec: requestsList,
        columns: REQUEST_COLUMNS,
        noun: 'requests',
        label: 'API requests',
        filterLabels: { user: 'User', verb: 'Verb', outcome: 'Outcome' },
        quiet: ['heartbeats', 'events', 'reads', 'applyOnly'],
        detail: (r) => requestDetail(r, ctx),
      }),
      controllers: new ListView(this, {
        spec: controllersList,
        columns: RECONCILE_COLUMNS,
        noun: 'reconciles',
        label: 'Controller reconciles',
        filterLabels: { controller: 'Controller', outcome: 'Outcome' },
        quiet: ['heartbeats', 'applyOnly'],
        detail: (r) => reconcileDetail(r, ctx),
      }),
      scheduler: new ListView(this, {
        spec: schedulerList,
        columns: SCHEDULER_COLUMNS,
        noun: 'scheduling records',
        label: 'Scheduling attempts and bindings',
        filterLabels: { pod: 'Pod', outcome: 'Outcome' },
        quiet: ['applyOnly'],
        detail: (r) => schedulingDetail(r, ctx),
      }),
    };
    this.flow = new FlowView({
      store: this.store,
      root: () => this.state.flowRoot,
      followed: () => this.followedRoot(),
      setRoot: (id) => this.follow(id, 'flow'),
      navigate: (id) => this.navigate(id),
      hidden: (r) => {
        const why = this.hidden(r);
        return why !== undefined && why !== 'other apply';
      },
      lanes: () => this.state.flowLanes,
      setLane: (id, folded) => {
        setOwn(this.state.flowLanes, id, folded);
        this.save();
      },
      quiet: () => this.quiet(),
      setQuiet: (field, value) => this.setQuiet(field, value),
      followedApply: () => this.followedApply(),
    });
    this.story = new StoryView({
      store: this.store,
      kinds: () => this.kindsMap,
      root: () => this.state.flowRoot,
      setRoot: (id) => this.follow(id, 'story'),
      link: (id, text) => this.link(id, text),
      showFlow: (id) => ctx.showFlow(id),
      replayAt: (revision) => this.setReplay(revision),
      showPod: (namespace, name) => this.showDetails({ kind: 'Pod', namespace, name }),
    });
    this.etcd = new EtcdView({
      replayTime: () => (this.state.replay === undefined ? undefined : this.history.timeOf(this.state.replay)),
      act: (action, member) => this.post({ type: 'etcdAction', action, member }),
      wake: () => this.schedule(),
    });
    this.map = new MapView({
      state: () => this.stateShown(),
      stateVersion: () => `${this.history.generation}@${this.state.replay ?? 'live'}`,
      attemptFor: (pod: PodView) => this.attempts.latest(pod.uid, this.state.replay),
      openDetails: (ref) => this.showDetails(ref),
      saved: () => this.state.map,
      save: () => this.save(),
    });
    this.graph = new GraphView({
      state: () => this.stateShown(),
      stateVersion: () => `${this.history.generation}@${this.state.replay ?? 'live'}`,
      born: (kind, namespace, name) => this.history.versionsOf(kind, namespace, name)[0]?.rev,
      openDetails: (ref) => this.showDetails(ref),
      saved: () => this.state.graph,
      save: () => this.save(),
    });
    this.details = new ObjectDetails({
      viewOf: (ref) => this.viewOf(ref),
      revision: () => this.state.replay,
      now: () => (this.state.replay === undefined ? (this.store.records.last()?.time ?? this.history.latestTime) : this.history.timeOf(this.state.replay)),
      requestDetails: (ref, revision) => this.requestDetails(ref, revision),
      verdictsOf: (pod) => {
        const a = this.attempts.latest(pod.uid, this.state.replay);
        const s = this.stateShown();
        return a && s.held ? podVerdicts(a, [...s.nodes.keys()]) : undefined;
      },
      closed: () => {
        delete this.state.details;
        this.save();
      },
    });
    this.timeline = new Timeline({
      history: this.history,
      head: this.head,
      replay: () => this.state.replay,
      setReplay: (revision) => {
        this.setReplay(revision);
        // A scrub by the user (not a restored state): the walkthrough's replay step is done.
        if (revision !== undefined && !this.scrubbed) {
          this.scrubbed = true;
          this.post({ type: 'scrubbed' });
        }
      },
      applies: () => this.userWrites,
    });
    this.summary = h('div', { class: 'summary', slot: 'end', role: 'status' });
    this.tabs = h('vscode-panels', { activeid: `tab-${this.state.tab}`, 'aria-label': 'Control plane views' });
    for (const tab of TABS) this.tabs.append(h('vscode-panel-tab', { id: `tab-${tab}` }, TAB_TITLES[tab]));
    this.tabs.append(this.summary);
    for (const tab of TABS) this.tabs.append(h('vscode-panel-view', { id: `view-${tab}` }, tab === 'flow' ? this.flow.element : tab === 'map' ? this.map.element : tab === 'graph' ? this.graph.element : tab === 'story' ? this.story.element : tab === 'etcd' ? this.etcd.element : this.lists[tab].element));
    this.tabs.addEventListener('change', (e) => {
      if (e.target !== this.tabs) return;
      const id = (this.tabs as HTMLElement & { activeid?: string }).activeid ?? '';
      const tab = id.replace(/^tab-/, '') as TabId;
      if (!TABS.includes(tab) || tab === this.state.tab) return;
      this.state.tab = tab;
      this.save();
      this.schedule();
    });
    replaceChildren(root, h('div', { class: 'panel-layout' }, h('div', { class: 'panel-views' }, this.tabs, this.details.element), this.timeline.element));
    root.removeAttribute('aria-busy');
    if (this.state.details) this.details.open(this.state.details as ObjectRef);
    // The model layer the UI tests and the benchmark read (what is drawn, and where).
    (window as unknown as { kubesimPanel: unknown }).kubesimPanel = { map: (): MapHitTest => this.map.hitTest(), mapView: this.map, graph: (): GraphHitTest => this.graph.hitTest(), graphView: this.graph, story: () => this.story.model(), etcd: () => this.etcd.hitTest(), etcdView: this.etcd, flow: () => this.flow.model(), lists: () => this.listsModel(), timeline: () => timelineStatus(this.history, this.head, this.state.replay), history: this.history, app: this };
    window.addEventListener('message', (e: MessageEvent<HostMessage>) => this.receive(e.data));
    this.post({ type: 'ready' });
  }

  // ---- ListViewHost ----

  hidden(r: PanelRecord): HiddenReason | undefined {
    return hiddenReason(r, this.state.quiet, (id) => this.store.get(id), this.state.quiet.applyOnly ? this.followedClosure() : undefined);
  }

  quiet(): Quiet {
    return this.state.quiet;
  }

  setQuiet(field: keyof Quiet, value: boolean): void {
    if (this.state.quiet[field] === value) return;
    this.state.quiet[field] = value;
    this.closure = undefined;
    this.requietAll();
  }

  followedApply(): string | undefined {
    const r = this.followedRoot();
    return r ? `${kindOf(this.kindsMap, r.group, r.resource)} ${r.namespace ? `${r.namespace}/` : ''}${r.name ?? ''}` : undefined;
  }

  /** The apply the Story, the Flow and "this apply only" follow: the chosen one, else the latest. */
  private followedRoot(): ApiRequestRecord | undefined {
    if (this.state.flowRoot !== undefined) {
      const r = this.store.get(this.state.flowRoot);
      return r?.type === 'api.request' ? r : undefined;
    }
    return latestApply(this.userWrites);
  }

  /** The followed apply's causal closure, recomputed when records arrive (at most every 300 ms). */
  private followedClosure(): ReadonlySet<number> {
    const root = this.followedRoot();
    if (this.closure && this.closure.root === root?.id) return this.closure.ids;
    const ids = new Set(root ? causalClosure(root, this.store.causes).map((r) => r.id) : []);
    this.closure = { root: root?.id, ids, size: this.store.size };
    return ids;
  }

  /** What each record list shows (for the UI tests): its rows' record ids and types, and its status line. */
  private listsModel(): Record<ListTab, { rows: { id: number; type: string; cells: readonly string[]; tone: string | undefined }[]; status: string }> {
    const out = {} as Record<ListTab, { rows: { id: number; type: string; cells: readonly string[]; tone: string | undefined }[]; status: string }>;
    for (const tab of LIST_TABS) out[tab] = this.lists[tab].model();
    return out;
  }

  /** Follows another apply (the Story's or the Flow's picker): both views and "this apply only" move with it. */
  private follow(id: number | undefined, from: 'story' | 'flow'): void {
    if (id === undefined) delete this.state.flowRoot;
    else this.state.flowRoot = id;
    if (from === 'story') {
      this.flow.reset();
      this.flow.add([...this.store.records]);
    } else this.story.invalidate();
    this.closure = undefined;
    if (this.state.quiet.applyOnly) this.requietAll();
    else {
      for (const tab of LIST_TABS) this.lists[tab].quiet.sync();
      this.save();
    }
  }

  /** While "this apply only" is on, the closure grows as records arrive: re-read it now and then. */
  private refreshClosure(): void {
    if (!this.state.quiet.applyOnly || !this.closure || this.closure.size === this.store.size) return;
    const now = performance.now();
    if (now - this.closureCheck < 500) return;
    this.closureCheck = now;
    const before = this.closure.ids.size;
    this.closure = undefined;
    if (this.followedClosure().size !== before) {
      for (const tab of LIST_TABS) this.lists[tab].rebuild();
      this.flow.requiet();
    }
  }

  /** The quiet filters or the followed apply changed: every view re-reads what it shows. */
  private requietAll(): void {
    for (const tab of LIST_TABS) {
      this.lists[tab].quiet.sync();
      this.lists[tab].rebuild();
    }
    this.flow.requiet();
    this.save();
    this.schedule();
  }

  kinds(): Kinds {
    return this.kindsMap;
  }

  filters<T extends ListTab>(tab: T): Filters[T] {
    return this.state.filters[tab];
  }

  setFilter(tab: ListTab, field: string, value: string): void {
    const filters = this.state.filters[tab] as Record<string, string>;
    if (Object.hasOwn(filters, field) && filters[field] === value) return;
    Object.defineProperty(filters, field, { value, writable: true, enumerable: true, configurable: true });
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

  layout(tab: ListTab): { columns?: readonly (number | null)[]; detailWidth?: number } {
    const columns = this.state.columns[tab];
    const detailWidth = this.state.detailWidth[tab];
    return { ...(columns ? { columns } : {}), ...(detailWidth !== undefined ? { detailWidth } : {}) };
  }

  setLayout(tab: ListTab, layout: { columns?: readonly (number | null)[]; detailWidth?: number }): void {
    if (layout.columns) this.state.columns[tab] = [...layout.columns];
    if (layout.detailWidth !== undefined) this.state.detailWidth[tab] = layout.detailWidth;
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
        this.attempts.clear();
        this.head.reset();
        this.userWrites = [];
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
        this.story.reset();
        this.schedule();
        return;
      case 'records':
        this.queue.push(message.records);
        this.skipped += message.dropped;
        this.schedule();
        return;
      case 'state.reset':
        this.history.reset(message.heldFrom, message.heldFromTime, message.capacity);
        this.schedule();
        return;
      case 'state':
        this.history.add(message.changes, message.heldFrom, message.heldFromTime);
        this.schedule();
        return;
      case 'etcd.reset':
        this.etcd.model.reset(message.cluster, message.capacity);
        this.schedule();
        return;
      case 'etcd':
        this.etcd.model.add(message);
        this.schedule();
        return;
      case 'etcd.result':
        this.etcd.showResult(message);
        this.schedule();
        return;
      case 'showEtcd':
        if (message.member) this.etcd.select(message.member);
        this.showTab('etcd');
        return;
      case 'showDetails':
        this.showDetails({ kind: message.kind, name: message.name, ...(message.namespace ? { namespace: message.namespace } : {}) });
        return;
      case 'details': {
        const answer = this.detailAnswers.get(message.requestId);
        this.detailAnswers.delete(message.requestId);
        answer?.(message);
        return;
      }
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

  // ---- the state shown ----

  /** The cluster state at the revision the pictures show (the newest while live). */
  stateShown(): ClusterState | NotHeld {
    return this.history.at(this.state.replay ?? this.history.latestRevision);
  }

  private viewOf(ref: ObjectRef): ObjectView | undefined {
    const s = this.stateShown();
    if (!s.held) return undefined;
    const id = ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
    const maps = { Node: s.nodes, Pod: s.pods, Deployment: s.deployments, ReplicaSet: s.replicaSets, Service: s.services, EndpointSlice: s.endpointSlices, StatefulSet: s.statefulSets, DaemonSet: s.daemonSets, Job: s.jobs, CronJob: s.cronJobs } as const;
    return (maps[ref.kind] as ReadonlyMap<string, ObjectView> | undefined)?.get(id);
  }

  /** Shows the pictures at a revision (replay), or the live cluster (undefined). */
  setReplay(revision: number | undefined): void {
    if (revision === this.state.replay) return;
    if (revision === undefined) delete this.state.replay;
    else this.state.replay = revision;
    this.save();
    this.schedule();
  }

  /** Opens the shared details view of an object (the map, the graph and the tree call this). */
  showDetails(ref: ObjectRef): void {
    this.state.details = { kind: ref.kind, name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) };
    this.save();
    this.details.open(ref);
  }

  private requestDetails(ref: ObjectRef, revision: number | undefined): Promise<DetailsMessage> {
    const requestId = this.nextRequest++;
    return new Promise((resolve) => {
      this.detailAnswers.set(requestId, resolve);
      this.post({ type: 'getDetails', requestId, kind: ref.kind, name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}), ...(revision !== undefined ? { revision } : {}) });
    });
  }

  // ---- frames ----

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.onFrame());
  }

  private onFrame(): void {
    this.frame = 0;
    drain(this.queue, (chunk) => this.apply(chunk), () => performance.now(), FRAME_BUDGET_MS, CHUNK);
    this.refreshClosure();
    if (!this.synced && this.syncing <= 0) this.restore();
    for (const tab of LIST_TABS) this.lists[tab].update(tab === this.state.tab);
    this.flow.update(this.state.tab === 'flow');
    this.story.update(this.state.tab === 'story');
    this.map.update(this.state.tab === 'map');
    this.graph.update(this.state.tab === 'graph');
    if (this.etcd.update(this.state.tab === 'etcd')) this.schedule();
    this.details.refresh();
    this.timeline.update();
    if (this.timeline.isPlaying) this.schedule();
    this.renderSummary();
    if (this.queue.size > 0) this.schedule();
  }

  private apply(chunk: PanelRecord[]): void {
    const { added, dropped } = this.store.add(chunk, this.skipped);
    this.skipped = 0;
    this.syncing -= chunk.length;
    this.attempts.add(added);
    this.head.note(added);
    for (const r of added) if (isUserWrite(r)) this.userWrites.push(r as ApiRequestRecord);
    if (dropped.length > 0) {
      this.attempts.dropBelow(this.store.firstId);
      const first = this.store.firstId;
      if (this.userWrites.length > 0 && this.userWrites[0]!.id < first) this.userWrites = this.userWrites.filter((r) => r.id >= first);
    }
    for (const tab of LIST_TABS) {
      const list = this.lists[tab];
      list.add(added);
      if (dropped.length > 0) list.dropBelow(this.store.firstId, dropped);
    }
    this.flow.add(added);
    this.story.add(added);
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

  /**
   * Keeps the UI state with VS Code. The first change is written at once: the panel is not kept
   * while hidden (retainContextWhenHidden false), so a tab chosen just before the learner switches
   * to another editor must already be saved when the webview goes. Changes in the next 100 ms
   * (a drag, a scroll) are written together at its end.
   */
  private save(): void {
    if (this.saveTimer) {
      this.saveDirty = true;
      return;
    }
    this.vscode.setState(this.state);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      if (!this.saveDirty) return;
      this.saveDirty = false;
      this.vscode.setState(this.state);
    }, 100);
  }
}
