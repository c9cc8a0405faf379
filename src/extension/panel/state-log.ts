/**
 * The log of the store's revisions that the panel's pictures are drawn from: every version of
 * every Node, Pod, Deployment, ReplicaSet, Service and EndpointSlice, as the watch events of the
 * editor's informers deliver them (each object at its resourceVersion, a deletion at the
 * deletion's revision), plus when a node's kubelet stopped or started (its trace record).
 *
 * It runs from the moment the cluster host starts, so replay can reach back before the panel
 * was opened, and it is bounded: past `capacity` changes, the oldest are folded into a base
 * state (the latest version of each object at that point) and exact history then begins later.
 * The store's own history is no substitute: kube-apiserver compacts it every five minutes, and a
 * LIST at an exact revision for every frame of a scrub would cost the API server far too much.
 *
 * No vscode import: it is bundled with the cluster host and tested in plain node.
 */
import type { KubeObject } from '../../engine/api/types';
import type { Clock } from '../../engine/clock';
import { deletedObject, type DeletedFinalStateUnknown, type HandlerRegistration, type SharedIndexInformer, type SharedInformerFactory } from '../../engine/client/informer';
import type { TraceBuffer } from '../../engine/trace/buffer';
import { changeKey, keyOf, VIEW_KINDS, viewKey, type ObjectView, type StateChange, type ViewKind } from '../../protocol/cluster-state';
import { objectView, revisionOf, VIEW_RESOURCES } from './state-views';
import { own } from '../../engine/api/own';

/** Changes kept by default: about 300,000 pod and node revisions with room to spare. */
export const DEFAULT_STATE_LOG_CAPACITY = 400_000;

export interface StateLogOptions {
  factory: SharedInformerFactory;
  trace: TraceBuffer;
  clock: Clock;
  /** The machines at the start, and whether each one's kubelet runs. */
  machines: readonly { readonly node: string; readonly running: boolean }[];
  capacity?: number;
}

export interface StateSnapshot {
  readonly heldFrom: number;
  readonly heldFromTime: number;
  readonly capacity: number;
  /** The base state, then every change since, in revision order. */
  readonly changes: readonly StateChange[];
}

export type StateListener = (change: StateChange) => void;

export class StateLog {
  readonly capacity: number;
  private readonly clock: Clock;
  private readonly informers: SharedIndexInformer[] = [];
  /** The state folded out of the log: the change that last set each key. */
  private readonly base = new Map<string, StateChange>();
  private changes: StateChange[] = [];
  private head = 0;
  private foldedTo = 0;
  private foldedTime = 0;
  private startRevision: number | undefined;
  private startTime = 0;
  /** Per informer, the revision its first list stood at (the first revision it saw every event after). */
  private readonly listRevisions: (number | undefined)[] = [];
  private readonly registrations: HandlerRegistration[] = [];
  private lastRevision = 0;
  /** The newest view of each object, to share unchanged label maps between versions. */
  private readonly latest = new Map<string, ObjectView>();
  private readonly listeners = new Set<StateListener>();
  private readonly stops: (() => void)[] = [];

  constructor(options: StateLogOptions) {
    this.capacity = Math.max(1, options.capacity ?? DEFAULT_STATE_LOG_CAPACITY);
    this.clock = options.clock;
    for (const m of options.machines) this.base.set(`machine//${m.node}`, { op: 'machine', rev: 0, time: this.clock.now(), node: m.node, running: m.running });
    VIEW_KINDS.forEach((kind, i) => {
      const { group, version, resource } = VIEW_RESOURCES[kind];
      const informer = options.factory.informerFor({ group, version, resource });
      const registration = informer.addEventHandler({
        onAdd: (o) => {
          this.noteList(i);
          this.put(kind, o);
        },
        onUpdate: (old, o) => {
          this.noteList(i);
          if (old.metadata.resourceVersion !== o.metadata.resourceVersion) this.put(kind, o);
        },
        onDelete: (d) => {
          this.noteList(i);
          this.remove(kind, d, informer);
        },
      });
      this.informers.push(informer);
      this.registrations.push(registration);
      this.listRevisions.push(undefined);
      this.stops.push(() => registration.remove());
    });
    this.stops.push(
      options.trace.subscribe((r) => {
        if (r.type !== 'kubelet.action') return;
        if (r.action === 'node-stopped') this.machine(r.node, false, r.time);
        else if (r.action === 'node-started' || r.action === 'node-registered') this.machine(r.node, true, r.time);
      }),
    );
  }

