/**
 * The taints the node lifecycle controller manages: NoExecute not-ready / unreachable that
 * mirror the Ready condition (and drive evictions), and NoSchedule taints for conditions and
 * cordoned nodes. Taints are the same when key and effect match; timeAdded is when the controller
 * put one on.
 */
import type { Node, Taint } from '../util/types/node';
import { own, table } from '../../api/own';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export const NOT_READY_NO_EXECUTE: Taint = Object.freeze({ key: TAINT_NOT_READY, effect: 'NoExecute' });
export const UNREACHABLE_NO_EXECUTE: Taint = Object.freeze({ key: TAINT_UNREACHABLE, effect: 'NoExecute' });

/** nodeConditionToTaintKeyStatusMap: the NoSchedule taint a condition in a given status calls for. */
const CONDITION_TAINTS = table<Record<string, string>>({
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
});

const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)));

export const matchTaint = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;

export function taintExists(taints: readonly Taint[] | null | undefined, taint: Taint): boolean {
  return (taints ?? []).some((t) => matchTaint(t, taint));
}

/** The NoSchedule taints the node's conditions and spec.unschedulable call for, and what to add and remove to get there. */
export function noScheduleTaintChanges(node: Node): { add: Taint[]; remove: Taint[] } {
  const want: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = own(CONDITION_TAINTS[c.type], c.status);
    if (key) want.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) want.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  const have = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' && (t.key === TAINT_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key)));
  return { add: want.filter((t) => !have.some((h) => matchTaint(h, t))), remove: have.filter((h) => !want.some((t) => matchTaint(h, t))) };
}

/** AddOrUpdateTaint for each taint (a taint with the same key and effect is replaced); undefined when nothing changes. */
export function withTaints(taints: readonly Taint[], add: readonly Taint[]): Taint[] | undefined {
  let out = [...taints];
  let changed = false;
  for (const taint of add) {
    const i = out.findIndex((t) => matchTaint(t, taint));
    if (i < 0) out = [...out, taint];
    else if (JSON.stringify(out[i]) !== JSON.stringify(taint)) out = out.map((t, j) => (j === i ? taint : t));
    else continue;
    changed = true;
  }
  return changed ? out : undefined;
}

/** The taints without those matching `remove`; undefined when none is there. */
export function withoutTaints(taints: readonly Taint[], remove: readonly Taint[]): Taint[] | undefined {
  const out = taints.filter((t) => !remove.some((r) => matchTaint(t, r)));
  return out.length === taints.length ? undefined : out;
}
