/**
 * VolumeBinding, as far as kubesim has volumes: pods without PersistentVolumeClaims are skipped;
 * a claim that is missing, being deleted or unbound with Immediate binding makes the pod
 * unschedulable with upstream's texts; a bound claim's PersistentVolume node affinity filters
 * nodes. Claims waiting for their first consumer are not provisioned (no PV provisioner runs), so
 * no node can satisfy them.
 */
import type { PersistentVolume } from '../api';
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import { StateKey, type CycleState, type StateData } from '../framework/cycle-state';
import { Action, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, FilterPlugin, Handle, PreFilterPlugin } from '../framework/interface';
import { Code, SKIP, Status } from '../framework/status';
import { NodeSelectorMatcher } from '../../component-helpers/scheduling/node-affinity';
import { Names } from './names';

export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_REASON_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';

class PreFilterState implements StateData {
  constructor(
    readonly boundVolumes: readonly PersistentVolume[],
    readonly unboundDelayed: number,
  ) {}
  clone(): StateData {
    return this;
  }
}

const preFilterKey = new StateKey<PreFilterState>('PreFilter' + Names.VolumeBinding);

export class VolumeBinding implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = Names.VolumeBinding;

  constructor(private readonly handle: Handle) {}

  preFilter(state: CycleState, pod: PodInfo): Status | null {
    if (pod.pvcKeys.length === 0) return SKIP;
    const listers = this.handle.listers;
    const bound: PersistentVolume[] = [];
    let unboundDelayed = 0;
    let unboundImmediate = 0;
    for (const v of pod.pod.spec.volumes ?? []) {
      const claimName = v.persistentVolumeClaim?.claimName;
      if (!claimName) continue;
      const pvc = listers.persistentVolumeClaim(pod.namespace, claimName);
      if (!pvc) return new Status(Code.UnschedulableAndUnresolvable, [`persistentvolumeclaim "${claimName}" not found`]);
      if (pvc.metadata.deletionTimestamp) return new Status(Code.UnschedulableAndUnresolvable, [`persistentvolumeclaim "${claimName}" is being deleted`]);
      const volumeName = pvc.spec?.volumeName;
      if (volumeName) {
        const pv = listers.persistentVolume(volumeName);
        if (pv) bound.push(pv);
        continue;
      }
      const className = pvc.spec?.storageClassName ?? '';
      const mode = className ? listers.storageClass(className)?.volumeBindingMode : undefined;
      if (mode === 'WaitForFirstConsumer') unboundDelayed++;
      else unboundImmediate++;
    }
    if (unboundImmediate > 0) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_UNBOUND_IMMEDIATE]);
    state.write(preFilterKey, new PreFilterState(bound, unboundDelayed));
    return null;
  }

  filter(state: CycleState, _pod: PodInfo, node: NodeInfo): Status | null {
    const s = state.read(preFilterKey);
    if (!s) return null;
    for (const pv of s.boundVolumes) {
      const required = pv.spec?.nodeAffinity?.required;
      if (required && !new NodeSelectorMatcher(required).matches(node.name, node.labels)) {
        return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_NODE_CONFLICT]);
      }
    }
    if (s.unboundDelayed > 0) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_BIND_CONFLICT]);
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'PersistentVolumeClaim', action: Action.Add | Action.Update } },
      { event: { resource: 'PersistentVolume', action: Action.Add | Action.Update } },
      { event: { resource: 'StorageClass', action: Action.Add | Action.Update } },
      { event: { resource: 'Node', action: Action.Add | Action.UpdateNodeLabel | Action.UpdateNodeTaint } },
    ];
  }
}