  /**
   * The first revision whose state the log holds exactly: where the informers' first lists
   * stood (events before it were never seen), or later once old changes were folded away.
   */
  get heldFrom(): number {
    this.informers.forEach((_, i) => this.noteList(i));
    return Math.max(this.startRevision ?? Number.MAX_SAFE_INTEGER, this.foldedTo);
  }

  get heldFromTime(): number {
    return this.foldedTo > (this.startRevision ?? 0) ? this.foldedTime : this.startTime;
  }

  get size(): number {
    return this.changes.length - this.head;
  }

  /**
   * Called before each event is handled: once the handler has heard the first list, the
   * informer's last resourceVersion is still the list's (the reflector moves it after the sink).
   */
  private noteList(i: number): void {
    if (this.listRevisions[i] === undefined && this.registrations[i]?.hasSynced()) {
      this.listRevisions[i] = Number(this.informers[i]!.lastSyncResourceVersion()) || 0;
      if (this.listRevisions.every((r) => r !== undefined)) {
        this.startRevision = Math.max(0, ...(this.listRevisions as number[]));
        this.startTime = this.clock.now();
      }
    }
  }

  /** Everything held, for a (re-)sync: the base state, then the changes since, oldest first. */
  snapshot(): StateSnapshot {
    const heldFrom = this.heldFrom;
    const base = [...this.base.values()].sort((a, b) => a.rev - b.rev);
    return { heldFrom, heldFromTime: this.heldFromTime, capacity: this.capacity, changes: [...base, ...this.changes.slice(this.head)] };
  }

  subscribe(listener: StateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    for (const s of this.stops) s();
    this.stops.length = 0;
    this.listeners.clear();
  }

  private put(kind: ViewKind, o: KubeObject): void {
    const fresh = objectView(kind, o, this.clock.now());
    const key = keyOf(fresh);
    const prev = this.latest.get(key);
    const view = prev && sameLabels(prev.labels, fresh.labels) ? ({ ...fresh, labels: prev.labels } as ObjectView) : fresh;
    this.latest.set(key, view);
    this.append({ op: 'put', rev: view.rv, time: this.clock.now(), view });
  }

  private remove(kind: ViewKind, d: KubeObject | DeletedFinalStateUnknown, informer: SharedIndexInformer): void {
    const o = deletedObject(d);
    // A deletion the informer missed while disconnected has no revision of its own: it happened
    // by the relist's revision at the latest.
    const rev = o === d ? revisionOf(o) : Number(informer.lastSyncResourceVersion()) || this.lastRevision;
    const namespace = o.metadata.namespace;
    const name = o.metadata.name ?? '';
    this.latest.delete(viewKey(kind, namespace, name));
    this.append({ op: 'delete', rev, time: this.clock.now(), kind, ...(namespace ? { namespace } : {}), name });
  }

  private machine(node: string, running: boolean, time: number): void {
    const current = this.currentMachine(node);
    if (current === running) return;
    this.append({ op: 'machine', rev: this.lastRevision, time, node, running });
  }

  private currentMachine(node: string): boolean | undefined {
    const key = `machine//${node}`;
    for (let i = this.changes.length - 1; i >= this.head; i--) {
      const c = this.changes[i]!;
      if (c.op === 'machine' && c.node === node) return c.running;
    }
    const b = this.base.get(key);
    return b?.op === 'machine' ? b.running : undefined;
  }

  /** Adds a change in revision order (watches of different resources may deliver slightly out of order). */
  private append(change: StateChange): void {
    if (change.rev > this.lastRevision) this.lastRevision = change.rev;
    const list = this.changes;
    let at = list.length;
    while (at > this.head && list[at - 1]!.rev > change.rev) at--;
    if (at === list.length) list.push(change);
    else list.splice(at, 0, change);
    if (this.size > this.capacity) this.fold(this.size - this.capacity);
    for (const l of [...this.listeners]) l(change);
  }

  private fold(n: number): void {
    for (let i = 0; i < n; i++) {
      const c = this.changes[this.head++]!;
      const key = changeKey(c);
      if (c.op === 'delete') this.base.delete(key);
      else this.base.set(key, c);
      this.foldedTo = c.rev;
      this.foldedTime = c.time;
    }
    if (this.head > 65_536 && this.head * 2 > this.changes.length) {
      this.changes = this.changes.slice(this.head);
      this.head = 0;
    }
  }
}

function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k] !== own(b, k)) return false;
  return true;
}
