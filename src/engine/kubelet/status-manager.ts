/**
 * The kubelet's status manager: the latest status the pod workers generated, written to
 * pods/status as a strategic merge patch against the pod as the API server has it (with the
 * pod's UID as a precondition in the patch), one write at a time per pod, skipped when nothing
 * changed. Once a pod that is being deleted has its terminal status written, the status manager
 * deletes it with grace period 0, which is what finally removes it from the API.
 */
import type { JsonObject } from '../api/types';
import type { Client } from '../client/client';
import { isNotFound } from '../client/errors';
import { PODS } from '../client/resources';
import type { Pod, PodStatus } from './api';
import { mergePodStatus } from './pod-status';
import { POD_STATUS_MERGE_KEYS, twoWayPatch } from './status-patch';

/** After a failed write, the status manager's next syncBatch comes this much later. */
const RETRY_MS = 10_000;

export interface StatusManagerHost {
  /** The kubelet's client, its requests attributed to the pod's latest step. */
  client(pod: Pod): Client;
  rfc3339(): string;
  /** Runs `fn` later on the kubelet's timers. */
  later(delayMs: number, fn: () => void | Promise<void>, label: string): void;
}

interface Entry {
  latest: Pod;
  desired?: PodStatus;
  dirty: boolean;
  writing: boolean;
  /** Delete the pod once the desired (terminal) status is written. */
  deleteAfterWrite: boolean;
  gone: boolean;
}

export class StatusManager {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly host: StatusManagerHost) {}

  /** The API server's view of a pod, from the informer; a newer resourceVersion wins. */
  observe(pod: Pod): void {
    const e = this.entries.get(pod.metadata.uid ?? '');
    if (e && newer(pod, e.latest)) e.latest = pod;
  }

  /** The status the API server holds for a pod, as far as the kubelet knows. */
  apiStatus(uid: string): PodStatus | undefined {
    return this.entries.get(uid)?.latest.status;
  }

  setStatus(pod: Pod, status: PodStatus): void {
    const e = this.entry(pod);
    e.desired = status;
    e.dirty = true;
    this.kick(e);
  }

  /** Deletes the pod (grace period 0) once its current desired status is written. */
  deleteWhenWritten(pod: Pod): void {
    const e = this.entry(pod);
    e.deleteAfterWrite = true;
    this.kick(e);
  }

  forget(uid: string): void {
    const e = this.entries.get(uid);
    if (e) e.gone = true;
    this.entries.delete(uid);
  }

  private entry(pod: Pod): Entry {
    const uid = pod.metadata.uid ?? '';
    let e = this.entries.get(uid);
    if (!e) {
      e = { latest: pod, dirty: false, writing: false, deleteAfterWrite: false, gone: false };
      this.entries.set(uid, e);
    } else if (newer(pod, e.latest)) e.latest = pod;
    return e;
  }

  private kick(e: Entry): void {
    if (e.writing || e.gone) return;
    e.writing = true;
    this.host.later(0, () => this.flush(e), `status ${e.latest.metadata.namespace}/${e.latest.metadata.name}`);
  }

  private async flush(e: Entry): Promise<void> {
    let retry = false;
    try {
      while (e.dirty && !e.gone && e.desired) {
        e.dirty = false;
        const merged = mergePodStatus(e.latest, e.desired, this.host.rfc3339());
        const patch = twoWayPatch((e.latest.status ?? {}) as JsonObject, merged, POD_STATUS_MERGE_KEYS);
        if (!patch) continue;
        const body = { metadata: { uid: e.latest.metadata.uid ?? '' }, status: patch };
        try {
          const updated = await this.pods(e).patch(e.latest.metadata.name ?? '', 'strategic', body, { subresource: 'status' });
          if (newer(updated, e.latest)) e.latest = updated;
        } catch (err) {
          if (isNotFound(err)) return this.drop(e);
          e.dirty = true;
          retry = true;
          break;
        }
      }
      if (!retry && !e.dirty && e.deleteAfterWrite && !e.gone) retry = !(await this.deletePod(e));
    } finally {
      e.writing = false;
    }
    if (e.gone) return;
    if (retry) this.host.later(RETRY_MS, () => this.kick(e), `status retry ${e.latest.metadata.namespace}/${e.latest.metadata.name}`);
    else if (e.dirty) this.kick(e);
  }

  /** Whether the pod is gone now. */
  private async deletePod(e: Entry): Promise<boolean> {
    try {
      await this.pods(e).delete(e.latest.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: e.latest.metadata.uid ?? '' } });
    } catch (err) {
      if (!isNotFound(err)) return false;
    }
    this.drop(e);
    return true;
  }

  private pods(e: Entry) {
    return this.host.client(e.latest).resource<Pod>(PODS, e.latest.metadata.namespace);
  }

  private drop(e: Entry): void {
    e.gone = true;
    this.entries.delete(e.latest.metadata.uid ?? '');
  }
}

function newer(a: Pod, b: Pod): boolean {
  return Number(a.metadata.resourceVersion ?? 0) >= Number(b.metadata.resourceVersion ?? 0);
}
