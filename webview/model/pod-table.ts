/**
 * The pods of the state history in typed arrays, for replay: every pod version the history holds
 * is a row (its pod, node, tone, requests, owner as small integers and numbers), rows are in
 * revision order, and the state at a revision is one Int32Array: each pod's row then (-1: the
 * pod did not exist). A jump to any revision copies the nearest keyframe (a saved state every
 * 8,192 rows, made on first use) and applies at most 8,192 rows forward from it, so it costs the
 * same whatever the length of the history; stepping nearby applies or undoes the rows in between.
 *
 * This is what lets the map lay out 30,000 pods at a random revision of 300,000 in a few
 * milliseconds: it reads adjacent numbers instead of chasing 30,000 objects scattered over a heap
 * that holds every version (webview/model/map-layout.ts).
 *
 *     const slots = table.at(revision);   // { table, cur }: cur[pod] is the pod's row, or -1
 *     for (let pod = 0; pod < table.pods; pod++) if (table.present(slots.cur[pod])) ...
 *
 * Rows are only ever appended in revision order; a change that arrives out of order, or a fold
 * of old history, marks the table stale and the history rebuilds it from its versions.
 */
import type { PodView } from '../../src/protocol/cluster-state';
import { holdsResources, POD_TONES, podTone, type PodTone } from './tones';

export const KEYFRAME = 8192;

/** The state of the pods at one revision: `cur[pod]` is the row in effect (-1: no such pod yet). */
export interface PodSlots {
  readonly table: PodTable;
  readonly cur: Int32Array;
}

const TONE_CODE: ReadonlyMap<PodTone, number> = new Map(POD_TONES.map((t, i) => [t, i]));

function grow<T extends Int32Array | Uint8Array | Float64Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2, 1024));
  next.set(a);
  return next;
}

export class PodTable {
  // ---- pods ("namespace/name", as the state's map keys them) ----
  /** The pod's key, by pod id. */
  readonly keys: string[] = [];
  /** The pod's namespace id, by pod id. */
  private podNs = new Int32Array(0);
  private readonly podIds = new Map<string, number>();
  readonly namespaces: string[] = [];
  private readonly nsIds = new Map<string, number>();
  /** The last row of each pod (while appending). */
  private lastRow = new Int32Array(0);

  // ---- nodes and owners, by id ----
  readonly nodeNames: string[] = [];
  private readonly nodeIds = new Map<string, number>();
  /** "ReplicaSet web-7d4b9c" or "no controller". */
  readonly ownerLabels: string[] = [];
  /** "ReplicaSet/web-7d4b9c" for the owner filter; undefined without a controller. */
  readonly ownerRefs: (string | undefined)[] = [];
  private readonly ownerIds = new Map<string, number>();

  // ---- (pod, owner) pairs, ranked in the map's order: owner label, namespace, name ----
  private pairPod = new Int32Array(0);
  private readonly pairOrder: string[] = [];
  private readonly pairIds = new Map<number, number>();
  /** Pair ids in order; the first `ranked` pairs are in it. */
  private rank = new Int32Array(0);
  private ranked = 0;

  // ---- rows (pod versions), in revision order ----
  private count = 0;
  private rowRev = new Float64Array(0);
  private rowPod = new Int32Array(0);
  /** The same pod's row before (-1: none). */
  private rowPrev = new Int32Array(0);
  /** The row's (pod, owner) pair; -1: the pod is deleted from this row on. */
  private rowPair = new Int32Array(0);
  /** The node id; -1: not bound. */
  private rowNode = new Int32Array(0);
  private rowTone = new Uint8Array(0);
  private rowHolds = new Uint8Array(0);
  private rowCpu = new Float64Array(0);
  private rowMem = new Float64Array(0);
  private rowOwner = new Int32Array(0);
  private readonly rowView: (PodView | null)[] = [];

  // ---- the cursor and the keyframes ----
  private cur = new Int32Array(0);
  private cursor = 0;
  /** keyframes[k]: `cur` after the first k * KEYFRAME rows (shorter arrays: later pods are -1). */
  private keyframes: (Int32Array | undefined)[] = [];
  private podsMap: { cursor: number; count: number; map: Map<string, PodView> } | undefined;

  /** The history marks it stale when it must be rebuilt from the versions (out-of-order change, fold). */
  stale = false;

  get rows(): number {
    return this.count;
  }

  get pods(): number {
    return this.keys.length;
  }

