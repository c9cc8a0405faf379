/**
 * What etcd recorded: one record per revision, as the API server's watch cache sees it come out
 * of the store, with the request that wrote it as its cause. The panel's revision timeline and
 * time travel start from these.
 */
import type { RecordBase } from './record';

export type RevisionOperation = 'create' | 'update' | 'delete';

export interface RevisionRecord extends RecordBase {
  readonly type: 'store.revision';
  readonly revision: number;
  /** The etcd key: /registry/deployments/default/web. */
  readonly key: string;
  readonly operation: RevisionOperation;
  readonly group: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name: string;
  /** Who wrote it (the request's user), when the write came from a request. */
  readonly actor?: string;
  /** A one-line account of what changed: `spec.replicas: 3 → 5, status.readyReplicas: 2 → 3`. */
  readonly change: string;
  /**
   * The status conditions this write set or changed, type → status (`Ready: "True"`), and the
   * phase when it changed: what a reader of the story needs to say "the pod became Ready" or
   * "the node went NotReady" from the record itself. Absent when the write changed neither.
   */
  readonly conditions?: Readonly<Record<string, string>>;
  readonly phase?: string;
}
