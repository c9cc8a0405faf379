/**
 * Each list's columns and how a record becomes a row: the text of its cells and its emphasis.
 * Everything shown comes from the record's own fields (docs/architecture.md, invariant 2).
 */
import type { ApiRequestRecord } from '../../src/protocol/trace-records';
import type { CompactionRecord } from '../../src/protocol/trace-records';
import type { ReconcileRecord } from '../../src/protocol/trace-records';
import type { RevisionRecord } from '../../src/protocol/trace-records';
import type { BindingRecord, SchedulingAttemptRecord } from '../../src/protocol/trace-records';
import { actorName } from '../../src/protocol/timeline';
import { requestOrigin } from '../../src/protocol/timeline';
import { formatDuration, formatTime, groupResource } from './format';

export interface Column {
  readonly title: string;
  /** A CSS grid track: "72px", "1fr". */
  readonly width: string;
}

export type RowTone = 'failed' | 'conflict' | 'compaction' | undefined;

export interface Row {
  readonly cells: readonly string[];
  readonly tone: RowTone;
}

export type RevisionRowRecord = RevisionRecord | CompactionRecord;
export type SchedulerRowRecord = SchedulingAttemptRecord | BindingRecord;

/** "group/resource" -> Kind, as the host's registry names them. */
export type Kinds = Readonly<Record<string, string>>;

export const REVISION_COLUMNS: readonly Column[] = [
  { title: 'Revision', width: '64px' },
  { title: 'Time', width: '92px' },
  { title: 'Operation', width: '72px' },
  { title: 'Kind', width: 'minmax(96px, 0.7fr)' },
  { title: 'Key', width: 'minmax(170px, 1.6fr)' },
  { title: 'Actor', width: 'minmax(140px, 0.9fr)' },
  { title: 'Change', width: 'minmax(0, 2fr)' },
];

export function kindOf(kinds: Kinds, group: string, resource: string): string {
  const key = `${group}/${resource}`;
  return (Object.hasOwn(kinds, key) ? kinds[key] : undefined) ?? groupResource(group, resource);
}

export function revisionRow(r: RevisionRowRecord, kinds: Kinds): Row {
  if (r.type === 'store.compaction') {
    return { cells: [String(r.revision), formatTime(r.time), 'compact', '', '', '', `history below revision ${r.revision} compacted`], tone: 'compaction' };
  }
  return {
    cells: [String(r.revision), formatTime(r.time), r.operation, kindOf(kinds, r.group, r.resource), r.key, r.actor ? actorName(r.actor) : '', r.change],
    tone: undefined,
  };
}

export const REQUEST_COLUMNS: readonly Column[] = [
  { title: 'Record', width: '60px' },
  { title: 'Time', width: '92px' },
  { title: 'User', width: 'minmax(130px, 1fr)' },
  { title: 'Verb', width: '64px' },
  { title: 'Resource', width: 'minmax(130px, 1fr)' },
  { title: 'Object', width: 'minmax(140px, 1fr)' },
  { title: 'Code', width: '46px' },
  { title: 'Result', width: 'minmax(0, 1.4fr)' },
];

/** "deployments.apps/status" or the non-resource path. */
export function requestResource(r: ApiRequestRecord): string {
  if (r.path !== undefined && !r.resource) return r.path;
  const gr = groupResource(r.group, r.resource);
  return r.subresource ? `${gr}/${r.subresource}` : gr;
}

export function requestObject(r: ApiRequestRecord): string {
  if (r.namespace && r.name) return `${r.namespace}/${r.name}`;
  return r.name ?? (r.namespace ? `${r.namespace}/*` : '');
}

/** Who sent a request: the identity, and which program when it was the editor or the panel itself. */
export function requestSender(r: ApiRequestRecord): string {
  const origin = requestOrigin(r);
  if (origin === 'panel') return 'control-plane panel (its own read)';
  if (origin === 'editor') return `${actorName(r.user)} · editor`;
  return actorName(r.user);
}

/** A 409 Conflict is optimistic concurrency at work: the writer re-reads and retries. Not an error tone. */
function isConflict(r: { code: number; reason?: string }): boolean {
  return r.code === 409 && r.reason === 'Conflict';
}

export function requestRow(r: ApiRequestRecord): Row {
  const result = r.code >= 400 ? `${r.reason ?? 'Failure'}: ${r.message ?? ''}` : r.revision !== undefined ? `revision ${r.revision}` : r.dryRun ? 'dry run' : '';
  const verb = r.dryRun ? `${r.verb} (dry)` : r.verb;
  return {
    cells: [`#${r.id}`, formatTime(r.time), requestSender(r), verb, requestResource(r), requestObject(r), String(r.code), isConflict(r) ? `${result} (the writer re-reads and retries)` : result],
    tone: isConflict(r) ? 'conflict' : r.code >= 400 ? 'failed' : undefined,
  };
}

export const RECONCILE_COLUMNS: readonly Column[] = [
  { title: 'Time', width: '92px' },
  { title: 'Controller', width: 'minmax(120px, 0.8fr)' },
  { title: 'Key', width: 'minmax(160px, 1.2fr)' },
  { title: 'Trigger', width: 'minmax(110px, 0.7fr)' },
  { title: 'Requests', width: '72px' },
  { title: 'Outcome', width: 'minmax(0, 1.5fr)' },
];

export function reconcileTrigger(r: ReconcileRecord): string {
  return r.trigger === 'event' && r.revision !== undefined ? `event (rev ${r.revision})` : r.trigger;
}

export function reconcileOutcome(r: ReconcileRecord): string {
  switch (r.outcome) {
    case 'done':
      return 'done';
    case 'requeue-after':
      return `requeue after ${formatDuration(r.requeueAfterMs ?? 0)}`;
    case 'error': {
      const retry = r.dropped ? 'dropped after max retries' : `retry in ${formatDuration(r.backoffMs ?? 0)} (requeues: ${r.retries ?? 0})`;
      return `error: ${r.error ?? ''} (${retry})`;
    }
  }
}

export function reconcileRow(r: ReconcileRecord): Row {
  return {
    cells: [formatTime(r.time), r.controller, r.key, reconcileTrigger(r), String(r.requests.length), reconcileOutcome(r)],
    tone: r.outcome === 'error' ? (/Conflict|the object has been modified/.test(r.error ?? '') ? 'conflict' : 'failed') : undefined,
  };
}

export const SCHEDULER_COLUMNS: readonly Column[] = [
  { title: 'Time', width: '92px' },
  { title: 'Pod', width: 'minmax(150px, 1.6fr)' },
  { title: 'Step', width: '70px' },
  { title: 'Outcome', width: '92px' },
  { title: 'Node', width: 'minmax(110px, 1fr)' },
  { title: 'Nodes', width: '90px' },
  { title: 'Message', width: 'minmax(0, 1.2fr)' },
];

export function schedulerRow(r: SchedulerRowRecord): Row {
  const pod = `${r.pod.namespace}/${r.pod.name}`;
  if (r.type === 'scheduler.binding') {
    return { cells: [formatTime(r.time), pod, 'binding', r.outcome, r.node, '', r.message ?? ''], tone: r.outcome === 'failed' ? 'failed' : undefined };
  }
  const nodes = `${r.feasibleNodes}/${r.evaluatedNodes} feasible`;
  return {
    cells: [formatTime(r.time), pod, `attempt ${r.attempt}`, r.outcome, r.node ?? '', nodes, r.message ?? ''],
    tone: r.outcome === 'scheduled' ? undefined : 'failed',
  };
}
