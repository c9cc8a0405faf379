/**
 * The Flow view's model: everything an apply set in motion, found only by following cause links
 * from the user's request (docs/architecture.md, invariant 2), laid out as a sequence diagram: one lane per
 * actor (API server, etcd, each controller, the scheduler, each kubelet), one step per record in
 * id order, each with an arrow from the lane of the record that caused it.
 */
import { own } from '../../src/protocol/own';
import { causalClosure } from '../../src/protocol/timeline';
import { retriedRecords } from '../../src/protocol/timeline';
import type { PanelRecord } from '../../src/protocol/panel';
import { formatCount, groupResource } from './format';
import { requestObject } from './rows';

export interface FlowLane {
  readonly id: string;
  readonly title: string;
  /** Records of the chain on this lane (drawn or not). */
  readonly count: number;
  /** Its steps are not drawn: the user folded it, or every one of them is a sync that changed nothing. */
  readonly collapsed: boolean;
}

export interface FlowStep {
  readonly record: PanelRecord;
  readonly lane: number;
  /** The lane of the record that caused this one (absent for the root). */
  readonly from?: number;
  readonly label: string;
  /** A failure a later sync got past (timeline/retries.ts): drawn as retried, not failed. */
  readonly retried: boolean;
}

export interface Flow {
  readonly lanes: readonly FlowLane[];
  readonly steps: readonly FlowStep[];
  /** Records of the chain left out beyond the step limit. */
  readonly omitted: number;
  /** Records of the chain the quiet filters hide (Events, reads, heartbeats). */
  readonly hidden: number;
  /** Records on collapsed lanes. */
  readonly folded: number;
}

export interface FlowOptions {
  readonly maxSteps?: number;
  /** Records the quiet filters hide. */
  hide?(r: PanelRecord): boolean;
  /** Lanes the user folded or opened (lane id -> folded); the others fold when all they hold is syncs that changed nothing. */
  readonly lanes?: Readonly<Record<string, boolean>>;
}

/** A sync that sent nothing and ended well: a loop that woke up and found nothing to do. */
function idle(r: PanelRecord): boolean {
  return r.type === 'controller.reconcile' && r.requests.length === 0 && r.outcome !== 'error';
}

export { causeIndex, causalClosure as causalChain } from '../../src/protocol/timeline';

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

export function buildFlow(root: PanelRecord, children: ReadonlyMap<number, Iterable<PanelRecord>>, options: FlowOptions = {}): Flow {
  const chain = causalClosure(root, children);
  const retried = retriedRecords(chain);
  const visible = chain.filter((r) => r.id === root.id || !options.hide?.(r));
  const lanes = new Map<string, { lane: { id: string; title: string }; rank: number; first: number; count: number; busy: boolean }>();
  const laneKey = new Map<number, string>();
  visible.forEach((r, i) => {
    const { lane, rank } = laneFor(r);
    let l = lanes.get(lane.id);
    if (!l) lanes.set(lane.id, (l = { lane, rank, first: i, count: 0, busy: false }));
    l.count++;
    if (!idle(r)) l.busy = true;
    laneKey.set(r.id, lane.id);
  });
  const ordered = [...lanes.values()].sort((a, b) => a.rank - b.rank || a.first - b.first);
  const folded = (l: (typeof ordered)[number]): boolean => own(options.lanes, l.lane.id) ?? !l.busy;
  const index = new Map(ordered.map((l, i) => [l.lane.id, i]));
  const foldedIds = new Set(ordered.filter(folded).map((l) => l.lane.id));
  const drawn = visible.filter((r) => r.id === root.id || !foldedIds.has(laneKey.get(r.id)!));
  const shown = drawn.slice(0, options.maxSteps ?? 400);
  const steps = shown.map((record): FlowStep => {
    const causeLane = record.id === root.id || record.cause === undefined ? undefined : laneKey.get(record.cause);
    const from = causeLane === undefined ? undefined : index.get(causeLane);
    return { record, lane: index.get(laneKey.get(record.id)!)!, label: stepLabel(record), retried: retried.has(record.id), ...(from !== undefined ? { from } : {}) };
  });
  return {
    lanes: ordered.map((l) => ({ ...l.lane, count: l.count, collapsed: folded(l) && l.lane.id !== laneKey.get(root.id) })),
    steps,
    omitted: drawn.length - shown.length,
    hidden: chain.length - visible.length,
    folded: visible.length - drawn.length,
  };
}

const RANK = { apiserver: 0, etcd: 1, controller: 2, scheduler: 3, kubelet: 4, events: 5, other: 6 } as const;

function laneFor(r: PanelRecord): { lane: { id: string; title: string }; rank: number } {
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
