/**
 * Finds a pod's scheduling attempt record as of a revision: the scheduler's newest attempt for
 * the pod's uid among the trace records written before the store's next revision. The trace's
 * own order (record ids) places an attempt against the revisions around it.
 */
import type { PanelRecord } from '../../src/protocol/panel';
import type { SchedulingAttemptRecord } from '../../src/protocol/trace-records';

export class AttemptIndex {
  private readonly byPod = new Map<string, SchedulingAttemptRecord[]>();
  /** store.revision records' [revision, id] pairs, in order. */
  private revisions: number[] = [];
  private revisionIds: number[] = [];

  clear(): void {
    this.byPod.clear();
    this.revisions = [];
    this.revisionIds = [];
  }

  add(records: readonly PanelRecord[]): void {
    for (const r of records) {
      if (r.type === 'scheduler.attempt') {
        let list = this.byPod.get(r.pod.uid);
        if (!list) this.byPod.set(r.pod.uid, (list = []));
        list.push(r);
      } else if (r.type === 'store.revision' && (this.revisions.length === 0 || r.revision > this.revisions[this.revisions.length - 1]!)) {
        this.revisions.push(r.revision);
        this.revisionIds.push(r.id);
      }
    }
  }

  /** Forgets records that fell off the trace buffer. */
  dropBelow(firstId: number): void {
    for (const [uid, list] of this.byPod) {
      const kept = list.filter((r) => r.id >= firstId);
      if (kept.length === 0) this.byPod.delete(uid);
      else if (kept.length !== list.length) this.byPod.set(uid, kept);
    }
    let i = 0;
    while (i < this.revisionIds.length && this.revisionIds[i]! < firstId) i++;
    if (i > 0) {
      this.revisions = this.revisions.slice(i);
      this.revisionIds = this.revisionIds.slice(i);
    }
  }

  /** The newest attempt for the pod as of `revision` (undefined: live, every attempt counts). */
  latest(uid: string, revision: number | undefined): SchedulingAttemptRecord | undefined {
    const list = this.byPod.get(uid);
    if (!list || list.length === 0) return undefined;
    if (revision === undefined) return list[list.length - 1];
    // Revision records before it fell off the buffer: where its attempts stood is not known.
    if (this.revisions.length === 0 || revision < this.revisions[0]! - 1) return undefined;
    // The first revision written after `revision`: records from it on happened later.
    let lo = 0;
    let hi = this.revisions.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.revisions[mid]! <= revision) lo = mid + 1;
      else hi = mid;
    }
    const limit = lo < this.revisionIds.length ? this.revisionIds[lo]! : Infinity;
    let found: SchedulingAttemptRecord | undefined;
    for (const a of list) if (a.id < limit) found = a;
    return found;
  }
}
