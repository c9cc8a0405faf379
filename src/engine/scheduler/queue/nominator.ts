/**
 * The nominator: pods nominated to a node (by preemption) that are not bound yet. Filters treat
 * them as if they ran there, so the room preemption made is not taken by lower-priority pods.
 */
import type { Pod } from '../api';
import type { PodInfo } from '../cache/pod-info';
import type { NominatingInfo } from '../framework/interface';

export class Nominator {
  private readonly byNode = new Map<string, PodInfo[]>();
  private readonly podToNode = new Map<string, string>();

  constructor(private readonly latestPod: (namespace: string, name: string) => Pod | undefined) {}

  /** AddNominatedPod: `info` null means keep whatever status.nominatedNodeName says. */
  add(pi: PodInfo, info: NominatingInfo | null): void {
    this.delete(pi.uid);
    const nodeName = info?.mode === 'override' ? info.nodeName : (pi.pod.status?.nominatedNodeName ?? '');
    if (nodeName === '') return;
    // A pod that is gone or already bound holds no nomination.
    const current = this.latestPod(pi.namespace, pi.name);
    if (!current || current.spec.nodeName) return;
    this.podToNode.set(pi.uid, nodeName);
    const list = this.byNode.get(nodeName) ?? [];
    if (list.some((p) => p.uid === pi.uid)) return;
    list.push(pi);
    this.byNode.set(nodeName, list);
  }

  delete(uid: string): void {
    const node = this.podToNode.get(uid);
    if (node === undefined) return;
    this.podToNode.delete(uid);
    const list = (this.byNode.get(node) ?? []).filter((p) => p.uid !== uid);
    if (list.length === 0) this.byNode.delete(node);
    else this.byNode.set(node, list);
  }

  /** UpdateNominatedPod: keeps an in-memory nomination an update without one would otherwise drop. */
  update(oldPod: Pod, newPI: PodInfo): void {
    let info: NominatingInfo | null = null;
    if (!oldPod.status?.nominatedNodeName && !newPI.pod.status?.nominatedNodeName) {
      const nnn = this.podToNode.get(oldPod.metadata.uid);
      if (nnn !== undefined) info = { mode: 'override', nodeName: nnn };
    }
    this.delete(oldPod.metadata.uid);
    this.add(newPI, info);
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.byNode.get(nodeName) ?? EMPTY;
  }

  empty(): boolean {
    return this.podToNode.size === 0;
  }
}

const EMPTY: readonly PodInfo[] = Object.freeze([]);