  get lastRevision(): number {
    return this.count === 0 ? -Infinity : this.rowRev[this.count - 1]!;
  }

  /** A pod built from a state's map (a state not read from a history: the unit tests'). */
  static of(pods: ReadonlyMap<string, PodView>): PodSlots {
    const t = new PodTable();
    for (const [key, p] of pods) t.append(key, p, 0);
    return t.at(0);
  }

  /** Appends a pod version (null: deleted) at `rev`, which is not older than the last row's. */
  append(key: string, view: PodView | null, rev: number): void {
    let pod = this.podIds.get(key);
    if (pod === undefined) {
      pod = this.keys.length;
      this.keys.push(key);
      this.podIds.set(key, pod);
      const ns = view?.namespace ?? key.slice(0, Math.max(0, key.indexOf('/')));
      let nsId = this.nsIds.get(ns);
      if (nsId === undefined) {
        nsId = this.namespaces.length;
        this.namespaces.push(ns);
        this.nsIds.set(ns, nsId);
      }
      this.podNs = grow(this.podNs, pod + 1);
      this.podNs[pod] = nsId;
      this.lastRow = grow(this.lastRow, pod + 1);
      this.lastRow[pod] = -1;
      this.cur = grow(this.cur, pod + 1);
      this.cur[pod] = -1;
    }
    const row = this.count++;
    if (row >= this.rowRev.length) {
      const n = row + 1;
      this.rowRev = grow(this.rowRev, n);
      this.rowPod = grow(this.rowPod, n);
      this.rowPrev = grow(this.rowPrev, n);
      this.rowPair = grow(this.rowPair, n);
      this.rowNode = grow(this.rowNode, n);
      this.rowTone = grow(this.rowTone, n);
      this.rowHolds = grow(this.rowHolds, n);
      this.rowCpu = grow(this.rowCpu, n);
      this.rowMem = grow(this.rowMem, n);
      this.rowOwner = grow(this.rowOwner, n);
    }
    this.rowRev[row] = rev;
    this.rowPod[row] = pod;
    this.rowPrev[row] = this.lastRow[pod]!;
    this.lastRow[pod] = row;
    this.rowView[row] = view;
    if (view === null) {
      this.rowPair[row] = -1;
      this.rowNode[row] = -1;
      this.rowTone[row] = 0;
      this.rowHolds[row] = 0;
      this.rowCpu[row] = 0;
      this.rowMem[row] = 0;
      this.rowOwner[row] = -1;
    } else {
      const owner = this.ownerId(view);
      this.rowOwner[row] = owner;
      this.rowPair[row] = this.pairId(pod, owner, view);
      this.rowNode[row] = view.node === undefined ? -1 : this.nodeId(view.node);
      this.rowTone[row] = TONE_CODE.get(podTone(view))!;
      this.rowHolds[row] = holdsResources(view) ? 1 : 0;
      this.rowCpu[row] = view.requests.milliCPU;
      this.rowMem[row] = view.requests.memory;
    }
  }

  /** The pods at `revision` (the rows up to it). The array is shared: it changes at the next call. */
  at(revision: number): PodSlots {
    this.moveTo(this.upperBound(revision));
    return { table: this, cur: this.cur };
  }

  /** The pods at the cursor as a map by key (built on first use after each move). */
  podMap(): ReadonlyMap<string, PodView> {
    const m = this.podsMap;
    if (m && m.cursor === this.cursor && m.count === this.count) return m.map;
    const map = new Map<string, PodView>();
    const cur = this.cur;
    for (let pod = 0; pod < this.keys.length; pod++) {
      const row = cur[pod]!;
      if (row >= 0 && this.rowPair[row]! >= 0) map.set(this.keys[pod]!, this.rowView[row]!);
    }
    this.podsMap = { cursor: this.cursor, count: this.count, map };
    return map;
  }

  // ---- reading rows (the layout's accessors) ----

  /** The row shows a pod (not a deletion, not "no such pod"). */
  present(row: number): boolean {
    return row >= 0 && this.rowPair[row]! >= 0;
  }
  view(row: number): PodView {
    return this.rowView[row]!;
  }
  node(row: number): number {
    return this.rowNode[row]!;
  }
  tone(row: number): PodTone {
    return POD_TONES[this.rowTone[row]!]!;
  }
  holds(row: number): boolean {
    return this.rowHolds[row] === 1;
  }
  cpu(row: number): number {
    return this.rowCpu[row]!;
  }
  memory(row: number): number {
    return this.rowMem[row]!;
  }
  owner(row: number): number {
    return this.rowOwner[row]!;
  }
  pair(row: number): number {
    return this.rowPair[row]!;
  }
  podOf(row: number): number {
    return this.rowPod[row]!;
  }
  namespaceOf(pod: number): number {
    return this.podNs[pod]!;
  }
  nodeIdOf(name: string): number | undefined {
    return this.nodeIds.get(name);
  }
  podOfPair(pair: number): number {
    return this.pairPod[pair]!;
  }

