/**
 * What the simulated etcd cluster records. Raft messages (every one sent, delivered or dropped)
 * go to the cluster's own bounded message stream, so that heartbeats never push the control
 * plane's records out of the main trace; what a reader of the timeline wants to know (a
 * member stopped, an election, a new leader, a failed request) goes to the main trace.
 */
import type { MessageType } from '../store/raft/types';
import type { RecordBase } from './record';

export interface EtcdMessageRecord extends RecordBase {
  readonly type: 'etcd.message';
  readonly event: 'sent' | 'delivered' | 'dropped';
  /** For delivered and dropped: the id of the 'sent' record (its cause). */
  readonly msgType: MessageType;
  readonly from: string;
  readonly to: string;
  readonly term: number;
  /** MsgApp: the index before its entries; MsgAppResp: the index acknowledged. */
  readonly index: number;
  readonly logTerm: number;
  readonly commit: number;
  readonly entries: number;
  readonly reject: boolean;
  /** Why a message was dropped: the sender or receiver is stopped, or cut off by a partition. */
  readonly reason?: 'stopped' | 'partitioned';
}

export type EtcdMemberEvent =
  | 'stopped'
  | 'started'
  | 'partitioned'
  | 'healed'
  | 'disk-slow'
  | 'disk-normal'
  | 'pre-vote'
  | 'campaign'
  | 'leader'
  | 'follower'
  | 'leader-lost'
  | 'transfer'
  | 'snapshot-sent'
  | 'snapshot-applied'
  | 'log-compacted'
  | 'alarm-raised'
  | 'alarm-disarmed';

export interface EtcdMemberRecord extends RecordBase {
  readonly type: 'etcd.member';
  readonly member: string;
  readonly event: EtcdMemberEvent;
  readonly term: number;
  /** The leader this member knows of after the event, if any. */
  readonly lead?: string;
  /** One line for people: "etcd-1 became leader at term 3". */
  readonly detail: string;
}

export interface EtcdRequestRecord extends RecordBase {
  readonly type: 'etcd.request';
  /** The member the API server's etcd client sent the request to. */
  readonly member: string;
  readonly op: string;
  readonly key: string;
  /** etcd's error as the client saw it. */
  readonly error: string;
  readonly durationMs: number;
}

/**
 * An operator's maintenance step on the simulated etcd, as etcdctl runs it: `compaction REV`
 * (compact at the current revision), `defrag` of one member (its bbolt file before and after),
 * `alarm disarm`. Written by etcdserver/maintenance.ts, the one home of these steps.
 */
export interface EtcdMaintenanceRecord extends RecordBase {
  readonly type: 'etcd.maintenance';
  readonly action: 'compact' | 'defrag' | 'disarm';
  /** defrag: the member defragmented. */
  readonly member?: string;
  /** compact: the revision compacted to. */
  readonly revision?: number;
  /** defrag: the member's dbSize before and after, and dbSizeInUse after. */
  readonly dbSizeBeforeBytes?: number;
  readonly dbSizeAfterBytes?: number;
  readonly dbSizeInUseBytes?: number;
  /** disarm: the alarms disarmed, as etcdctl prints them ("memberID:... alarm:NOSPACE "). */
  readonly alarms?: readonly string[];
  /** etcd's error, when the step failed. */
  readonly error?: string;
  /** One line for people. */
  readonly detail: string;
}
