/**
 * NodeResourcesFit. Filter: the pod's requests must fit the node's allocatable minus what its pods
 * request, with upstream's reasons ("Insufficient cpu", "Too many pods"); a request larger than
 * the whole node is unresolvable (preemption cannot help). Score: LeastAllocated over cpu and
 * memory, counting 100m / 200Mi for containers that request nothing.
 */
import type { Node, Pod } from '../api';
import { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import { computePodResources, type Resource } from '../cache/resource';
import type { CycleState } from '../framework/cycle-state';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, FilterPlugin, ScorePlugin } from '../framework/interface';
import { Code, Status } from '../framework/status';
import { leastAllocatedScore } from './resource-allocation';
import { Names } from './names';

export interface InsufficientResource {
  readonly resourceName: string;
  readonly reason: string;
  readonly requested: number;
  readonly used: number;
  readonly capacity: number;
  /** Even an empty node could not hold the pod. */
  readonly unresolvable: boolean;
}

/** fitsRequest: every resource the pod does not fit, in upstream's order. */
export function fitsRequest(request: Resource, node: NodeInfo): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const alloc = node.allocatable;
  const used = node.requested;
  if (node.pods.length + 1 > alloc.allowedPodNumber) {
    out.push({ resourceName: 'pods', reason: 'Too many pods', requested: 1, used: node.pods.length, capacity: alloc.allowedPodNumber, unresolvable: false });
  }
  if (request.isEmpty()) return out;
  const check = (name: string, req: number, allocatable: number, inUse: number): void => {
    if (req > 0 && req > allocatable - inUse) {
      out.push({ resourceName: name, reason: `Insufficient ${name}`, requested: req, used: inUse, capacity: allocatable, unresolvable: req > allocatable });
    }
  };
  check('cpu', request.milliCPU, alloc.milliCPU, used.milliCPU);
  check('memory', request.memory, alloc.memory, used.memory);
  check('ephemeral-storage', request.ephemeralStorage, alloc.ephemeralStorage, used.ephemeralStorage);
  for (const [name, q] of request.scalar ?? []) {
    if (q === 0) continue;
    const a = alloc.scalarValue(name);
    const u = used.scalarValue(name);
    if (q > a - u) out.push({ resourceName: name, reason: `Insufficient ${name}`, requested: q, used: u, capacity: a, unresolvable: q > a });
  }
  return out;
}

export class NodeResourcesFit implements FilterPlugin, ScorePlugin, EnqueueExtensions {
  readonly name = Names.NodeResourcesFit;

  filter(_state: CycleState, pod: PodInfo, node: NodeInfo): Status | null {
    const r = pod.requests;
    // The common case, decided without building the list of reasons (from the node's own fields).
    if (node.podRoom >= 1 && r.milliCPU <= node.freeMilliCPU && r.memory <= node.freeMemory && r.ephemeralStorage <= node.freeEphemeralStorage && r.scalar === null) {
      return null;
    }
    const insufficient = fitsRequest(r, node);
    if (insufficient.length === 0) return null;
    const code = insufficient.some((i) => i.unresolvable) ? Code.UnschedulableAndUnresolvable : Code.Unschedulable;
    const status = new Status(code, insufficient.map((i) => i.reason));
    status.insufficient = insufficient.map((i) => ({ resource: i.resourceName, requested: i.requested, used: i.used, capacity: i.capacity }));
    return status;
  }

  scoreNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array): void {
    for (let i = 0; i < nodes.length; i++) out[i] = this.score(state, pod, nodes[i]!);
  }

  score(_state: CycleState, pod: PodInfo, node: NodeInfo): number {
    return leastAllocatedScore(node.nonZeroMilliCPU + pod.nonZeroCPU, node.allocatableMilliCPU, node.nonZeroMemory + pod.nonZeroMemory, node.allocatableMemory);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'Pod', action: Action.Delete | Action.UpdatePodScaleDown }, hint: afterPodEvent },
      { event: { resource: 'Node', action: Action.Add | Action.UpdateNodeAllocatable | Action.UpdateNodeTaint | Action.UpdateNodeLabel }, hint: afterNodeChange },
    ];
  }
}

/** Worth retrying when a bound pod went away or shrank (or the pod itself shrank). */
function afterPodEvent(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const original = oldObj as Pod;
  const modified = newObj as Pod | undefined;
  if (!modified) return original.spec.nodeName || original.status?.nominatedNodeName ? QueueingHint.Queue : QueueingHint.QueueSkip;
  if (modified.metadata.uid === pod.metadata.uid) return QueueingHint.Queue;
  if (!modified.spec.nodeName) return QueueingHint.QueueSkip;
  const before = computePodResources(original).requests;
  const after = computePodResources(modified).requests;
  const wanted = computePodResources(pod).requests;
  if (wanted.milliCPU > 0 && before.milliCPU > after.milliCPU) return QueueingHint.Queue;
  if (wanted.memory > 0 && before.memory > after.memory) return QueueingHint.Queue;
  if (wanted.ephemeralStorage > 0 && before.ephemeralStorage > after.ephemeralStorage) return QueueingHint.Queue;
  for (const [name, q] of wanted.scalar ?? []) if (q > 0 && before.scalarValue(name) > after.scalarValue(name)) return QueueingHint.Queue;
  return QueueingHint.QueueSkip;
}

function nodeInfoOf(node: Node): NodeInfo {
  const info = new NodeInfo();
  info.setNode(node);
  return info;
}

/** Worth retrying when the node could hold the pod and (for an update) grew in something it requests. */
function afterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const request = computePodResources(pod).requests;
  const modified = nodeInfoOf(newObj as Node);
  if (fitsRequest(request, modified).length > 0) return QueueingHint.QueueSkip;
  if (!oldObj) return QueueingHint.Queue;
  const original = nodeInfoOf(oldObj as Node);
  const a = original.allocatable;
  const b = modified.allocatable;
  if (b.allowedPodNumber > a.allowedPodNumber) return QueueingHint.Queue;
  if (request.isEmpty()) return QueueingHint.QueueSkip;
  if ((request.milliCPU > 0 && b.milliCPU > a.milliCPU) || (request.memory > 0 && b.memory > a.memory) || (request.ephemeralStorage > 0 && b.ephemeralStorage > a.ephemeralStorage)) {
    return QueueingHint.Queue;
  }
  for (const [name, q] of request.scalar ?? []) if (q > 0 && b.scalarValue(name) > a.scalarValue(name)) return QueueingHint.Queue;
  return QueueingHint.QueueSkip;
}
