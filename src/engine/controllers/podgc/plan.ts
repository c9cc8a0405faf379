/**
 * What the pod garbage collector deletes in one pass (gc_controller.go), as pure decisions over
 * the cached pods and nodes: finished pods beyond the threshold (evicted ones first, then the
 * oldest), terminating pods on nodes that are down and tainted out-of-service, pods bound to
 * nodes that no longer exist (after a quarantine, in case the node cache is behind), and
 * terminating pods that were never scheduled.
 */
import type { JsonObject } from '../../api/types';
import { timeMs } from '../../api/time';
import type { Node, Pod, PodCondition } from '../../api/generated/core-v1';

/** --terminated-pod-gc-threshold's default. */
export const TERMINATED_POD_GC_THRESHOLD = 12500;
/** gcCheckPeriod. */
export const GC_CHECK_PERIOD_MS = 20_000;
/** quarantineTime: how long a missing node must stay missing before its pods count as orphaned. */
export const QUARANTINE_MS = 40_000;

export const TAINT_NODE_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

/** isPodTerminated: any phase but Pending, Running and Unknown. */
export function isPodTerminated(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

/** eviction.PodIsEvicted. */
const isEvicted = (pod: Pod): boolean => pod.status?.phase === 'Failed' && pod.status.reason === 'Evicted';

/** byEvictionAndCreationTimestamp: evicted pods first, then by creation time, then by name. */
export function byEvictionAndCreation(a: Pod, b: Pod): number {
  const ae = isEvicted(a);
  const be = isEvicted(b);
  if (ae !== be) return ae ? -1 : 1;
  const at = timeMs(a.metadata.creationTimestamp);
  const bt = timeMs(b.metadata.creationTimestamp);
  if (at !== bt) return at - bt;
  const an = a.metadata.name ?? '';
  const bn = b.metadata.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** gcTerminated: the finished pods beyond the threshold (none when the threshold is 0 or less). */
export function terminatedPodsToDelete(pods: readonly Pod[], threshold: number): Pod[] {
  if (threshold <= 0) return [];
  const terminated = pods.filter(isPodTerminated);
  const excess = terminated.length - threshold;
  if (excess <= 0) return [];
  return [...terminated].sort(byEvictionAndCreation).slice(0, excess);
}

const isNodeReady = (node: Node): boolean => node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** gcTerminating: terminating pods on nodes that are not ready and tainted out-of-service. */
export function terminatingOnOutOfServiceNodes(pods: readonly Pod[], nodes: ReadonlyMap<string, Node>): Pod[] {
  const out = pods.filter((pod) => {
    if (!pod.metadata.deletionTimestamp) return false;
    const node = nodes.get(pod.spec?.nodeName ?? '');
    return node !== undefined && !isNodeReady(node) && (node.spec?.taints ?? []).some((t) => t.key === TAINT_NODE_OUT_OF_SERVICE);
  });
  return out.sort(byEvictionAndCreation);
}

/** gcUnscheduledTerminating. */
export function unscheduledTerminating(pods: readonly Pod[]): Pod[] {
  return pods.filter((pod) => pod.metadata.deletionTimestamp && !pod.spec?.nodeName);
}

/**
 * The orphan quarantine (upstream's delaying node queue): each missing node a pod is bound to
 * waits QUARANTINE_MS from when it was first seen missing; `due` hands over those whose wait is
 * over and that are still missing from the cache (the collector then asks the API server).
 */
export class OrphanQuarantine {
  private readonly readyAt = new Map<string, number>();

  /** Quarantines the nodes pods are bound to that the cache does not have. */
  observe(pods: readonly Pod[], existing: ReadonlySet<string>, nowMs: number): void {
    for (const pod of pods) {
      const node = pod.spec?.nodeName;
      if (node && !existing.has(node) && !this.readyAt.has(node)) this.readyAt.set(node, nowMs + QUARANTINE_MS);
    }
  }

  due(existing: ReadonlySet<string>, nowMs: number): string[] {
    const out: string[] = [];
    for (const [node, at] of this.readyAt) {
      if (at > nowMs) continue;
      this.readyAt.delete(node);
      if (!existing.has(node)) out.push(node);
    }
    return out;
  }
}

/** The DisruptionTarget condition an orphaned pod gets before it is deleted. */
export const NODE_GONE_CONDITION = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' } as const;

/**
 * markFailedAndDeletePod's status patch: a pod not yet finished is marked Failed (nobody else
 * will, its kubelet being gone), with the condition if one is given; undefined when finished.
 */
export function failedStatusPatch(pod: Pod, condition: Omit<PodCondition, 'lastProbeTime' | 'lastTransitionTime'> | undefined, now: string): JsonObject | undefined {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return undefined;
  const status: JsonObject = { phase: 'Failed' };
  if (condition) {
    const old = pod.status?.conditions?.find((c) => c.type === condition.type);
    const lastTransitionTime = old && old.status === condition.status ? (old.lastTransitionTime ?? null) : now;
    status.conditions = [{ type: condition.type, status: condition.status, lastProbeTime: null, lastTransitionTime, reason: condition.reason, message: condition.message }];
  }
  return { metadata: { uid: pod.metadata.uid ?? '' }, status };
}
