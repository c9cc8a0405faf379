/** PrioritySort (QueueSort): higher priority first, then the pod that entered the queue earlier. */
import type { QueueSortPlugin } from '../framework/interface';
import type { QueuedPodInfo } from '../framework/queued-pod-info';
import { Names } from './names';

export class PrioritySort implements QueueSortPlugin {
  readonly name = Names.PrioritySort;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const p1 = a.podInfo.priority;
    const p2 = b.podInfo.priority;
    return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
  }
}
