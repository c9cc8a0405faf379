/**
 * The four record lists: which records each one holds, how its filters match them, and the
 * values its filter menus offer (the values seen so far).
 */
import type { ApiRequestRecord } from '../../src/protocol/trace-records';
import type { ReconcileRecord } from '../../src/protocol/trace-records';
import type { PanelRecord } from '../../src/protocol/panel';
import { kindOf, reconcileRow, requestRow, revisionRow, schedulerRow, type Kinds, type RevisionRowRecord, type Row, type SchedulerRowRecord } from './rows';
import type { Filters, ListTab } from './state';

/** Cluster-scoped objects in the namespace menu. */
export const NO_NAMESPACE = '(cluster-scoped)';
/** Revisions no request wrote (the API server's own bootstrap) in the actor menu. */
export const NO_ACTOR = '(none)';

export interface ListSpec<R extends PanelRecord, T extends ListTab> {
  readonly tab: T;
  accepts(r: PanelRecord): r is R;
  /** The record's value for each filter field. */
  values(r: R, kinds: Kinds): Record<keyof Filters[T] & string, string>;
  /** Fields filtered by substring (free text) rather than by a menu of exact values. */
  readonly textFields: readonly string[];
  /** Rows every filter lets through (compactions are part of every timeline). */
  always?(r: R): boolean;
  row(r: R, kinds: Kinds): Row;
}

export const revisionsList: ListSpec<RevisionRowRecord, 'revisions'> = {
  tab: 'revisions',
  accepts: (r): r is RevisionRowRecord => r.type === 'store.revision' || r.type === 'store.compaction',
  values: (r, kinds) =>
    r.type === 'store.compaction'
      ? { namespace: '', kind: '', actor: '' }
      : { namespace: r.namespace || NO_NAMESPACE, kind: kindOf(kinds, r.group, r.resource), actor: r.actor ?? NO_ACTOR },
  textFields: [],
  always: (r) => r.type === 'store.compaction',
  row: revisionRow,
};

export const requestsList: ListSpec<ApiRequestRecord, 'requests'> = {
  tab: 'requests',
  accepts: (r): r is ApiRequestRecord => r.type === 'api.request',
  values: (r) => ({ user: r.user, verb: r.verb, outcome: r.code >= 400 ? 'failed' : 'succeeded' }),
  textFields: [],
  row: (r) => requestRow(r),
};

export const controllersList: ListSpec<ReconcileRecord, 'controllers'> = {
  tab: 'controllers',
  accepts: (r): r is ReconcileRecord => r.type === 'controller.reconcile',
  values: (r) => ({ controller: r.controller, outcome: r.outcome }),
  textFields: [],
  row: (r) => reconcileRow(r),
};

export const schedulerList: ListSpec<SchedulerRowRecord, 'scheduler'> = {
  tab: 'scheduler',
  accepts: (r): r is SchedulerRowRecord => r.type === 'scheduler.attempt' || r.type === 'scheduler.binding',
  values: (r) => ({ pod: `${r.pod.namespace}/${r.pod.name}`, outcome: r.outcome }),
  textFields: ['pod'],
  row: (r) => schedulerRow(r),
};

/** Whether a record passes a list's filters ('' matches anything). */
export function passes<R extends PanelRecord, T extends ListTab>(spec: ListSpec<R, T>, r: R, filters: Filters[T], kinds: Kinds): boolean {
  if (spec.always?.(r)) return true;
  const values = spec.values(r, kinds) as Record<string, string>;
  for (const [field, wanted] of Object.entries(filters as Record<string, string>)) {
    if (wanted === '') continue;
    const v = (Object.hasOwn(values, field) ? values[field] : undefined) ?? '';
    if (spec.textFields.includes(field) ? !v.toLowerCase().includes(wanted.toLowerCase()) : v !== wanted) return false;
  }
  return true;
}
