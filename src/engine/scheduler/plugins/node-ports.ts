/** NodePorts (Filter): the pod's host ports must be free on the node (0.0.0.0 clashes with any address). */
import type { Pod } from '../api';
import type { NodeInfo } from '../cache/node-info';
import { PodInfo, type HostPort } from '../cache/pod-info';
import type { CycleState } from '../framework/cycle-state';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, FilterPlugin, PreFilterPlugin } from '../framework/interface';
import { Code, SKIP, Status } from '../framework/status';
import { Names } from './names';

export const ERR_REASON_PORTS = "node(s) didn't have free ports for the requested pod ports";

export class NodePorts implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = Names.NodePorts;

  preFilter(_state: CycleState, pod: PodInfo): Status | null {
    return pod.hostPorts.length === 0 ? SKIP : null;
  }

  filter(_state: CycleState, pod: PodInfo, node: NodeInfo): Status | null {
    for (const p of pod.hostPorts) {
      if (node.usedPorts.conflicts(p)) return new Status(Code.Unschedulable, [ERR_REASON_PORTS]);
    }
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'Pod', action: Action.Delete }, hint: afterPodDeleted },
      { event: { resource: 'Node', action: Action.Add | Action.UpdateNodeAllocatable } },
    ];
  }
}

const samePort = (a: HostPort, b: HostPort): boolean =>
  a.port === b.port && a.protocol === b.protocol && (a.ip === b.ip || a.ip === '0.0.0.0' || b.ip === '0.0.0.0');

/** Worth retrying when the deleted pod was bound and held a port this pod wants. */
function afterPodDeleted(pod: Pod, oldObj: unknown): QueueingHint {
  const deleted = oldObj as Pod;
  if (!deleted.spec.nodeName) return QueueingHint.QueueSkip;
  const freed = new PodInfo(deleted).hostPorts;
  const wanted = new PodInfo(pod).hostPorts;
  return wanted.some((w) => freed.some((f) => samePort(w, f))) ? QueueingHint.Queue : QueueingHint.QueueSkip;
}
