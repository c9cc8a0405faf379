/**
 * What one etcd member reports of itself (EtcdCluster.status()): the engine's own figures, which
 * the panel's etcd view (src/protocol/etcd.ts picks from them), the sidebar and
 * `kubesim apply --output json` show. Types only, so the webview can name them.
 */

/** etcd's AlarmType (etcdserverpb): NOSPACE from the backend quota, CORRUPT from the corruption check. */
export type EtcdAlarmType = 'NOSPACE' | 'CORRUPT';

export type MemberRole = 'leader' | 'follower' | 'candidate' | 'pre-candidate';

/** One member as the panel, the sidebar and `kubesim apply --output json` show it. */
export interface MemberStatus {
  readonly name: string;
  /** etcd's member ID, 16 hex digits. */
  readonly id: string;
  readonly role: MemberRole;
  readonly state: 'running' | 'stopped';
  readonly partitioned: boolean;
  /** The WAL fsync of a slow disk, if this member's disk was made slow. */
  readonly slowFsyncMs?: number;
  readonly term: number;
  /** Who this member voted for in its term. */
  readonly vote?: string;
  /** The leader this member knows of. */
  readonly lead?: string;
  readonly commitIndex: number;
  readonly appliedIndex: number;
  readonly firstIndex: number;
  readonly lastIndex: number;
  readonly revision: number;
  readonly compactRevision: number;
  /**
   * etcd's dbSize (`etcdctl endpoint status -w json`): the bbolt file's allocated pages in bytes.
   * It grows with revisions and never shrinks but by a defragmentation.
   */
  readonly dbSizeBytes: number;
  /** etcd's dbSizeInUse: dbSize less the free pages a compaction left inside the file. */
  readonly dbSizeInUseBytes: number;
  /** --quota-backend-bytes in force (2 GiB by default; negative: no quota). */
  readonly quotaBackendBytes: number;
  /** Alarms raised by this member and active in the cluster (`etcdctl alarm list`): NOSPACE, CORRUPT. */
  readonly alarms: readonly EtcdAlarmType[];
  /** Watchers on this member's MVCC store (etcd_debugging_mvcc_watcher_total). */
  readonly watchers: number;
  /** Revisions this member applied over the last second of virtual time. */
  readonly revisionsPerSecond: number;
  /** Mean time from proposal to apply of this member's proposals over the last second (ms), null if none. */
  readonly commitLatencyMs: number | null;
  /** The server version (`etcdctl endpoint status`'s VERSION). */
  readonly version: string;
  /**
   * `etcdctl endpoint status`'s ERRORS, as etcd's Maintenance.Status fills them: "etcdserver: no
   * leader" while the member knows no leader, then each alarm of the cluster in protobuf's compact
   * text form, as `etcdctl alarm list` prints them too ("memberID:<decimal ID> alarm:NOSPACE ").
   */
  readonly errors: readonly string[];
  /** The tail of the log, oldest first: each entry's index and term (and what it carries). */
  readonly log: readonly { readonly index: number; readonly term: number; readonly kind: string }[];
}