  /** Every (pod, owner) pair in the map's order; pairs whose pod shows another owner (or none) at a revision are skipped by the reader. */
  order(): Int32Array {
    const total = this.pairOrder.length;
    if (this.ranked < total) {
      const fresh = Array.from({ length: total - this.ranked }, (_, i) => this.ranked + i);
      const key = this.pairOrder;
      const cmp = (a: number, b: number) => (key[a]! < key[b]! ? -1 : key[a]! > key[b]! ? 1 : 0);
      fresh.sort(cmp);
      // Merge the new pairs into the ranked ones.
      const next = new Int32Array(total);
      let i = 0;
      let j = 0;
      let k = 0;
      const old = this.rank;
      while (i < this.ranked && j < fresh.length) next[k++] = cmp(old[i]!, fresh[j]!) <= 0 ? old[i++]! : fresh[j++]!;
      while (i < this.ranked) next[k++] = old[i++]!;
      while (j < fresh.length) next[k++] = fresh[j++]!;
      this.rank = next;
      this.ranked = total;
    }
    return this.rank;
  }

  // ---- internals ----

  private nodeId(name: string): number {
    let id = this.nodeIds.get(name);
    if (id === undefined) {
      id = this.nodeNames.length;
      this.nodeNames.push(name);
      this.nodeIds.set(name, id);
    }
    return id;
  }

  private ownerId(p: PodView): number {
    const o = p.owner;
    const k = o ? `${o.uid}|${o.kind}/${o.name}` : '';
    let id = this.ownerIds.get(k);
    if (id === undefined) {
      id = this.ownerLabels.length;
      this.ownerLabels.push(o ? `${o.kind} ${o.name}` : 'no controller');
      this.ownerRefs.push(o ? `${o.kind}/${o.name}` : undefined);
      this.ownerIds.set(k, id);
    }
    return id;
  }

  private pairId(pod: number, owner: number, p: PodView): number {
    const k = pod * 1_048_576 + owner;
    let id = this.pairIds.get(k);
    if (id === undefined) {
      id = this.pairOrder.length;
      // "ReplicaSet web-1\u0000default\u0000web-1-abc": NUL sorts before any character of a name.
      this.pairOrder.push(`${this.ownerLabels[owner]}\u0000${p.namespace ?? ''}\u0000${p.name}`);
      this.pairPod = grow(this.pairPod, id + 1);
      this.pairPod[id] = pod;
      this.pairIds.set(k, id);
    }
    return id;
  }

  /** Index of the first row with rev > revision. */
  private upperBound(revision: number): number {
    let lo = 0;
    let hi = this.count;
    const revs = this.rowRev;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (revs[mid]! <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private moveTo(target: number): void {
    // Rows appended since the keyframes were made leave them valid: each describes a prefix.
    const cur = this.cur;
    if (target < this.cursor && this.cursor - target <= KEYFRAME) {
      for (let i = this.cursor - 1; i >= target; i--) cur[this.rowPod[i]!] = this.rowPrev[i]!;
      this.cursor = target;
      return;
    }
    if (target < this.cursor || target - this.cursor > KEYFRAME) {
      // From the nearest keyframe at or before the target, unless the cursor is nearer.
      let k = Math.floor(target / KEYFRAME);
      while (k > 0 && !this.keyframes[k]) k--;
      if (target < this.cursor || k * KEYFRAME > this.cursor) {
        cur.fill(-1, 0, this.keys.length);
        const frame = this.keyframes[k];
        if (frame) cur.set(frame);
        this.cursor = k * KEYFRAME;
      }
    }
    const pods = this.rowPod;
    for (let i = this.cursor; i < target; i++) {
      cur[pods[i]!] = i;
      const next = i + 1;
      if (next % KEYFRAME === 0 && !this.keyframes[next / KEYFRAME]) this.keyframes[next / KEYFRAME] = cur.slice(0, this.keys.length);
    }
    this.cursor = target;
  }
}
