/**
 * What one sync of a DaemonSet decides (daemon_controller.go manage, podsShouldBeOnNode and
 * updateDaemonSetStatus), as pure functions of the DaemonSet, the listed nodes and pods, the
 * current revision's hash and the virtual clock's now. The control loop (controller.ts) performs
 * the plan: events first, then the creates (slow start) and deletes, then the status write.
 */
import type { PodSpec } from '../../api/generated/core-v1';
import type { EventType } from '../../client/events/types';
import { isPodAvailable, isPodReady } from '../util/pod-status';
import type { Node } from '../util/types/node';
import type { Pod } from '../util/types/workload';
import { nodeShouldRunDaemonPod } from './predicates';
import { maxUnavailable, oldPodsToDelete } from './rolling';
import { CONTROLLER_REVISION_HASH_LABEL, type DaemonSet, type DaemonSetStatus } from './types';

/** The failed-pod backoff per node: 1 s doubling to 15 min. */
export const FAILED_POD_BACKOFF_MS = [1000, 15 * 60_000] as const;

/** One node's failed-pod backoff: when its last failed pod was deleted, and the wait before the next. */
export interface FailedPodBackoff {
  since: number;
  delay: number;
}

export interface DaemonSetEvent {
  eventType: EventType;
  reason: string;
  message: string;
}

/** The node a daemon pod is on, or is pinned to by its affinity before it is scheduled (GetTargetNodeName). */
export function targetNode(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms = (pod.spec as Pick<PodSpec, 'affinity'> | undefined)?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms?.[0]?.matchFields?.find((f) => f.key === 'metadata.name')?.values?.[0];
}

/** getNodesToDaemonPods: the DaemonSet's pods by the node they are on or pinned to. */
export function podsByNode(owned: readonly Pod[]): Map<string, Pod[]> {
  const byNode = new Map<string, Pod[]>();
  for (const pod of owned) {
    const node = targetNode(pod);
    if (node) byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  return byNode;
}

const byCreation = (a: Pod, b: Pod): number => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '');

export interface NodesView {
  ds: DaemonSet;
  nodes: readonly Node[];
  byNode: ReadonlyMap<string, readonly Pod[]>;
  /** daemonPodSpec(ds): what the scheduling predicates see. */
  podSpec: PodSpec;
  hash: string;
  now: number;
  /** The failed-pod backoff each node is in, if any. */
  backoff: (nodeName: string) => FailedPodBackoff | undefined;
}

export interface NodesPlan {
  /** The nodes to create a daemon pod on, in node order. */
  create: string[];
  /** The pods to delete, in the order they are deleted. */
  remove: Pod[];
  events: DaemonSetEvent[];
  /** The nodes whose failed pods go now, with the backoff that starts. */
  backoff: Map<string, FailedPodBackoff>;
  /** A node still in backoff: look again when it ends (the last such node). */
  requeueAfterMs?: number;
}

/**
 * manage: a pod for every node that should run one and has none; the succeeded pods, failed
 * pods (once the node's backoff allows), and all but the oldest running pod deleted where the
 * daemon may keep running; every pod deleted from nodes that must not run it or are gone; and,
 * when nothing else changes, the RollingUpdate's share of old pods.
 */
