/**
 * Every kind of trace record. Each engine part defines its records in a file of this folder
 * and adds them to the union here, so a subscriber can switch on `type` exhaustively.
 */
import type { SchedulerRecord } from '../scheduler/record';
import type { ApiRequestRecord } from './apiserver';
import type { CompactionRecord } from './compaction';
import type { EtcdMaintenanceRecord, EtcdMemberRecord, EtcdMessageRecord, EtcdRequestRecord } from './etcd';
import type { KubeEventRecord } from './event';
import type { KubeletRecord } from './kubelet';
import type { ReconcileRecord } from './reconcile';
import type { RevisionRecord } from './revision';

export type TraceRecord =
  | ApiRequestRecord
  | ReconcileRecord
  | KubeletRecord
  | RevisionRecord
  | CompactionRecord
  | SchedulerRecord
  | KubeEventRecord
  | EtcdMemberRecord
  | EtcdMessageRecord
  | EtcdRequestRecord
  | EtcdMaintenanceRecord;

export type TraceRecordType = TraceRecord['type'];

/** A record as its producer writes it: the buffer assigns `id` and `time`. */
export type TraceDraft<R extends TraceRecord = TraceRecord> = R extends unknown ? Omit<R, 'id' | 'time'> : never;
