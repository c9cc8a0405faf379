/**
 * Zones and their disruption states: nodes are grouped by region and zone; a zone with no Ready
 * node is fully disrupted, one where at least 55% of more than two nodes are not Ready is
 * partially disrupted. The state sets the zone's tainting rate: --node-eviction-rate (0.1/s)
 * normally; in a partially disrupted zone --secondary-node-eviction-rate (0.01/s) in clusters
 * over 50 nodes and none in smaller ones; a fully disrupted zone keeps the normal rate unless
 * every zone is fully disrupted, when all tainting stops.
 */
import type { Node, NodeCondition } from '../util/types/node';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

export interface EvictionSettings {
  /** --node-eviction-rate. */
  evictionQps: number;
  /** --secondary-node-eviction-rate. */
  secondaryEvictionQps: number;
  /** --large-cluster-size-threshold. */
  largeClusterThreshold: number;
  /** --unhealthy-zone-threshold. */
  unhealthyZoneThreshold: number;
}

export const DEFAULT_EVICTION_SETTINGS: EvictionSettings = Object.freeze({ evictionQps: 0.1, secondaryEvictionQps: 0.01, largeClusterThreshold: 50, unhealthyZoneThreshold: 0.55 });

/** nodetopology.GetZoneKey: "<region>:\0:<zone>", or "" for a node without either label. */
export function zoneKey(node: Node): string {
  const labels = node.metadata.labels ?? {};
  const zone = labels['failure-domain.beta.kubernetes.io/zone'] ?? labels['topology.kubernetes.io/zone'] ?? '';
  const region = labels['failure-domain.beta.kubernetes.io/region'] ?? labels['topology.kubernetes.io/region'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** ComputeZoneState over the zone's Ready conditions: the number not Ready and the state. */
export function computeZoneState(ready: readonly (NodeCondition | undefined)[], threshold: number): [number, ZoneState] {
  let readyNodes = 0;
  let notReady = 0;
  for (const c of ready) {
    if (c?.status === 'True') readyNodes++;
    else notReady++;
  }
  if (readyNodes === 0 && notReady > 0) return [notReady, 'FullDisruption'];
  if (notReady > 2 && notReady / (notReady + readyNodes) >= threshold) return [notReady, 'PartialDisruption'];
  return [notReady, 'Normal'];
}

/** The tainting rate (per second) of a zone in a state; 0 stops tainting. */
export function zoneQps(state: ZoneState, zoneSize: number, s: EvictionSettings): number {
  if (state === 'PartialDisruption') return zoneSize > s.largeClusterThreshold ? s.secondaryEvictionQps : 0;
  return s.evictionQps;
}