export function planNodes(view: NodesView): NodesPlan {
  const { ds, nodes, byNode, podSpec, hash, now } = view;
  const plan: NodesPlan = { create: [], remove: [], events: [], backoff: new Map() };
  const shouldRunPods = new Map<string, readonly Pod[]>();
  for (const node of nodes) {
    const nodeName = node.metadata.name ?? '';
    // A pod still terminating on the node holds its place; one that finished and is going does not.
    const present = (byNode.get(nodeName) ?? []).filter((p) => !(p.metadata.deletionTimestamp && (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed')));
    const pods = present.filter((p) => !p.metadata.deletionTimestamp);
    const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(podSpec, node);
    if (shouldRun) shouldRunPods.set(nodeName, byNode.get(nodeName) ?? []);
    if (shouldRun && present.length === 0) {
      plan.create.push(nodeName);
    } else if (shouldContinueRunning) {
      const failed = pods.filter((p) => p.status?.phase === 'Failed');
      const running = pods.filter((p) => p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded');
      plan.remove.push(...pods.filter((p) => p.status?.phase === 'Succeeded'));
      const backoff = view.backoff(nodeName);
      if (failed.length > 0 && backoff && now - backoff.since < backoff.delay) {
        plan.requeueAfterMs = backoff.since + backoff.delay - now;
      } else if (failed.length > 0) {
        plan.backoff.set(nodeName, { since: now, delay: backoff ? Math.min(backoff.delay * 2, FAILED_POD_BACKOFF_MS[1]) : FAILED_POD_BACKOFF_MS[0] });
        for (const p of failed) {
          plan.events.push({ eventType: 'Warning', reason: 'FailedDaemonPod', message: `Found failed daemon pod ${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''} on node ${nodeName}, will try to kill it` });
          plan.remove.push(p);
        }
      }
      plan.remove.push(...[...running].sort(byCreation).slice(1));
    } else {
      plan.remove.push(...pods);
    }
  }
  const known = new Set(nodes.map((n) => n.metadata.name ?? ''));
  for (const [node, pods] of byNode) if (!known.has(node)) plan.remove.push(...pods.filter((p) => !p.metadata.deletionTimestamp));
  if ((ds.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && plan.create.length === 0 && plan.remove.length === 0) {
    plan.remove.push(...oldPodsToDelete(ds, shouldRunPods, hash, maxUnavailable(ds, shouldRunPods.size), now));
  }
  return plan;
}

export interface StatusPlan {
  status: DaemonSetStatus;
  /** Whether it differs from the DaemonSet's status (the write is skipped otherwise). */
  changed: boolean;
  /** A ready pod not yet available: look again after minReadySeconds. */
  requeueAfterMs?: number;
}

/** updateDaemonSetStatus: the counts over the nodes, by each node's oldest live daemon pod. */
export function calculateStatus(view: Omit<NodesView, 'backoff'>): StatusPlan {
  const { ds, nodes, byNode, podSpec, hash, now } = view;
  const minReady = ds.spec.minReadySeconds ?? 0;
  let desired = 0;
  let scheduled = 0;
  let misscheduled = 0;
  let ready = 0;
  let updated = 0;
  let available = 0;
  let requeue: number | undefined;
  for (const node of nodes) {
    const pods = (byNode.get(node.metadata.name ?? '') ?? []).filter((p) => !p.metadata.deletionTimestamp);
    const { shouldRun } = nodeShouldRunDaemonPod(podSpec, node);
    if (!shouldRun) {
      if (pods.length > 0) misscheduled++;
      continue;
    }
    desired++;
    if (pods.length === 0) continue;
    scheduled++;
    const pod = [...pods].sort(byCreation)[0]!;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
      else if (minReady > 0) requeue = minReady * 1000;
    }
    if (pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash) updated++;
  }
  const status: DaemonSetStatus = { currentNumberScheduled: scheduled, numberMisscheduled: misscheduled, desiredNumberScheduled: desired, numberReady: ready, observedGeneration: ds.metadata.generation ?? 0 };
  if (updated > 0) status.updatedNumberScheduled = updated;
  if (available > 0) status.numberAvailable = available;
  if (desired - available > 0) status.numberUnavailable = desired - available;
  if (ds.status?.collisionCount !== undefined) status.collisionCount = ds.status.collisionCount;
  const plan: StatusPlan = { status, changed: statusDiffers(ds.status ?? {}, status) };
  if (requeue !== undefined) plan.requeueAfterMs = requeue;
  return plan;
}

/** A field set, changed or dropped (the counts are numbers; conditions are not written here). */
function statusDiffers(before: Partial<DaemonSetStatus>, after: DaemonSetStatus): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)] as (keyof DaemonSetStatus)[]);
  return [...keys].some((k) => before[k] !== after[k]);
}
