/**
 * From an object's resourceVersion to the trace record of the etcd revision it was written at
 * (whose cause is the request that wrote it), so that a reconcile queued by an informer event
 * names its cause. One index per trace buffer follows the API server's revision records.
 */
import type { TraceBuffer } from '../../trace/buffer';

export class RevisionCauses {
  private readonly byRevision = new Map<number, number>();

  constructor(trace: TraceBuffer) {
    trace.subscribe((record) => {
      if (record.type !== 'store.revision') return;
      this.byRevision.set(record.revision, record.id);
      // Keep as many as the buffer holds records: older causes are gone from the trace anyway.
      if (this.byRevision.size > trace.capacity) this.byRevision.delete(this.byRevision.keys().next().value!);
    });
  }

  /** The id of the revision record of this revision, if the trace still knows it. */
  causeOf(revision: number): number | undefined {
    return this.byRevision.get(revision);
  }
}

const shared = new WeakMap<TraceBuffer, RevisionCauses>();

/** The index of a trace buffer, shared by every control loop recording into it. */
export function revisionCauses(trace: TraceBuffer): RevisionCauses {
  let causes = shared.get(trace);
  if (!causes) shared.set(trace, (causes = new RevisionCauses(trace)));
  return causes;
}
