/**
 * The webview's revision-indexed history of the cluster state, built from the host's revision
 * log (src/protocol/cluster-state.ts). The map, the object graph and the story read the state
 * at any revision it holds through `StateHistory.at(revision)`:
 *
 *     const history = new StateHistory();
 *     history.reset(resetMessage);          // on 'state.reset'
 *     history.add(stateMessage.changes, stateMessage.heldFrom, stateMessage.heldFromTime);
 *     const s = history.at(1234);           // ClusterState at revision 1234, or a NotHeld
 *     if (s.held) for (const pod of s.pods.values()) ...
 *
 * Every object keeps its versions in revision order, each linked to the one before it, and
 * one log holds every version in revision order. A cursor state follows the last revision
 * asked for: a nearby revision is reached by applying (or undoing) the versions in between, a
 * far one by taking each object's last version at or before it (a binary search per object),
 * whichever touches fewer entries; so a jump costs at most one pass over the objects, whatever
 * the length of the history. Pods, the bulk of it, are kept apart in typed arrays with keyframes
 * (webview/model/pod-table.ts): a jump there costs a keyframe copy and a few thousand rows, and
 * the map lays them out from those arrays (`podSlots`); the `pods` map is built only when read.
 *
 * A state is read-only and shared: the maps of a returned state change when `at` is called
 * again, so callers take what they need before asking for another revision.
 */
import { PodTable, type PodSlots } from './pod-table';
import { changeKey, type DeploymentView, type EndpointSliceView, type NodeView, type ObjectView, type PodView, type ReplicaSetView, type ServiceView, type StateChange, type ViewKind, type WorkloadView } from '../../src/protocol/cluster-state';

/** One version of one object (or of one machine's running state); null: deleted from `rev` on. */
export interface Version {
  readonly rev: number;
  readonly time: number;
  readonly value: ObjectView | MachineValue | null;
  /** The version before (undefined: the object did not exist, or history before it is not held). */
  prev: Version | undefined;
  readonly entry: Entry;
  /** False once folded away. */
  live: boolean;
  /**
   * A Node write that changed nothing the pictures show (a kubelet's status heartbeat: the view
   * is the one before but for its resourceVersion): Step to next change passes over it.
   */
  readonly quiet: boolean;
}

export interface MachineValue {
  readonly kind: 'machine';
  readonly node: string;
  readonly running: boolean;
}

interface Entry {
  readonly key: string;
  readonly kind: ViewKind | 'machine';
  /** The key in the state's map of its kind: "namespace/name", a node's or machine's name. */
  readonly id: string;
  readonly versions: Version[];
}

export interface ClusterState {
  readonly held: true;
  /** The revision read (the last change at or before it may be older). */
  readonly revision: number;
  readonly nodes: ReadonlyMap<string, NodeView>;
  readonly pods: ReadonlyMap<string, PodView>;
  readonly deployments: ReadonlyMap<string, DeploymentView>;
  readonly replicaSets: ReadonlyMap<string, ReplicaSetView>;
  readonly services: ReadonlyMap<string, ServiceView>;
  readonly endpointSlices: ReadonlyMap<string, EndpointSliceView>;
  /** The other workloads the graph draws (absent in states built by hand). */
  readonly statefulSets?: ReadonlyMap<string, WorkloadView>;
  readonly daemonSets?: ReadonlyMap<string, WorkloadView>;
  readonly jobs?: ReadonlyMap<string, WorkloadView>;
  readonly cronJobs?: ReadonlyMap<string, WorkloadView>;
  /** Node name -> its kubelet runs (absent: not known). */
  readonly machines: ReadonlyMap<string, boolean>;
  /** The pods in the history's typed arrays at this revision (absent: a state built by hand). */
  readonly podSlots?: PodSlots;
}

export interface NotHeld {
  readonly held: false;
  readonly revision: number;
  /** Why: 'before' history begins (not held, compacted away), or 'empty' (nothing synced yet). */
  readonly reason: 'before' | 'empty';
  readonly heldFrom: number;
}

/** A change in the log, for the timeline: its revision, time and kind. */
export interface LogMark {
  readonly rev: number;
  readonly time: number;
  readonly kind: ViewKind | 'machine';
}

type Maps = {
  nodes: Map<string, NodeView>;
  deployments: Map<string, DeploymentView>;
  replicaSets: Map<string, ReplicaSetView>;
  services: Map<string, ServiceView>;
  endpointSlices: Map<string, EndpointSliceView>;
  statefulSets: Map<string, WorkloadView>;
  daemonSets: Map<string, WorkloadView>;
  jobs: Map<string, WorkloadView>;
  cronJobs: Map<string, WorkloadView>;
  machines: Map<string, boolean>;
};

