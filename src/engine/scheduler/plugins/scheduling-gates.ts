/** SchedulingGates (PreEnqueue): a pod with spec.schedulingGates stays out of the active queue. */
import type { Pod } from '../api';
import type { PodInfo } from '../cache/pod-info';
import { QueueingHint, Action, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, PreEnqueuePlugin } from '../framework/interface';
import { Code, newStatus, type Status } from '../framework/status';
import { Names } from './names';

export class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  readonly name = Names.SchedulingGates;

  preEnqueue(pod: PodInfo): Status | null {
    const gates = pod.pod.spec.schedulingGates ?? [];
    if (gates.length === 0) return null;
    return newStatus(Code.UnschedulableAndUnresolvable, `waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Pod', action: Action.UpdatePodSchedulingGatesEliminated },
        hint: (pod, _old, newObj) => ((newObj as Pod).metadata.uid === pod.metadata.uid ? QueueingHint.Queue : QueueingHint.QueueSkip),
      },
    ];
  }
}
