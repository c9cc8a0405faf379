/**
 * The etcd feed between the panel's host and its webview: each member of the simulated etcd
 * cluster as the engine's EtcdCluster.status() reports it, and the Raft messages of the
 * cluster's message stream (every one sent, then delivered or dropped) as the peer network
 * recorded them. The webview draws these and nothing else: a role, a term, a log entry or a
 * message in flight is always one the engine reported (docs/architecture.md, invariant 2).
 *
 * Views are plain data (structured-clone safe). Fields the engine does not report (a figure
 * it does not compute yet) are absent, and the view says so instead of drawing a number.
 */

import type { MemberStatus } from '../engine/store/etcdserver/member-status';
import type { EtcdMessageRecord } from '../engine/trace/etcd';
import { own } from './own';


/** One log entry of a member's log tail: its index, its term and what it carries. */
export interface EtcdEntryView {
  readonly index: number;
  readonly term: number;
  /** conf-change, empty (a new leader's entry), put, deleteRange, txn, ... */
  readonly kind: string;
}

/**
 * One member, as `EtcdCluster.status()` reports it at `EtcdFrame.time` (the engine's
 * MemberStatus, whose fields say what each figure is): what the panel draws of it. The figures
 * the engine came to report later are optional here, read when present and never invented.
 */
export type EtcdMemberView = Pick<
  MemberStatus,
  'name' | 'id' | 'role' | 'state' | 'partitioned' | 'slowFsyncMs' | 'term' | 'vote' | 'lead' | 'commitIndex' | 'appliedIndex' | 'firstIndex' | 'lastIndex' | 'revision' | 'compactRevision' | 'dbSizeBytes'
> &
  Partial<Pick<MemberStatus, 'dbSizeInUseBytes' | 'quotaBackendBytes' | 'revisionsPerSecond' | 'watchers' | 'commitLatencyMs'>> & {
    readonly alarms?: readonly string[];
    /** The tail of the log, oldest first. */
    readonly log: readonly EtcdEntryView[];
  };

/** One record of the cluster's message stream (the engine's etcd.message record, as it is). */
export type EtcdMessageView = Pick<EtcdMessageRecord, 'id' | 'time' | 'event' | 'cause' | 'msgType' | 'from' | 'to' | 'term' | 'index' | 'logTerm' | 'commit' | 'entries' | 'reject' | 'reason'>;

/**
 * One of kube-apiserver's watch caches (one per stored resource), as its metrics name the
 * figures: apiserver_watch_cache_resource_version, the objects it holds
 * (apiserver_storage_objects), the events in its window and the window's capacity
 * (apiserver_watch_cache_capacity), and the watchers it serves (apiserver_registered_watchers).
 */
export interface WatchCacheResourceView {
  /** "pods", "apps/deployments", "coordination.k8s.io/leases": group/resource, core without a group. */
  readonly resource: string;
  readonly resourceVersion: number;
  readonly objects: number;
  readonly events: number;
  readonly capacity: number;
  readonly watchers: number;
}

/** The API server's watch caches at one instant (the engine's watchCacheStatus()). */
export interface WatchCacheView {
  /** The newest revision any cache has seen (events or progress notifications). */
  readonly resourceVersion: number;
  /** Sums over the caches. */
  readonly objects: number;
  readonly events: number;
  readonly watchers: number;
  /** Per resource, by resource name. */
  readonly resources: readonly WatchCacheResourceView[];
}

/** The latency model in force (ms) and Raft's timing, for the legend. */
export interface EtcdSettingsView {
  readonly apiserverMs: number;
  readonly rttMs: number;
  readonly walFsyncMs: number;
  readonly tickMs: number;
  readonly electionTicks: number;
}

// ---- host -> webview ----------------------------------------------------------------------

/**
 * Starts a (re-)sync of the etcd view: the webview drops what it holds. `cluster` is false when
 * the store is not the simulated cluster (a real etcd holds the data: nothing to draw).
 */
export interface EtcdResetMessage {
  readonly type: 'etcd.reset';
  readonly cluster: boolean;
  /** Frames the webview keeps at most (its charts' and replay's history). */
  readonly capacity: number;
}

/** The members at one virtual instant, and the messages recorded since the previous frame. */
export interface EtcdFrameMessage {
  readonly type: 'etcd';
  /** Virtual ms of the status read. */
  readonly time: number;
  readonly members: readonly EtcdMemberView[];
  readonly messages: readonly EtcdMessageView[];
  /** Messages the host left out of this frame because too many were recorded since the last one. */
  readonly droppedMessages: number;
  readonly settings: EtcdSettingsView;
  /** The API server's watch caches (absent when the host has no API server to read). */
  readonly watchCache?: WatchCacheView;
}

// ---- webview -> host ----------------------------------------------------------------------

/** Faults on a member, then etcd's maintenance: compact the history, defragment the member's bbolt file, disarm every alarm. */
export const ETCD_ACTIONS = ['stop', 'start', 'partition', 'heal', 'slow', 'compact', 'defragment', 'disarm'] as const;
export type EtcdAction = (typeof ETCD_ACTIONS)[number];
/** The maintenance actions, which the view offers apart from the faults. */
export const ETCD_MAINTENANCE: readonly EtcdAction[] = ['compact', 'defragment', 'disarm'];

/** A fault or a maintenance step asked for from the etcd view (the same as the sidebar's actions). */
export interface EtcdActionMessage {
  readonly type: 'etcdAction';
  readonly action: EtcdAction;
  /** A member name (etcd-0 ...): the member acted on, or the endpoint asked (compact, disarm). */
  readonly member: string;
}

/** How an action from the etcd view went: etcdctl's lines, or the error (host -> webview). */
export interface EtcdResultMessage {
  readonly type: 'etcd.result';
  readonly action: EtcdAction;
  readonly member: string;
  readonly ok: boolean;
  readonly lines: readonly string[];
}

/**
 * What a client sees while an alarm is raised, in etcd's words (etcdserver's ErrGRPCNoSpace and
 * ErrGRPCCorrupt): a write refused with NOSPACE's text is the cluster telling why.
 */
export const ALARM_TEXT: Readonly<Record<string, string>> = {
  NOSPACE: 'etcdserver: mvcc: database space exceeded',
  CORRUPT: 'etcdserver: corrupt cluster',
};

/** The alarms raised in a frame's members, each with the members that raised it. */
export function raisedAlarms(members: readonly Pick<EtcdMemberView, 'name' | 'alarms' | 'state'>[]): { alarm: string; text: string; members: string[] }[] {
  const out = new Map<string, string[]>();
  for (const m of members) for (const a of m.alarms ?? []) out.set(a, [...(out.get(a) ?? []), m.name]);
  return [...out].sort(([a], [b]) => (a < b ? -1 : 1)).map(([alarm, names]) => ({ alarm, text: own(ALARM_TEXT, alarm) ?? `alarm ${alarm}`, members: names }));
}

/** Member names as EtcdCluster gives them. */
export const ETCD_MEMBER_NAME = /^etcd-[0-9]{1,2}$/;

/** The faults a member allows in its state (the sidebar's menus follow the same rule). */
export function etcdActionsFor(m: Pick<EtcdMemberView, 'state' | 'partitioned' | 'slowFsyncMs'>): EtcdAction[] {
  const out: EtcdAction[] = [];
  out.push(m.state === 'running' ? 'stop' : 'start');
  if (!m.partitioned) out.push('partition');
  if (m.partitioned || m.slowFsyncMs !== undefined) out.push('heal');
  if (m.slowFsyncMs === undefined) out.push('slow');
  return out;
}
