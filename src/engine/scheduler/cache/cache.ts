/**
 * The scheduler cache (pkg/scheduler/backend/cache): NodeInfos built from the node and pod
 * informers, plus "assumed" pods: a pod is assumed onto its node the moment the scheduling cycle
 * picks it, so the next cycle already counts its resources while the binding is still in flight.
 * The informer's add of the bound pod confirms the assumption; a failed binding forgets it.
 */
import type { Node, Pod } from '../api';
import { fail, ok, type Result } from '../../api/result';
import { NodeInfo, type ImageState } from './node-info';
import { NodeTree, zoneKey } from './node-tree';
import { PodInfo } from './pod-info';
import type { Snapshot } from './snapshot';

interface PodState {
  pi: PodInfo;
  bindingFinished: boolean;
}

export class CacheError extends Error {}

export class Cache {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly podStates = new Map<string, PodState>();
  private readonly assumed = new Set<string>();
  private readonly tree = new NodeTree();
  private readonly imageStates = new Map<string, ImageState>();
  /** Nodes whose NodeInfo changed since the last snapshot. */
  private readonly dirty = new Set<string>();
  private treeChanged = true;

  isAssumedPod(uid: string): boolean {
    return this.assumed.has(uid);
  }

  /** AssumePod: `pi` carries the chosen node in spec.nodeName. */
  assumePod(pi: PodInfo): void {
    if (this.podStates.has(pi.uid)) throw new CacheError(`pod ${pi.key}(${pi.uid}) is in the cache, so can't be assumed`);
    this.addPodToNode(pi);
    this.podStates.set(pi.uid, { pi, bindingFinished: false });
    this.assumed.add(pi.uid);
  }

  finishBinding(uid: string): void {
    const state = this.podStates.get(uid);
    if (state && this.assumed.has(uid)) state.bindingFinished = true;
  }

  /**
   * ForgetPod: drops an assumed pod whose binding failed. It fails, as upstream's does, for a pod
   * that is no longer assumed: the informer confirmed it meanwhile (its binding was stored even
   * though the write answered an error, as etcd's quota applier does under NOSPACE) or removed it.
   * kube-scheduler logs that failure and goes on; so do the callers here.
   */
  forgetPod(pi: PodInfo): Result<void> {
    const state = this.podStates.get(pi.uid);
    if (state && state.pi.nodeName !== pi.nodeName) return fail(`pod ${pi.key}(${pi.uid}) was assumed on ${pi.nodeName} but assigned to ${state.pi.nodeName}`);
    if (!state || !this.assumed.has(pi.uid)) return fail(`pod ${pi.key}(${pi.uid}) wasn't assumed so cannot be forgotten`);
    this.removePodFromNode(state.pi);
    this.podStates.delete(pi.uid);
    this.assumed.delete(pi.uid);
    return ok(undefined);
  }

  /** AddPod: an assigned pod from the informer; confirms an assumed pod. */
  addPod(pod: Pod): void {
    const prior = this.podStates.get(pod.metadata.uid)?.pi;
    this.addPodInfo(new PodInfo(pod, prior));
  }

  private addPodInfo(pi: PodInfo): void {
    const state = this.podStates.get(pi.uid);
    if (state && this.assumed.has(pi.uid)) {
      // The binding landed; the informer's copy replaces the assumed one (possibly on another node).
      this.removePodFromNode(state.pi);
      this.addPodToNode(pi);
      this.assumed.delete(pi.uid);
      this.podStates.set(pi.uid, { pi, bindingFinished: true });
      return;
    }
    if (state) return;
    this.addPodToNode(pi);
    this.podStates.set(pi.uid, { pi, bindingFinished: true });
  }

  updatePod(newPod: Pod): void {
    const uid = newPod.metadata.uid;
    const state = this.podStates.get(uid);
    if (!state || this.assumed.has(uid)) {
      this.addPod(newPod);
      return;
    }
    const newPI = new PodInfo(newPod, state.pi);
    this.removePodFromNode(state.pi);
    this.addPodToNode(newPI);
    state.pi = newPI;
  }

  removePod(uid: string): void {
    const state = this.podStates.get(uid);
    if (!state) return;
    this.removePodFromNode(state.pi);
    this.podStates.delete(uid);
    this.assumed.delete(uid);
  }

