/**
 * The Flow view's model: everything an apply set in motion, found only by following cause links
 * from the user's request (DESIGN.md invariant 2), laid out as a sequence diagram: one lane per
 * actor (API server, etcd, each controller, the scheduler, each kubelet), one step per record in
 * id order, each with an arrow from the lane of the record that caused it.
 */
import type { PanelRecord } from '../../src/protocol/panel';
import { formatCount, groupResource } from './format';
import { requestObject } from './rows';

export interface FlowLane {
  readonly id: string;
  readonly title: string;
}

export interface FlowStep {
  readonly record: PanelRecord;
  readonly lane: number;
  /** The lane of the record that caused this one (absent for the root). */
  readonly from?: number;
  readonly label: string;
}

export interface Flow {
  readonly lanes: readonly FlowLane[];
  readonly steps: readonly FlowStep[];
  /** Records of the chain left out beyond the step limit. */
  readonly omitted: number;
}

/** Every record's direct effects: cause id -> the records naming it as their cause, in id order. */
export function causeIndex(records: Iterable<PanelRecord>): Map<number, PanelRecord[]> {
  const children = new Map<number, PanelRecord[]>();
  for (const r of records) {
    if (r.cause === undefined) continue;
    const list = children.get(r.cause);
    if (list) list.push(r);
    else children.set(r.cause, [r]);
  }
  for (const list of children.values()) list.sort((a, b) => a.id - b.id);
  return children;
}

/** The root and everything caused by it, transitively, in id order. */
export function causalChain(root: PanelRecord, children: ReadonlyMap<number, Iterable<PanelRecord>>): PanelRecord[] {
  const seen = new Set<number>([root.id]);
  const out: PanelRecord[] = [root];
  for (let i = 0; i < out.length; i++) {
    for (const child of children.get(out[i]!.id) ?? []) {
      if (seen.has(child.id)) continue;
      seen.add(child.id);
      out.push(child);
    }
  }
  return out.sort((a, b) => a.id - b.id);
}

/**
 * The user's own writes, where an apply's chain starts: nothing in the trace caused them (no
 * cause link), they were stored (not dry runs), and they were not made by a control-plane
 * identity (system:node:*, system:serviceaccount:*, system:kube-scheduler, ...): a kubelet's
 * heartbeat also has no cause, but it is not an apply.
 */
export function isUserWrite(r: PanelRecord): boolean {
  return r.type === 'api.request' && r.cause === undefined && !r.dryRun && WRITE_VERBS.has(r.verb) && !r.user.startsWith('system:');
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export function buildFlow(root: PanelRecord, children: ReadonlyMap<number, Iterable<PanelRecord>>, maxSteps = 400): Flow {
  const chain = causalChain(root, children);
  const shown = chain.slice(0, maxSteps);
  const laneOf = new Map<string, { lane: FlowLane; rank: number; first: number }>();
  const keys = shown.map((r, i) => {
    const lane = laneFor(r);
    if (!laneOf.has(lane.lane.id)) laneOf.set(lane.lane.id, { ...lane, first: i });
    return lane.lane.id;
  });
  const ordered = [...laneOf.values()].sort((a, b) => a.rank - b.rank || a.first - b.first);
  const index = new Map(ordered.map((l, i) => [l.lane.id, i]));
  const laneById = new Map(shown.map((r, i) => [r.id, index.get(keys[i]!)!]));
  const steps = shown.map((record): FlowStep => {
    const from = record.id === root.id || record.cause === undefined ? undefined : laneById.get(record.cause);
    return { record, lane: laneById.get(record.id)!, label: stepLabel(record), ...(from !== undefined ? { from } : {}) };
  });
  return { lanes: ordered.map((l) => l.lane), steps, omitted: chain.length - shown.length };
}

const RANK = { apiserver: 0, etcd: 1, controller: 2, scheduler: 3, kubelet: 4, events: 5, other: 6 } as const;

function laneFor(r: PanelRecord): { lane: FlowLane; rank: number } {
  switch (r.type) {
    case 'api.request':
      return { lane: { id: 'apiserver', title: 'API server' }, rank: RANK.apiserver };
    case 'store.revision':
    case 'store.compaction':
      return { lane: { id: 'etcd', title: 'etcd' }, rank: RANK.etcd };
    case 'controller.reconcile':
      return { lane: { id: `controller/${r.controller}`, title: r.component }, rank: RANK.controller };
    case 'scheduler.attempt':
    case 'scheduler.binding':
      return { lane: { id: 'scheduler', title: 'kube-scheduler' }, rank: RANK.scheduler };
    case 'kubelet.action':
      return { lane: { id: `kubelet/${r.node}`, title: `kubelet ${r.node}` }, rank: RANK.kubelet };
    case 'kube.event':
      return { lane: { id: 'events', title: 'Events' }, rank: RANK.events };
    default:
      return { lane: { id: `other/${(r as PanelRecord).component}`, title: (r as PanelRecord).component }, rank: RANK.other };
  }
}

/** One line for a step of the diagram, from the record's fields. */
export function stepLabel(r: PanelRecord): string {
  switch (r.type) {
    case 'api.request': {
      const what = [r.verb, groupResource(r.group, r.resource) + (r.subresource ? `/${r.subresource}` : ''), requestObject(r)].filter(Boolean).join(' ');
      return `${what} → ${r.code}`;
    }
    case 'store.revision':
      return `rev ${r.revision} ${r.operation} ${r.key}`;
    case 'store.compaction':
      return `compacted below rev ${r.revision}`;
    case 'controller.reconcile':
      return `sync ${r.key}: ${r.outcome}${r.requests.length ? `, ${r.requests.length} request${r.requests.length === 1 ? '' : 's'}` : ''}`;
    case 'scheduler.attempt':
      return `schedule ${r.pod.namespace}/${r.pod.name}: ${r.outcome}${r.node ? ` on ${r.node}` : ''}`;
    case 'scheduler.binding':
      return `bind ${r.pod.namespace}/${r.pod.name} → ${r.node}: ${r.outcome}`;
    case 'kubelet.action':
      return [r.action, r.pod, r.container].filter(Boolean).join(' ');
    case 'kube.event':
      return `${r.reason}: ${r.regarding}${r.count > 1 ? ` (x${formatCount(r.count)})` : ''}`;
    default:
      return (r as PanelRecord).type;
  }
}
