/**
 * The common shape of every trace record. Records are the only account of what happened in the
 * cluster that the UI shows (docs/architecture.md, invariant 2): each one names the component that acted,
 * the virtual time it acted at, and the record that caused it, so a chain of effects can be
 * followed from an apply down to the objects it produced.
 */
export interface RecordBase {
  /** Unique within a TraceBuffer, increasing in emission order; assigned by the buffer. */
  readonly id: number;
  /** Virtual ms since the Unix epoch (Clock.now()); assigned by the buffer. */
  readonly time: number;
  /** kube-apiserver, kube-scheduler, deployment-controller, kubelet/node-1, etcd, ... */
  readonly component: string;
  /** The id of the record that triggered this one (a request, a revision, a reconcile). */
  readonly cause?: number;
}