const MAP_OF: Readonly<Record<Exclude<ViewKind, 'Pod'>, Exclude<keyof Maps, 'machines'>>> = {
  Node: 'nodes',
  Deployment: 'deployments',
  ReplicaSet: 'replicaSets',
  Service: 'services',
  EndpointSlice: 'endpointSlices',
  StatefulSet: 'statefulSets',
  DaemonSet: 'daemonSets',
  Job: 'jobs',
  CronJob: 'cronJobs',
};

/**
 * The view with the parts it has in common with the object's previous version taken from that
 * version (labels, owner, requests, containers): a long history of status changes then holds one
 * object per version instead of six, which keeps the webview's heap and its collections small.
 */
function share(view: ObjectView, before: ObjectView | MachineValue | null | undefined): ObjectView {
  if (!before || before.kind !== view.kind) return view;
  const prev = before as ObjectView;
  // The view arrived by structured clone: the webview owns it, and nothing has seen it yet.
  const out = view as unknown as Record<string, unknown>;
  if (prev.labels !== view.labels && sameRecord(prev.labels, view.labels)) out.labels = prev.labels;
  if (prev.owner && view.owner && prev.owner !== view.owner && prev.owner.uid === view.owner.uid && prev.owner.name === view.owner.name) out.owner = prev.owner;
  if (view.kind === 'Pod') {
    const p = prev as PodView;
    if (p.requests.milliCPU === view.requests.milliCPU && p.requests.memory === view.requests.memory) out.requests = p.requests;
    if (p.containers.length === view.containers.length && p.containers.every((c, i) => c === view.containers[i])) out.containers = p.containers;
  }
  return view;
}

/** Two views of one object that differ in their resourceVersion only. */
function sameButVersion(a: ObjectView, b: ObjectView): boolean {
  return JSON.stringify({ ...a, rv: 0 }) === JSON.stringify({ ...b, rv: 0 });
}

function sameRecord(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || a[k] !== b[k]) return false;
  return true;
}

function emptyMaps(): Maps {
  return { nodes: new Map(), deployments: new Map(), replicaSets: new Map(), services: new Map(), endpointSlices: new Map(), statefulSets: new Map(), daemonSets: new Map(), jobs: new Map(), cronJobs: new Map(), machines: new Map() };
}

export class StateHistory {
  private entries = new Map<string, Entry>();
  /** Every live version, in revision order. */
  private log: Version[] = [];
  private from = 0;
  private folded = false;
  private fromTime = 0;
  private limit = Number.MAX_SAFE_INTEGER;
  /** The cursor: `maps` hold the state after the first `cursor` versions of the log. */
  private maps = emptyMaps();
  private cursor = 0;
  private cursorValid = true;
  /** The entries that are not pods (the cursor's maps hold those; pods are in `podTable`). */
  private others: Entry[] = [];
  private podTable = new PodTable();
  /** Bumped on every change to the log, so views can tell when to redraw. */
  generation = 0;

  reset(heldFrom: number, heldFromTime: number, capacity: number): void {
    this.entries = new Map();
    this.others = [];
    this.podTable = new PodTable();
    this.log = [];
    this.from = heldFrom;
    this.fromTime = heldFromTime;
    this.folded = false;
    this.limit = Math.max(1, capacity);
    this.maps = emptyMaps();
    this.cursor = 0;
    this.cursorValid = true;
    this.generation++;
  }

  /** The first revision held exactly. */
  get heldFrom(): number {
    return this.from;
  }

  /** Exact history was folded (the host's log, or this one, passed its capacity): revisions before heldFrom are gone. */
  get compacted(): boolean {
    return this.folded;
  }

  get heldFromTime(): number {
    return this.fromTime;
  }

  get size(): number {
    return this.log.length;
  }

  /** The newest revision held (0 when empty). */
  get latestRevision(): number {
    return this.log.length === 0 ? 0 : Math.max(this.from, this.log[this.log.length - 1]!.rev);
  }

  get latestTime(): number {
    return this.log.length === 0 ? this.fromTime : this.log[this.log.length - 1]!.time;
  }

