/**
 * MarkPodsNotReady: the pods of a node that stopped being Ready get Ready=False (with a new
 * transition time; reason and message stay), each followed by a NodeNotReady warning event.
 */
import { deepCopy } from '../../client/clone';
import type { Pod } from '../util/types/node';

/** The pod with its Ready condition set to False, or undefined when it has none or it already is False. */
export function podMarkedNotReady(pod: Pod, now: string): Pod | undefined {
  const i = (pod.status?.conditions ?? []).findIndex((c) => c.type === 'Ready');
  if (i < 0 || pod.status!.conditions![i]!.status === 'False') return undefined;
  const next = deepCopy(pod);
  const ready = next.status!.conditions![i]!;
  ready.status = 'False';
  ready.lastTransitionTime = now;
  return next;
}

export const NODE_NOT_READY_POD_MESSAGE = 'Node is not ready';
