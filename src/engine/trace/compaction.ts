/**
 * What etcd's compaction did: kube-apiserver's compactor (every 5 minutes) removed the history
 * below a revision. Reads and watches at older revisions now get 410 Gone; the panel's
 * revision timeline shows where that line falls.
 */
import type { RecordBase } from './record';

export interface CompactionRecord extends RecordBase {
  readonly type: 'store.compaction';
  /** The revision compacted to: every version older than this one is gone. */
  readonly revision: number;
}
