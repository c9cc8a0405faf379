/** NodeName (Filter): a pod that names its node fits only that node. */
import type { Node } from '../api';
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import type { CycleState } from '../framework/cycle-state';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, FilterPlugin } from '../framework/interface';
import { Code, Status } from '../framework/status';
import { Names } from './names';

export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

export class NodeName implements FilterPlugin, EnqueueExtensions {
  readonly name = Names.NodeName;

  filter(_state: CycleState, pod: PodInfo, node: NodeInfo): Status | null {
    const wanted = pod.pod.spec.nodeName;
    if (!wanted || wanted === node.name) return null;
    return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_NODE_NAME]);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Node', action: Action.Add },
        hint: (pod, _old, newObj) => (!pod.spec.nodeName || (newObj as Node).metadata.name === pod.spec.nodeName ? QueueingHint.Queue : QueueingHint.QueueSkip),
      },
    ];
  }
}
