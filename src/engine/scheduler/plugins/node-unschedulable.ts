/** NodeUnschedulable (Filter): a cordoned node takes only pods tolerating its unschedulable taint. */
import type { Node, Pod } from '../api';
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import type { CycleState } from '../framework/cycle-state';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, FilterPlugin } from '../framework/interface';
import { Code, Status } from '../framework/status';
import { UNSCHEDULABLE_TAINT, tolerationsTolerateTaint } from '../../component-helpers/scheduling/taints';
import { Names } from './names';

export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';

export class NodeUnschedulable implements FilterPlugin, EnqueueExtensions {
  readonly name = Names.NodeUnschedulable;

  filter(_state: CycleState, pod: PodInfo, node: NodeInfo): Status | null {
    if (!node.unschedulable) return null;
    if (tolerationsTolerateTaint(pod.pod.spec.tolerations, UNSCHEDULABLE_TAINT)) return null;
    return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_UNSCHEDULABLE]);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'Node', action: Action.Add | Action.UpdateNodeTaint }, hint: afterNodeChange },
      {
        event: { resource: 'Pod', action: Action.UpdatePodToleration },
        hint: (pod, _old, newObj) => ((newObj as Pod).metadata.uid === pod.metadata.uid ? QueueingHint.Queue : QueueingHint.QueueSkip),
      },
    ];
  }
}

function afterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const modified = newObj as Node;
  const original = oldObj as Node | undefined;
  const tolerated = tolerationsTolerateTaint(pod.spec.tolerations, UNSCHEDULABLE_TAINT);
  if (modified.spec?.unschedulable && !tolerated) return QueueingHint.QueueSkip;
  if (original && !original.spec?.unschedulable) return QueueingHint.QueueSkip;
  return QueueingHint.Queue;
}
