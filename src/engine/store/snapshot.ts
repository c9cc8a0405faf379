/**
 * The Store's snapshot format: what a backend that can restart from its own state (the memory
 * backend's members) writes and reads back. The interface's vocabulary, so types.ts needs no
 * backend; memory/snapshot.ts takes and restores it.
 */

export const STORE_SNAPSHOT_FORMAT = 'kubesim/store-snapshot@1';

/** A record as [key, value, createRevision, modRevision, version, lease]: compact in JSON. */
export type RecordTuple = [string, string, number, number, number, number];

export interface StoreSnapshot {
  format: typeof STORE_SNAPSHOT_FORMAT;
  revision: number;
  /** -1 when the store was never compacted. */
  compactRevision: number;
  /** Records the key index holds from before the revision log begins (a compaction kept them). */
  base: RecordTuple[];
  /** The revision of log[0]. */
  logStart: number;
  /** The changes of each revision from logStart to revision, in the order they were applied. */
  log: RecordTuple[][];
  nextLeaseId: number;
  leases: Array<{ id: number; ttl: number; remainingMs: number }>;
}