  /** Adds changes from the host (in revision order, or nearly) and where exact history begins now. */
  add(changes: readonly StateChange[], heldFrom = this.from, heldFromTime = this.fromTime): void {
    for (const c of changes) this.insert(c);
    if (heldFrom > this.from) this.trim(heldFrom, heldFromTime);
    // Kept bounded as the host's log is: a tenth over the limit folds back to it.
    if (this.log.length > this.limit * 1.1) {
      const v = this.log[this.log.length - this.limit]!;
      this.trim(v.rev, v.time);
    }
    this.generation++;
  }

  /** The state at `revision`, or why it is not held. */
  at(revision: number): ClusterState | NotHeld {
    if (this.log.length === 0) return { held: false, revision, reason: 'empty', heldFrom: this.from };
    if (revision < this.from) return { held: false, revision, reason: 'before', heldFrom: this.from };
    const target = this.upperBound(revision);
    this.moveTo(target);
    const table = this.pods();
    const podSlots = table.at(revision);
    const m = this.maps;
    return {
      held: true,
      revision,
      nodes: m.nodes,
      get pods() {
        return table.podMap();
      },
      deployments: m.deployments,
      replicaSets: m.replicaSets,
      services: m.services,
      endpointSlices: m.endpointSlices,
      statefulSets: m.statefulSets,
      daemonSets: m.daemonSets,
      jobs: m.jobs,
      cronJobs: m.cronJobs,
      machines: m.machines,
      podSlots,
    };
  }

  /** The pod table, rebuilt from the versions when a change came out of order or history was folded. */
  private pods(): PodTable {
    if (!this.podTable.stale) return this.podTable;
    const t = new PodTable();
    for (const v of this.log) if (v.entry.kind === 'Pod') t.append(v.entry.id, v.value as PodView | null, v.rev);
    this.podTable = t;
    return t;
  }

  /**
   * The revision of the `n`th change after (n > 0) or before (n < 0) `revision`, within what is
   * held: a write the pictures show (a heartbeat-only Node write is passed over).
   */
  step(revision: number, n: number): number | undefined {
    if (this.log.length === 0) return undefined;
    const log = this.log;
    if (n > 0) {
      let i = this.upperBound(revision);
      for (let k = 0; ; k++) {
        while (i < log.length && log[i]!.quiet) i++;
        if (i >= log.length) return undefined;
        if (k === n - 1) return log[i]!.rev;
        // Versions sharing a revision are one change.
        i = this.upperBound(log[i]!.rev);
      }
    }
    let i = this.upperBound(revision) - 1;
    for (let k = 0; k < -n; k++) {
      while (i >= 0 && (log[i]!.rev >= revision || log[i]!.quiet)) i--;
      if (i < 0) return undefined;
      revision = log[i]!.rev;
    }
    return Math.max(revision, this.from);
  }

