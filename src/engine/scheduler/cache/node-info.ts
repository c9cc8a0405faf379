/**
 * framework.NodeInfo: a node with the aggregates scheduling reads on every cycle, kept up to date
 * as pods come and go (requested and non-zero requested resources, host ports in use, pods with
 * affinity, PVC references), so a filter or score is a handful of field reads.
 */
import type { Labels } from '../../api/labels';
import type { Node, Taint } from '../api';
import type { HostPort, PodInfo } from './pod-info';
import { EMPTY_LABELS } from './pod-info';
import { Resource } from './resource';

/** Images present on a node, shared by every node that has them (cache.imageStates). */
export interface ImageState {
  readonly size: number;
  readonly nodes: Set<string>;
}

let generation = 0;
/** A cluster-wide increasing generation, as upstream stamps NodeInfos to find what changed. */
export const nextGeneration = (): number => ++generation;

/** HostPortInfo: ip -> "protocol/port" set; 0.0.0.0 conflicts with every address. */
export class HostPortInfo {
  private readonly byIP = new Map<string, Set<string>>();

  add(p: HostPort): void {
    let set = this.byIP.get(p.ip);
    if (!set) this.byIP.set(p.ip, (set = new Set()));
    set.add(`${p.protocol}/${p.port}`);
  }

  remove(p: HostPort): void {
    const set = this.byIP.get(p.ip);
    if (!set) return;
    set.delete(`${p.protocol}/${p.port}`);
    if (set.size === 0) this.byIP.delete(p.ip);
  }

  get size(): number {
    let n = 0;
    for (const s of this.byIP.values()) n += s.size;
    return n;
  }

  conflicts(p: HostPort): boolean {
    const pp = `${p.protocol}/${p.port}`;
    if (p.ip === '0.0.0.0') {
      for (const s of this.byIP.values()) if (s.has(pp)) return true;
      return false;
    }
    return !!this.byIP.get('0.0.0.0')?.has(pp) || !!this.byIP.get(p.ip)?.has(pp);
  }

  clone(): HostPortInfo {
    const c = new HostPortInfo();
    for (const [ip, s] of this.byIP) c.byIP.set(ip, new Set(s));
    return c;
  }
}

const SCHEDULE_BLOCKING_EFFECTS = new Set(['NoSchedule', 'NoExecute']);

export class NodeInfo {
  node: Node | null = null;
  name = '';
  labels: Labels = EMPTY_LABELS;
  /** spec.unschedulable */
  unschedulable = false;
  taints: readonly Taint[] = [];
  /** Taints with effect NoSchedule or NoExecute: the ones the TaintToleration filter checks. */
  blockingTaints: readonly Taint[] = [];
  pods: PodInfo[] = [];
  podsWithAffinity: PodInfo[] = [];
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  usedPorts = new HostPortInfo();
  requested = new Resource();
  /** Requests with 100m / 200Mi for containers that state none: what scoring compares. */
  nonZeroRequested = new Resource();
  allocatable = new Resource();
  private images: ReadonlyMap<string, ImageState> = new Map();
  pvcRefCounts = new Map<string, number>();
  generation = nextGeneration();
  /**
   * The numbers the resource filter and scores read of every node in every cycle, as fields of
   * the NodeInfo itself, so that a check reaches one object instead of the pod list and three
   * Resources: what is free (allocatable minus requested, the subtraction the filter would do),
   * the room for pods, and the requests the scores add the pod to. Kept by setNode, addPod,
   * removePod and copyFrom (refit); read only.
   */
  podRoom = 0;
  freeMilliCPU = 0;
  freeMemory = 0;
  freeEphemeralStorage = 0;
  allocatableMilliCPU = 0;
  allocatableMemory = 0;
  requestedMilliCPU = 0;
  requestedMemory = 0;
  nonZeroMilliCPU = 0;
  nonZeroMemory = 0;
  /** taints.length, blockingTaints.length and imageStates.size, for the same reason. */
  taintCount = 0;
  blockingTaintCount = 0;
  imageCount = 0;

  get imageStates(): ReadonlyMap<string, ImageState> {
    return this.images;
  }

  set imageStates(states: ReadonlyMap<string, ImageState>) {
    this.images = states;
    this.imageCount = states.size;
  }
  /** Numbers derived from this node's pods, valid while `memoGeneration` is current (see memoized). */
  private readonly memo = new Map<string, number>();
  private memoGeneration = -1;

