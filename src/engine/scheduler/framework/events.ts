/**
 * Cluster events (framework.ClusterEvent): what changed (resource + action bits) and the
 * detectors that turn a node or pod update into the specific actions plugins subscribe to.
 * A plugin registers the events that could undo its rejection, each with an optional queueing
 * hint that looks at the objects and says whether the pod is worth retrying.
 */
import type { Node, Pod } from '../api';
import { computePodResources } from '../cache/resource';
import { deepEqual } from '../../api/deep-equal';
import { setOwn } from '../../api/own';

export enum Action {
  Add = 1 << 0,
  Delete = 1 << 1,
  UpdateNodeAllocatable = 1 << 2,
  UpdateNodeLabel = 1 << 3,
  UpdateNodeTaint = 1 << 4,
  UpdateNodeCondition = 1 << 5,
  UpdateNodeAnnotation = 1 << 6,
  UpdatePodLabel = 1 << 7,
  UpdatePodScaleDown = 1 << 8,
  UpdatePodToleration = 1 << 9,
  UpdatePodSchedulingGatesEliminated = 1 << 10,
  UpdatePodGeneratedResourceClaim = 1 << 11,
  /** Any other pod update. */
  UpdatePodOther = 1 << 12,
  Update = (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12),
  All = Add | Delete | Update,
}

/** 'Pod' in a registration matches both assigned and unscheduled pods. */
export type EventResource =
  | 'Pod'
  | 'AssignedPod'
  | 'UnscheduledPod'
  | 'Node'
  | 'PersistentVolume'
  | 'PersistentVolumeClaim'
  | 'StorageClass'
  | 'Namespace'
  | '*';

export interface ClusterEvent {
  readonly resource: EventResource;
  readonly action: number;
  /** Upstream's event label ("NodeAdd", "AssignedPodDelete", "UnschedulableTimeout"...). */
  readonly label: string;
}

export const QueueingHint = { Queue: 'Queue', QueueSkip: 'QueueSkip' } as const;
export type QueueingHint = (typeof QueueingHint)[keyof typeof QueueingHint];

/** Decides, for one unschedulable pod, whether this change may make it schedulable. */
export type QueueingHintFn = (pod: Pod, oldObj: unknown, newObj: unknown) => QueueingHint;

export interface ClusterEventWithHint {
  readonly event: { resource: EventResource; action: number };
  readonly hint?: QueueingHintFn;
}

const ev = (resource: EventResource, action: number, label: string): ClusterEvent => ({ resource, action, label });

export const EVENTS = {
  NodeAdd: ev('Node', Action.Add, 'NodeAdd'),
  NodeDelete: ev('Node', Action.Delete, 'NodeDelete'),
  AssignedPodAdd: ev('AssignedPod', Action.Add, 'AssignedPodAdd'),
  AssignedPodDelete: ev('AssignedPod', Action.Delete, 'AssignedPodDelete'),
  UnscheduledPodAdd: ev('UnscheduledPod', Action.Add, 'UnscheduledPodAdd'),
  UnscheduledPodUpdate: ev('UnscheduledPod', Action.Update, 'UnscheduledPodUpdate'),
  UnschedulableTimeout: ev('*', Action.All, 'UnschedulableTimeout'),
  ForceActivate: ev('*', Action.All, 'ForceActivate'),
} as const;

/** Queue-internal labels that are not cluster events. */
export const BACKOFF_COMPLETE = 'BackoffComplete';
export const SCHEDULE_ATTEMPT_FAILURE = 'ScheduleAttemptFailure';

export const isWildCard = (e: { resource: EventResource }): boolean => e.resource === '*';

/** MatchClusterEvents: whether a registered event covers an incoming one. */
export function matchClusterEvents(registered: { resource: EventResource; action: number }, incoming: ClusterEvent): boolean {
  if (registered.resource === '*') return true;
  const sameResource =
    registered.resource === incoming.resource ||
    (registered.resource === 'Pod' && (incoming.resource === 'AssignedPod' || incoming.resource === 'UnscheduledPod'));
  return sameResource && (registered.action & incoming.action) !== 0;
}