  /** The newest revision whose change happened at or before virtual time `time` (heldFrom before the first). */
  revisionAtTime(time: number): number {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.log[mid]!.time <= time) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? this.from : Math.max(this.from, this.log[lo - 1]!.rev);
  }

  /** The virtual time of the last change at or before `revision`. */
  timeOf(revision: number): number {
    const i = this.upperBound(revision) - 1;
    return i < 0 ? this.fromTime : Math.max(this.fromTime, this.log[i]!.time);
  }

  /** Calls `fn` for every change in the held history (the timeline's marks), oldest first. */
  forEachMark(fn: (mark: LogMark) => void, fromTime = -Infinity, toTime = Infinity): void {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.log[mid]!.time < fromTime) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.log.length; i++) {
      const v = this.log[i]!;
      if (v.time > toTime) break;
      if (v.rev < this.from) continue;
      fn({ rev: v.rev, time: v.time, kind: v.entry.kind });
    }
  }

  /** The versions of one object held (oldest first), for the details view's history. */
  versionsOf(kind: ViewKind, namespace: string | undefined, name: string): readonly Version[] {
    return this.entries.get(`${kind}/${namespace ?? ''}/${name}`)?.versions ?? [];
  }

  // ---- internals ----

  private insert(c: StateChange): void {
    const key = changeKey(c);
    let entry = this.entries.get(key);
    if (!entry) {
      const kind = c.op === 'put' ? c.view.kind : c.op === 'delete' ? c.kind : 'machine';
      // "Pod/default/web-1" -> "default/web-1"; "Node//worker" -> "worker".
      const rest = key.slice(kind.length + 1);
      entry = { key, kind, id: rest.startsWith('/') ? rest.slice(1) : rest, versions: [] };
      this.entries.set(key, entry);
      if (kind !== 'Pod') this.others.push(entry);
    }
    const versions = entry.versions;
    const value = c.op === 'put' ? share(c.view, versions[versions.length - 1]?.value) : c.op === 'delete' ? null : ({ kind: 'machine', node: c.node, running: c.running } as const);
    // A version the host already sent (a re-sent base object) is not a change.
    const last = versions[versions.length - 1];
    if (last && last.rev === c.rev && c.op === 'put' && last.value !== null && last.value.kind !== 'machine' && (last.value as ObjectView).rv === c.view.rv) return;
    const before = versions[versions.length - 1]?.value;
    const quiet = c.op === 'put' && c.view.kind === 'Node' && before !== undefined && before !== null && before.kind === 'Node' && sameButVersion(before, c.view);
    const version: Version = { rev: c.rev, time: c.time, value, prev: undefined, entry, live: true, quiet };
    let vi = versions.length;
    while (vi > 0 && versions[vi - 1]!.rev > c.rev) vi--;
    version.prev = versions[vi - 1];
    if (vi === versions.length) versions.push(version);
    else {
      versions.splice(vi, 0, version);
      versions[vi + 1]!.prev = version;
    }
    const log = this.log;
    let at = log.length;
    while (at > 0 && log[at - 1]!.rev > c.rev) at--;
    if (entry.kind === 'Pod') {
      const table = this.podTable;
      if (!table.stale) {
        if (at === log.length && c.rev >= table.lastRevision) table.append(entry.id, value as PodView | null, c.rev);
        else table.stale = true;
      }
    }
    if (at === log.length) log.push(version);
    else log.splice(at, 0, version);
    if (at < this.cursor || vi < versions.length - 1) this.cursorValid = false;
  }

  /** Folds away what is older than `heldFrom`: each object keeps its last version at or before it. */
  private trim(heldFrom: number, heldFromTime: number): void {
    this.from = heldFrom;
    this.fromTime = heldFromTime;
    this.folded = true;
    let removed = false;
    for (const [key, entry] of this.entries) {
      const vs = entry.versions;
      let keep = 0;
      while (keep + 1 < vs.length && vs[keep + 1]!.rev <= heldFrom) keep++;
      if (vs[keep]!.rev > heldFrom) continue;
      for (let i = 0; i < keep; i++) vs[i]!.live = false;
      const first = vs[keep]!;
      first.prev = undefined;
      if (first.value === null) {
        first.live = false;
        vs.splice(0, keep + 1);
        if (vs.length === 0) {
          this.entries.delete(key);
          removed = true;
        }
        else vs[0]!.prev = undefined;
      } else {
        vs.splice(0, keep);
      }
    }
    this.log = this.log.filter((v) => v.live);
    if (removed) this.others = [...this.entries.values()].filter((e) => e.kind !== 'Pod');
    this.podTable.stale = true;
    this.cursorValid = false;
  }

  /** Index of the first version with rev > revision. */
  private upperBound(revision: number): number {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.log[mid]!.rev <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private moveTo(target: number): void {
    const distance = Math.abs(target - this.cursor);
    // Walking the log passes over the pods' versions too: a walk that long costs about a rebuild.
    if (this.cursorValid && distance <= Math.max(64, 4 * this.others.length)) {
      if (target > this.cursor) for (let i = this.cursor; i < target; i++) this.apply(this.log[i]!, this.log[i]!.value);
      else for (let i = this.cursor - 1; i >= target; i--) this.apply(this.log[i]!, this.log[i]!.prev?.value ?? null);
    } else {
      this.rebuild(target);
    }
    this.cursor = target;
    this.cursorValid = true;
  }

  private rebuild(target: number): void {
    this.maps = emptyMaps();
    if (target === 0) return;
    const revision = this.log[target - 1]!.rev;
    for (const entry of this.others) {
      const vs = entry.versions;
      let lo = 0;
      let hi = vs.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (vs[mid]!.rev <= revision) lo = mid + 1;
        else hi = mid;
      }
      if (lo > 0) this.apply(vs[lo - 1]!, vs[lo - 1]!.value);
    }
  }

  private apply(v: Version, value: ObjectView | MachineValue | null): void {
    const kind = v.entry.kind;
    if (kind === 'Pod') return;
    const id = v.entry.id;
    if (kind === 'machine') {
      if (value === null) this.maps.machines.delete(id);
      else this.maps.machines.set(id, (value as MachineValue).running);
      return;
    }
    const map = this.maps[MAP_OF[kind]] as Map<string, ObjectView>;
    if (value === null) map.delete(id);
    else map.set(id, value as ObjectView);
  }
}