  /**
   * A number computed from this node's pods, remembered until the pods change. Spreading counts
   * a selector's pods on every node in every cycle; most nodes have not changed since the last
   * cycle, and the pods of many workloads take turns in the queue (ReplicaSets creating in
   * batches side by side), so each workload's count is kept.
   */
  memoized<A>(key: string, compute: (node: NodeInfo, arg: A) => number, arg: A): number {
    if (this.memoGeneration !== this.generation) {
      this.memo.clear();
      this.memoGeneration = this.generation;
    }
    let v = this.memo.get(key);
    if (v === undefined) {
      v = compute(this, arg);
      if (this.memo.size >= MEMO_ENTRIES) this.memo.clear();
      this.memo.set(key, v);
    }
    return v;
  }

  setNode(node: Node): void {
    this.node = node;
    this.name = node.metadata.name;
    this.labels = node.metadata.labels ?? EMPTY_LABELS;
    this.unschedulable = node.spec?.unschedulable === true;
    this.taints = node.spec?.taints ?? [];
    this.blockingTaints = this.taints.filter((t) => SCHEDULE_BLOCKING_EFFECTS.has(t.effect));
    this.taintCount = this.taints.length;
    this.blockingTaintCount = this.blockingTaints.length;
    this.allocatable = Resource.from(node.status?.allocatable);
    this.generation = nextGeneration();
    this.refit();
  }

  /** RemoveNode: the node is gone but pods may still be accounted to it. */
  removeNode(): void {
    this.node = null;
    this.generation = nextGeneration();
  }

  addPod(pi: PodInfo): void {
    this.pods.push(pi);
    if (pi.hasAffinity) this.podsWithAffinity.push(pi);
    if (pi.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity.push(pi);
    this.update(pi, 1);
  }

  /** Removes the pod with this uid; false when the node does not hold it. */
  removePod(uid: string): boolean {
    const i = this.pods.findIndex((p) => p.uid === uid);
    if (i < 0) return false;
    const pi = this.pods[i]!;
    this.pods.splice(i, 1);
    removeByUID(this.podsWithAffinity, uid);
    removeByUID(this.podsWithRequiredAntiAffinity, uid);
    this.update(pi, -1);
    return true;
  }

  private update(pi: PodInfo, sign: 1 | -1): void {
    this.requested.accumulate(pi.requests, sign);
    this.nonZeroRequested.milliCPU += sign * pi.nonZeroCPU;
    this.nonZeroRequested.memory += sign * pi.nonZeroMemory;
    for (const p of pi.hostPorts) {
      if (sign > 0) this.usedPorts.add(p);
      else this.usedPorts.remove(p);
    }
    for (const key of pi.pvcKeys) {
      const n = (this.pvcRefCounts.get(key) ?? 0) + sign;
      if (n <= 0) this.pvcRefCounts.delete(key);
      else this.pvcRefCounts.set(key, n);
    }
    this.generation = nextGeneration();
    this.refit();
  }

  private refit(): void {
    const a = this.allocatable;
    const r = this.requested;
    this.podRoom = a.allowedPodNumber - this.pods.length;
    this.freeMilliCPU = a.milliCPU - r.milliCPU;
    this.freeMemory = a.memory - r.memory;
    this.freeEphemeralStorage = a.ephemeralStorage - r.ephemeralStorage;
    this.allocatableMilliCPU = a.milliCPU;
    this.allocatableMemory = a.memory;
    this.requestedMilliCPU = r.milliCPU;
    this.requestedMemory = r.memory;
    this.nonZeroMilliCPU = this.nonZeroRequested.milliCPU;
    this.nonZeroMemory = this.nonZeroRequested.memory;
  }

  /** Snapshot(): a copy whose pod lists and aggregates can change without touching this one. */
  clone(): NodeInfo {
    const c = new NodeInfo();
    c.copyFrom(this);
    return c;
  }

  copyFrom(src: NodeInfo): void {
    this.node = src.node;
    this.name = src.name;
    this.labels = src.labels;
    this.unschedulable = src.unschedulable;
    this.taints = src.taints;
    this.blockingTaints = src.blockingTaints;
    this.taintCount = src.taintCount;
    this.blockingTaintCount = src.blockingTaintCount;
    this.pods = src.pods.slice();
    this.podsWithAffinity = src.podsWithAffinity.slice();
    this.podsWithRequiredAntiAffinity = src.podsWithRequiredAntiAffinity.slice();
    this.usedPorts = src.usedPorts.clone();
    this.requested = src.requested.clone();
    this.nonZeroRequested = src.nonZeroRequested.clone();
    this.allocatable = src.allocatable;
    this.imageStates = src.imageStates;
    this.pvcRefCounts = new Map(src.pvcRefCounts);
    this.generation = src.generation;
    this.refit();
  }
}

/** Counts kept per node: workloads being scheduled at the same time, far more than usual. */
const MEMO_ENTRIES = 256;

function removeByUID(list: PodInfo[], uid: string): void {
  const i = list.findIndex((p) => p.uid === uid);
  if (i >= 0) list.splice(i, 1);
}
