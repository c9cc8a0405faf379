/**
 * nodeShouldRunDaemonPod: a node should run the daemon pod when the pod's node selector and
 * required affinity match it and every NoSchedule and NoExecute taint is tolerated; a pod
 * already there may keep running on a node whose only untolerated taints are NoSchedule.
 */
import type { PodSpec } from '../../api/generated/core-v1';
import type { Taint } from '../../component-helpers/scheduling/types';
import type { Node } from '../util/types/node';
import { RequiredNodeAffinity } from '../../component-helpers/scheduling/node-affinity';
import { toleratesTaint } from '../../component-helpers/scheduling/taints';

export interface NodeVerdict {
  shouldRun: boolean;
  shouldContinueRunning: boolean;
}

export function nodeShouldRunDaemonPod(podSpec: PodSpec, node: Node): NodeVerdict {
  const name = node.metadata.name ?? '';
  if (!new RequiredNodeAffinity({ spec: podSpec }).matches(name, node.metadata.labels ?? {})) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = Array.isArray(podSpec.tolerations) ? podSpec.tolerations : [];
  const untolerated = (effects: readonly string[]): boolean =>
    (node.spec?.taints ?? []).some((t: Taint) => effects.includes(t.effect) && !tolerations.some((tol) => toleratesTaint(tol, t)));
  if (!untolerated(['NoSchedule', 'NoExecute'])) return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !untolerated(['NoExecute']) };
}
