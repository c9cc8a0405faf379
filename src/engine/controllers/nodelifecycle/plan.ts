/**
 * What a node health pass decides (node_lifecycle_controller.go processTaintBasedEviction and
 * handleDisruption), as pure functions of a node's observed Ready condition and taints, and of
 * the zones' states and Ready conditions. The controller (controller.ts) performs the plans: the
 * taint writes and tainting queues, then the zones' new states and tainting rates.
 */
import type { Taint } from '../../component-helpers/scheduling/types';
import type { Node, NodeCondition } from '../util/types/node';
import { NOT_READY_NO_EXECUTE, taintExists, UNREACHABLE_NO_EXECUTE } from './taints';
import { computeZoneState, zoneQps, type EvictionSettings, type ZoneState } from './zones';

export type EvictionStep =
  /** The node has the other NoExecute taint already: swap it for this one now. */
  | { kind: 'swap'; add: Taint; remove: Taint }
  /** Queue the node in its zone for the NoExecute taint of this Ready status. */
  | { kind: 'queue'; status: 'False' | 'Unknown' }
  /** Ready again: both NoExecute taints go and the node leaves its zone's queue. */
  | { kind: 'reachable' };

/** processTaintBasedEviction: what the node's observed Ready condition asks for, if anything. */
export function planTaintBasedEviction(node: Node, observed: NodeCondition): EvictionStep | undefined {
  switch (observed.status) {
    case 'False':
      return taintExists(node.spec?.taints, UNREACHABLE_NO_EXECUTE) ? { kind: 'swap', add: NOT_READY_NO_EXECUTE, remove: UNREACHABLE_NO_EXECUTE } : { kind: 'queue', status: 'False' };
    case 'Unknown':
      return taintExists(node.spec?.taints, NOT_READY_NO_EXECUTE) ? { kind: 'swap', add: UNREACHABLE_NO_EXECUTE, remove: NOT_READY_NO_EXECUTE } : { kind: 'queue', status: 'Unknown' };
    case 'True':
      return { kind: 'reachable' };
    default:
      return undefined;
  }
}

export interface ZoneChange {
  zone: string;
  state: ZoneState;
  /** The zone's new tainting rate (per second; 0 stops it). */
  qps: number;
}

export interface DisruptionPlan {
  /**
   * The zones the controller keeps after this pass, with their states before the changes below:
   * zones seen for the first time start as Initial; zones without nodes any more are dropped
   * (upstream drops them only while it looks for a zone not fully disrupted, so those after the
   * first such zone stay until a later pass).
   */
  zones: Map<string, ZoneState>;
  /**
   * steady: every zone was and is fully disrupted, nothing changes; allDisrupted: every zone is
   * fully disrupted now (master disruption: every node loses its NoExecute taints and all
   * tainting stops); recovered: the cluster leaves that mode (the nodes' health timestamps are
   * reset first); changed: the zones whose state changed.
   */
  mode: 'steady' | 'allDisrupted' | 'recovered' | 'changed';
  changes: ZoneChange[];
}

/** handleDisruption over the zones' Ready conditions this pass. */
export function planDisruption(previous: ReadonlyMap<string, ZoneState>, zoneConditions: ReadonlyMap<string, readonly (NodeCondition | undefined)[]>, s: EvictionSettings): DisruptionPlan {
  const zones = new Map(previous);
  const newStates = new Map<string, ZoneState>();
  let allAreFullyDisrupted = true;
  for (const [zone, conditions] of zoneConditions) {
    const [, state] = computeZoneState(conditions, s.unhealthyZoneThreshold);
    if (state !== 'FullDisruption') allAreFullyDisrupted = false;
    newStates.set(zone, state);
    if (!zones.has(zone)) zones.set(zone, 'Initial');
  }
  let allWasFullyDisrupted = true;
  for (const [zone, state] of [...zones]) {
    if (!zoneConditions.has(zone)) {
      zones.delete(zone);
      continue;
    }
    if (state !== 'FullDisruption') {
      allWasFullyDisrupted = false;
      break;
    }
  }
  const size = (zone: string): number => zoneConditions.get(zone)?.length ?? 0;
  if (allAreFullyDisrupted && allWasFullyDisrupted) return { zones, mode: 'steady', changes: [] };
  if (allAreFullyDisrupted) return { zones, mode: 'allDisrupted', changes: [...zones.keys()].map((zone) => ({ zone, state: 'FullDisruption', qps: 0 })) };
  if (allWasFullyDisrupted) {
    return {
      zones,
      mode: 'recovered',
      changes: [...zones.keys()].map((zone) => {
        const state = newStates.get(zone) ?? 'Normal';
        return { zone, state, qps: zoneQps(state, size(zone), s) };
      }),
    };
  }
  const changes: ZoneChange[] = [];
  for (const [zone, state] of zones) {
    const next = newStates.get(zone);
    if (!next || next === state) continue;
    changes.push({ zone, state: next, qps: zoneQps(next, size(zone), s) });
  }
  return { zones, mode: 'changed', changes };
}
