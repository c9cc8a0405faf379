/**
 * Where the scheduler's records and requests sit in the causal chain (docs/architecture.md, invariant 2): an
 * attempt is caused by the etcd revision of the pod version it scheduled; what the attempt
 * does to the cluster (the binding, the PodScheduled condition, FailedScheduling) is caused by
 * the attempt; the binding record and the Scheduled event by the binding request.
 */
import { revisionCauses, type RevisionCauses } from '../../client/controller/revision-causes';
import type { RecordDetail, SchedulerRecord, SchedulerRecordDraft, SchedulerRecorder } from '../../scheduler/record';
import type { TraceBuffer } from '../../trace/buffer';

export class SchedulerCauses implements SchedulerRecorder {
  private readonly revisions: RevisionCauses;
  /** The latest attempt record per pod uid; dropped once the pod is bound or gone. */
  private readonly attempts = new Map<string, number>();
  /** The binding request per pod uid, between the request and its binding record. */
  private readonly bindings = new Map<string, number>();
  private latest: number | undefined;

  constructor(
    private readonly trace: TraceBuffer,
    private readonly level: RecordDetail,
  ) {
    this.revisions = revisionCauses(trace);
  }

  detail(): RecordDetail {
    return this.level;
  }

  emit(draft: SchedulerRecordDraft): void {
    const uid = draft.pod.uid;
    if (draft.type === 'scheduler.attempt') {
      const rv = Number(draft.pod.resourceVersion ?? '');
      const cause = Number.isInteger(rv) && rv > 0 ? this.revisions.causeOf(rv) : undefined;
      const record = this.trace.emit<SchedulerRecord>({ ...draft, ...(cause !== undefined ? { cause } : {}) });
      this.attempts.set(uid, record.id);
      this.latest = record.id;
      return;
    }
    const cause = this.bindings.get(uid) ?? this.attempts.get(uid);
    this.trace.emit<SchedulerRecord>({ ...draft, ...(cause !== undefined ? { cause } : {}) });
    this.bindings.delete(uid);
    if (draft.outcome === 'bound') this.attempts.delete(uid);
  }

  /** The attempt that decided what the scheduler now does to this pod. */
  attemptOf(uid: string): number | undefined {
    return this.attempts.get(uid);
  }

  /** The most recent attempt of any pod (preemption acts for the pod being scheduled). */
  latestAttempt(): number | undefined {
    return this.latest;
  }

  /** The binding request of this pod, once sent. */
  bindingOf(uid: string): number | undefined {
    return this.bindings.get(uid);
  }

  boundBy(uid: string, request: number): void {
    this.bindings.set(uid, request);
  }

  forget(uid: string): void {
    this.attempts.delete(uid);
    this.bindings.delete(uid);
  }
}
