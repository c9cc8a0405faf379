/**
 * Informer events into the scheduler (pkg/scheduler/eventhandlers.go): bound pods and nodes go
 * to the cache, unbound pods of this scheduler to the queue, and every change is offered to the
 * unschedulable pods as a cluster event their rejecting plugins may care about.
 */
import type { Node, Pod } from './api';
import { DEFAULT_SCHEDULER_NAME, podKey } from './api';
import { Action, EVENTS, nodeSchedulingPropertiesChange, podSchedulingPropertiesChange, type ClusterEvent, type EventResource } from './framework/events';
import type { WatchedKind } from './host';
import type { SchedulerCore } from './schedule-one';

export interface EventTarget extends SchedulerCore {
  /** The informer's view of every pod, by namespace/name. */
  readonly pods: Map<string, Pod>;
}

const assigned = (p: Pod): boolean => !!p.spec.nodeName;
const responsible = (p: Pod): boolean => (p.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME) === DEFAULT_SCHEDULER_NAME;

const otherEvent = (kind: WatchedKind, action: Action, label: string): ClusterEvent => ({ resource: kind as EventResource, action, label: `${kind}${label}` });

export function onAdd(t: EventTarget, kind: WatchedKind, obj: unknown): void {
  switch (kind) {
    case 'Pod': {
      const pod = obj as Pod;
      t.pods.set(podKey(pod), pod);
      if (assigned(pod)) addAssignedPod(t, pod);
      else if (responsible(pod)) t.queue.add(pod);
      return;
    }
    case 'Node':
      t.cache.addNode(obj as Node);
      t.queue.moveAllToActiveOrBackoffQueue(EVENTS.NodeAdd, undefined, obj);
      return;
    default:
      t.queue.moveAllToActiveOrBackoffQueue(otherEvent(kind, Action.Add, 'Add'), undefined, obj);
  }
}

export function onUpdate(t: EventTarget, kind: WatchedKind, oldObj: unknown, newObj: unknown): void {
  switch (kind) {
    case 'Pod': {
      const oldPod = oldObj as Pod;
      const newPod = newObj as Pod;
      t.pods.set(podKey(newPod), newPod);
      if (assigned(oldPod)) {
        t.cache.updatePod(newPod);
        for (const ev of podSchedulingPropertiesChange(newPod, oldPod)) t.queue.moveAllToActiveOrBackoffQueue(ev, oldPod, newPod);
        return;
      }
      if (assigned(newPod)) {
        // The binding landed: the pod leaves the queue and enters the cache.
        t.queue.delete(oldPod);
        addAssignedPod(t, newPod);
        return;
      }
      if (!responsible(newPod) || oldPod.metadata.resourceVersion === newPod.metadata.resourceVersion) return;
      if (t.cache.isAssumedPod(newPod.metadata.uid)) return;
      t.queue.update(oldPod, newPod);
      if ((oldPod.status?.nominatedNodeName ?? '') !== (newPod.status?.nominatedNodeName ?? '')) {
        // Leaving its nominated node frees room there for pods of lower or equal priority.
        const priority = oldPod.spec.priority ?? 0;
        t.queue.moveAllToActiveOrBackoffQueue(EVENTS.AssignedPodDelete, oldPod, undefined, (p) => (p.spec.priority ?? 0) <= priority);
      }
      return;
    }
    case 'Node': {
      const oldNode = oldObj as Node;
      const newNode = newObj as Node;
      t.cache.updateNode(oldNode, newNode);
      for (const ev of nodeSchedulingPropertiesChange(newNode, oldNode)) t.queue.moveAllToActiveOrBackoffQueue(ev, oldNode, newNode);
      return;
    }
    default:
      t.queue.moveAllToActiveOrBackoffQueue(otherEvent(kind, Action.Update, 'Update'), oldObj, newObj);
  }
}

export function onDelete(t: EventTarget, kind: WatchedKind, obj: unknown): void {
  switch (kind) {
    case 'Pod': {
      const pod = obj as Pod;
      t.pods.delete(podKey(pod));
      if (assigned(pod)) {
        t.cache.removePod(pod.metadata.uid);
        t.queue.moveAllToActiveOrBackoffQueue(EVENTS.AssignedPodDelete, pod, undefined);
      } else {
        t.queue.delete(pod);
      }
      return;
    }
    case 'Node':
      t.cache.removeNode(obj as Node);
      t.queue.moveAllToActiveOrBackoffQueue(EVENTS.NodeDelete, obj, undefined);
      return;
    default:
      t.queue.moveAllToActiveOrBackoffQueue(otherEvent(kind, Action.Delete, 'Delete'), obj, undefined);
  }
}

function addAssignedPod(t: EventTarget, pod: Pod): void {
  t.cache.addPod(pod);
  t.queue.moveAllToActiveOrBackoffQueue(EVENTS.AssignedPodAdd, undefined, pod);
}
