/**
 * What a raft entry carries (etcd's InternalRaftRequest) and how a member applies it to its MVCC
 * state (etcdserver's applierV3): every member applies the same entries in the same order, so
 * every member computes the same responses and reaches the same revisions.
 */
import { deleteRangeSize, putSize, txnSize } from '../limits';
import type { Mvcc } from '../memory/mvcc';
import { StoreError, type DeleteRangeRequest, type PutRequest, type TxnRequest } from '../types';
import type { EtcdAlarmType } from './member';
import { quotaAvailable, requestCost } from './quota';
import { fail, ok, type Result } from '../../api/result';

export type RaftRequest =
  | { readonly put: PutRequest }
  | { readonly deleteRange: DeleteRangeRequest }
  | { readonly txn: TxnRequest }
  | { readonly compaction: number }
  | { readonly leaseGrant: { readonly id: number; readonly ttl: number } }
  | { readonly leaseRevoke: number }
  /** A member publishing its name and client URLs to the cluster (etcd's publish, at start). */
  | { readonly publish: string }
  /** The leader deciding the cluster version once every member published (etcd's cluster version set). */
  | { readonly clusterVersion: string }
  /** A client authenticating as a user (etcd 3.4's InternalAuthenticateRequest): no revision, but a quorum. */
  | { readonly authenticate: string }
  /** An alarm raised or disarmed (etcd's AlarmRequest: ACTIVATE or DEACTIVATE). */
  | { readonly alarm: AlarmRequest };

export interface AlarmRequest {
  readonly action: 'activate' | 'deactivate';
  /** The member ID (16 hex digits) the alarm is for. */
  readonly memberId: string;
  readonly alarm: EtcdAlarmType;
}

/** The alarm store every member keeps: member ID -> alarms raised for it. */
export type AlarmStore = Map<string, Set<EtcdAlarmType>>;

export interface AlarmMember {
  readonly memberId: string;
  readonly alarm: EtcdAlarmType;
}

/** An entry's data: the request with the proposing member's request id (its wait registry key). */
export interface InternalRaftRequest {
  readonly id: number;
  readonly request: RaftRequest;
}

export type ApplyResult = Result<unknown, StoreError>;

/** Runs one committed request on a member's MVCC state; errors are results, as etcd's applier returns them. */
export interface ApplyContext {
  readonly alarms: AlarmStore;
  /** --quota-backend-bytes in force (negative: none). */
  readonly quota: number;
}

/**
 * etcd's applier chain: with the NOSPACE alarm raised anywhere in the cluster, the capped
 * applier refuses puts, txns with puts and lease grants without applying them; otherwise the
 * quota applier applies them and answers ErrNoSpace if the backend was already over its quota
 * (the member then raises the alarm).
 */
export function applyRequest(mvcc: Mvcc, r: RaftRequest, ctx: ApplyContext): ApplyResult {
  try {
    if ('alarm' in r) return ok(applyAlarm(mvcc, ctx.alarms, r.alarm));
    const cost = 'put' in r || 'txn' in r || 'leaseGrant' in r ? requestCost(r) : 0;
    if (cost > 0 && alarmActive(ctx.alarms, 'NOSPACE')) return fail(new StoreError('noSpace'));
    const available = cost === 0 || quotaAvailable(ctx.quota, mvcc.dbSizeBytes, cost);
    const response = run(mvcc, r);
    if (!available) return fail(new StoreError('noSpace'));
    return ok(response);
  } catch (err) {
    if (err instanceof StoreError) return fail(err);
    throw err;
  }
}

function run(mvcc: Mvcc, r: RaftRequest): unknown {
  if ('put' in r) return mvcc.applyPut(r.put);
  if ('deleteRange' in r) return mvcc.applyDeleteRange(r.deleteRange);
  if ('txn' in r) return mvcc.applyTxn(r.txn);
  if ('compaction' in r) return mvcc.applyCompaction(r.compaction);
  if ('leaseGrant' in r) return mvcc.applyLeaseGrant(r.leaseGrant.id, r.leaseGrant.ttl);
  if ('leaseRevoke' in r) return mvcc.applyLeaseRevoke(r.leaseRevoke);
  // Membership and version entries live outside the key space: no revision.
  return undefined;
}

/** etcd's applierV3backend.Alarm: the alarms it changed (none if it was already so). */
function applyAlarm(mvcc: Mvcc, alarms: AlarmStore, a: AlarmRequest): AlarmMember[] {
  const set = alarms.get(a.memberId);
  if (a.action === 'activate') {
    if (set?.has(a.alarm)) return [{ memberId: a.memberId, alarm: a.alarm }];
    if (set) set.add(a.alarm);
    else alarms.set(a.memberId, new Set([a.alarm]));
  } else {
    if (!set?.delete(a.alarm)) return [];
    if (set.size === 0) alarms.delete(a.memberId);
  }
  // The alarm bucket changed.
  mvcc.bolt.meta(mvcc.now());
  return [{ memberId: a.memberId, alarm: a.alarm }];
}

/** Whether any member has this alarm raised. */
export function alarmActive(alarms: AlarmStore, alarm: EtcdAlarmType): boolean {
  for (const set of alarms.values()) if (set.has(alarm)) return true;
  return false;
}

const length = (s: string): number => s.length;

/** The entry's size in bytes (the request's protobuf, near enough): what MaxSizePerMsg counts. */
export function requestBytes(r: RaftRequest): number {
  if ('put' in r) return putSize(r.put, length);
  if ('deleteRange' in r) return deleteRangeSize(r.deleteRange, length);
  if ('txn' in r) return txnSize(r.txn, length);
  if ('publish' in r) return 40 + r.publish.length;
  return 16;
}

/** How the timeline and the panel name an entry. */
export function describeRequest(r: RaftRequest): string {
  if ('put' in r) return `put ${r.put.key}`;
  if ('deleteRange' in r) return `delete ${r.deleteRange.key}`;
  if ('txn' in r) {
    const op = r.txn.success[0] ?? r.txn.failure[0];
    const key = op && ('put' in op ? op.put.key : 'deleteRange' in op ? op.deleteRange.key : 'range' in op ? op.range.key : '');
    return key ? `txn ${key}` : 'txn';
  }
  if ('compaction' in r) return `compact ${r.compaction}`;
  if ('leaseGrant' in r) return `lease grant ${r.leaseGrant.id}`;
  if ('leaseRevoke' in r) return `lease revoke ${r.leaseRevoke}`;
  if ('publish' in r) return `publish ${r.publish}`;
  if ('alarm' in r) return `alarm ${r.alarm.action} ${r.alarm.alarm}`;
  if ('authenticate' in r) return `authenticate ${r.authenticate}`;
  return `cluster version ${r.clusterVersion}`;
}