const ACTION_LABELS: [Action, string][] = [
  [Action.UpdateNodeAllocatable, 'UpdateNodeAllocatable'],
  [Action.UpdateNodeLabel, 'UpdateNodeLabel'],
  [Action.UpdateNodeTaint, 'UpdateNodeTaint'],
  [Action.UpdateNodeCondition, 'UpdateNodeCondition'],
  [Action.UpdateNodeAnnotation, 'UpdateNodeAnnotation'],
  [Action.UpdatePodLabel, 'UpdatePodLabel'],
  [Action.UpdatePodScaleDown, 'UpdatePodScaleDown'],
  [Action.UpdatePodToleration, 'UpdatePodToleration'],
  [Action.UpdatePodSchedulingGatesEliminated, 'UpdatePodSchedulingGatesEliminated'],
  [Action.UpdatePodGeneratedResourceClaim, 'UpdatePodGeneratedResourceClaim'],
  [Action.UpdatePodOther, 'Update'],
];

const actionLabel = (a: Action): string => ACTION_LABELS.find(([bit]) => bit === a)?.[1] ?? 'Update';

/** NodeSchedulingPropertiesChange: the scheduling-relevant parts of a node update. */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  if (!!oldNode.spec?.unschedulable !== !!newNode.spec?.unschedulable && !newNode.spec?.unschedulable) {
    out.push(ev('Node', Action.UpdateNodeTaint, 'NodeSpecUnschedulableChange'));
  }
  const checks: [Action, boolean][] = [
    [Action.UpdateNodeAllocatable, !deepEqual(oldNode.status?.allocatable, newNode.status?.allocatable)],
    [Action.UpdateNodeLabel, !deepEqual(oldNode.metadata.labels ?? {}, newNode.metadata.labels ?? {})],
    [Action.UpdateNodeTaint, !deepEqual(oldNode.spec?.taints ?? [], newNode.spec?.taints ?? [])],
    [Action.UpdateNodeCondition, !deepEqual(conditionStatuses(oldNode), conditionStatuses(newNode))],
    [Action.UpdateNodeAnnotation, !deepEqual(oldNode.metadata.annotations ?? {}, newNode.metadata.annotations ?? {})],
  ];
  for (const [action, changed] of checks) if (changed) out.push(ev('Node', action, `Node${actionLabel(action)}`));
  return out;
}

function conditionStatuses(node: Node): Record<string, string> {
  const out: Record<string, string> = {};
  const conditions = (node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  for (const c of conditions) setOwn(out, c.type, c.status);
  return out;
}

/** PodSchedulingPropertiesChange: the scheduling-relevant parts of a pod update. */
export function podSchedulingPropertiesChange(newPod: Pod, oldPod: Pod): ClusterEvent[] {
  const resource: EventResource = newPod.spec.nodeName ? 'AssignedPod' : 'UnscheduledPod';
  const actions: Action[] = [];
  if (!deepEqual(oldPod.metadata.labels ?? {}, newPod.metadata.labels ?? {})) actions.push(Action.UpdatePodLabel);
  if (requestsDecreased(oldPod, newPod)) actions.push(Action.UpdatePodScaleDown);
  if (!deepEqual(oldPod.spec.tolerations ?? [], newPod.spec.tolerations ?? [])) actions.push(Action.UpdatePodToleration);
  if ((oldPod.spec.schedulingGates?.length ?? 0) > 0 && (newPod.spec.schedulingGates?.length ?? 0) === 0) {
    actions.push(Action.UpdatePodSchedulingGatesEliminated);
  }
  if (actions.length === 0) actions.push(Action.UpdatePodOther);
  return actions.map((a) => ev(resource, a, `${resource}${actionLabel(a)}`));
}

/** isPodResourcesResizedDown: some request of the pod got smaller (an in-place resize). */
function requestsDecreased(oldPod: Pod, newPod: Pod): boolean {
  if (deepEqual(oldPod.spec.containers, newPod.spec.containers) && deepEqual(oldPod.spec.initContainers, newPod.spec.initContainers)) return false;
  const o = computePodResources(oldPod).requests;
  const n = computePodResources(newPod).requests;
  if (n.milliCPU < o.milliCPU || n.memory < o.memory || n.ephemeralStorage < o.ephemeralStorage) return true;
  for (const [name, v] of o.scalar ?? []) if (n.scalarValue(name) < v) return true;
  return false;
}
