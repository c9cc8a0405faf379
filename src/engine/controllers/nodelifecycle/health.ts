/**
 * tryUpdateNodeHealth as a pure function: what the controller last saw of a node (its status and
 * Lease, and when it last heard from it) against what the caches show now. A renewed Lease or a
 * new heartbeat in the Ready condition counts as hearing from the node; when nothing was heard
 * for the grace period (50 s; 60 s for a node that never posted status), the Ready,
 * MemoryPressure, DiskPressure and PIDPressure conditions become Unknown.
 */
import type { Lease, Node, NodeCondition } from '../util/types/node';

export interface NodeHealth {
  conditions: readonly NodeCondition[];
  /** When the controller last heard from the node (ms). */
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  lease?: Lease;
}

export interface HealthCheck {
  /** The node as the cache has it (not changed). */
  node: Node;
  saved: NodeHealth | undefined;
  lease: Lease | undefined;
  now: number;
  /** RFC 3339 of now, for condition timestamps. */
  nowTime: string;
  monitorGracePeriodMs: number;
  startupGracePeriodMs: number;
}

export interface HealthResult {
  /** The Ready condition as it was before this check (Unknown for a node that never posted one). */
  observed: NodeCondition;
  /** The Ready condition now. */
  current: NodeCondition | undefined;
  health: NodeHealth;
  /** The node's conditions to write when they went Unknown; undefined when nothing is to be written. */
  unknownConditions?: NodeCondition[];
}

const UNKNOWN_CONDITION_TYPES = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

const readyOf = (conditions: readonly NodeCondition[] | undefined): NodeCondition | undefined => conditions?.find((c) => c.type === 'Ready');

const parse = (t: string | null | undefined): number => (t ? Date.parse(t) : Number.NaN);

export function checkNodeHealth(input: HealthCheck): HealthResult {
  const { node, now } = input;
  const conditions = node.status?.conditions ?? [];
  const created = node.metadata.creationTimestamp ?? null;
  const createdMs = parse(created);
  let health = input.saved ? { ...input.saved } : undefined;
  const currentReady = readyOf(conditions);
  let observed: NodeCondition;
  let grace: number;
  if (!currentReady) {
    observed = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: created, lastTransitionTime: created };
    grace = input.startupGracePeriodMs;
    if (health) health.conditions = conditions;
    else health = { conditions, probeTimestamp: createdMs, readyTransitionTimestamp: createdMs };
  } else {
    observed = { ...currentReady };
    grace = input.monitorGracePeriodMs;
  }
  const savedReady = health ? readyOf(health.conditions) : undefined;
  const savedLease = health?.lease;
  if (!health) {
    health = { conditions, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if ((!savedReady && currentReady) || (savedReady && !currentReady)) {
    health = { conditions, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (savedReady && currentReady && savedReady.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
    const transition = savedReady.lastTransitionTime !== currentReady.lastTransitionTime ? now : health.readyTransitionTimestamp;
    health = { conditions, probeTimestamp: now, readyTransitionTimestamp: transition };
  }
  const lease = input.lease;
  if (lease && (!savedLease || parse(savedLease.spec?.renewTime) < parse(lease.spec?.renewTime))) {
    health.lease = lease;
    health.probeTimestamp = now;
  }

  if (now > health.probeTimestamp + grace) {
    const updated = conditions.map((c) => ({ ...c }));
    for (const type of UNKNOWN_CONDITION_TYPES) {
      const c = updated.find((x) => x.type === type);
      if (!c) {
        updated.push({ type, status: 'Unknown', lastHeartbeatTime: created, lastTransitionTime: input.nowTime, reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' });
      } else if (c.status !== 'Unknown') {
        c.status = 'Unknown';
        c.reason = 'NodeStatusUnknown';
        c.message = 'Kubelet stopped posting node status.';
        c.lastTransitionTime = input.nowTime;
      }
    }
    const current = readyOf(updated);
    if (JSON.stringify(current) !== JSON.stringify(observed)) return { observed, current, health, unknownConditions: updated };
    return { observed, current, health };
  }
  return { observed, current: currentReady, health };
}
