/**
 * DynamicResources (DRA, GA and enabled by default in 1.35). kubesim simulates no ResourceClaims:
 * a pod without claims is skipped, and its PostFilter says so with upstream's words ("no new
 * claims to deallocate"), which is why every 1.35 FailedScheduling message carries them. A pod
 * that references claims cannot be scheduled here.
 */
import type { Pod } from '../api';
import type { PodInfo } from '../cache/pod-info';
import type { CycleState } from '../framework/cycle-state';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, PostFilterPlugin, PostFilterResult, PreFilterPlugin } from '../framework/interface';
import { Code, SKIP, Status } from '../framework/status';
import { Names } from './names';

export class DynamicResources implements PreFilterPlugin, PostFilterPlugin, EnqueueExtensions {
  readonly name = Names.DynamicResources;

  preFilter(_state: CycleState, pod: PodInfo): Status | null {
    const claims = pod.pod.spec.resourceClaims ?? [];
    if (claims.length === 0) return SKIP;
    return new Status(Code.UnschedulableAndUnresolvable, [`resourceclaim "${claims[0]!.name}" not found`]);
  }

  /** Claims, slices and device classes do not exist in kubesim: only the pod's own claim statuses can change. */
  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Pod', action: Action.UpdatePodGeneratedResourceClaim },
        hint: (pod, _old, newObj) => ((newObj as Pod).metadata.uid === pod.metadata.uid ? QueueingHint.Queue : QueueingHint.QueueSkip),
      },
    ];
  }

  postFilter(): PostFilterResult {
    return { nominatingInfo: null, status: new Status(Code.Unschedulable, ['no new claims to deallocate']) };
  }
}