  addNode(node: Node): NodeInfo {
    const name = node.metadata.name;
    let info = this.nodes.get(name);
    if (!info) {
      info = new NodeInfo();
      this.nodes.set(name, info);
    } else if (info.node) {
      this.removeNodeImageStates(info.node);
    }
    this.tree.add(node);
    this.addNodeImageStates(node, info);
    info.setNode(node);
    this.markDirty(name, true);
    return info;
  }

  updateNode(oldNode: Node, newNode: Node): NodeInfo {
    const name = newNode.metadata.name;
    const info = this.nodes.get(name);
    if (!info || !info.node) return this.addNode(newNode);
    this.removeNodeImageStates(info.node);
    this.tree.update(oldNode, newNode);
    this.addNodeImageStates(newNode, info);
    info.setNode(newNode);
    this.markDirty(name, zoneKey(oldNode) !== zoneKey(newNode));
    return info;
  }

  removeNode(node: Node): void {
    const name = node.metadata.name;
    const info = this.nodes.get(name);
    if (!info) return;
    if (info.node) this.removeNodeImageStates(info.node);
    info.removeNode();
    // Pods still bound to a deleted node stay accounted until their own deletion arrives.
    if (info.pods.length === 0) this.nodes.delete(name);
    this.tree.remove(node);
    this.markDirty(name, true);
  }

  /** UpdateSnapshot: copies the NodeInfos changed since the last call into `snapshot`. */
  updateSnapshot(snapshot: Snapshot): void {
    let rebuildAffinity = false;
    let rebuildList = this.treeChanged;
    const changed = [...this.dirty];
    for (const name of changed) {
      const info = this.nodes.get(name);
      if (!info || !info.node) {
        if (snapshot.nodeInfoMap.delete(name)) rebuildList = true;
        continue;
      }
      let existing = snapshot.nodeInfoMap.get(name);
      if (!existing) {
        existing = new NodeInfo();
        snapshot.nodeInfoMap.set(name, existing);
        rebuildList = true;
      }
      const hadAffinity = existing.podsWithAffinity.length > 0;
      const hadAnti = existing.podsWithRequiredAntiAffinity.length > 0;
      existing.copyFrom(info);
      if (hadAffinity !== existing.podsWithAffinity.length > 0 || hadAnti !== existing.podsWithRequiredAntiAffinity.length > 0) rebuildAffinity = true;
    }
    this.dirty.clear();
    this.treeChanged = false;
    if (rebuildList) {
      snapshot.list = [];
      for (const name of this.tree.list()) {
        const info = snapshot.nodeInfoMap.get(name);
        if (info) snapshot.list.push(info);
      }
    }
    if (rebuildList || rebuildAffinity) snapshot.rebuildAffinityLists();
    snapshot.recordUpdate(changed, rebuildList);
  }

  private addPodToNode(pi: PodInfo): void {
    const name = pi.nodeName;
    let info = this.nodes.get(name);
    if (!info) {
      info = new NodeInfo();
      this.nodes.set(name, info);
    }
    info.addPod(pi);
    this.markDirty(name, false);
  }

  private removePodFromNode(pi: PodInfo): void {
    const name = pi.nodeName;
    const info = this.nodes.get(name);
    if (!info) return;
    info.removePod(pi.uid);
    if (info.pods.length === 0 && !info.node) this.nodes.delete(name);
    this.markDirty(name, false);
  }

  private markDirty(name: string, treeChanged: boolean): void {
    this.dirty.add(name);
    if (treeChanged) this.treeChanged = true;
  }

  private addNodeImageStates(node: Node, info: NodeInfo): void {
    const summary = new Map<string, ImageState>();
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) {
        let state = this.imageStates.get(name);
        if (!state) {
          state = { size: image.sizeBytes ?? 0, nodes: new Set() };
          this.imageStates.set(name, state);
        }
        state.nodes.add(node.metadata.name);
        if (!summary.has(name)) summary.set(name, state);
      }
    }
    info.imageStates = summary;
  }

  private removeNodeImageStates(node: Node): void {
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) {
        const state = this.imageStates.get(name);
        if (!state) continue;
        state.nodes.delete(node.metadata.name);
        if (state.nodes.size === 0) this.imageStates.delete(name);
      }
    }
  }
}
