/**
 * Which failures of a causal chain were retried past:
 * - a sync that failed (a 409 Conflict, a transient error) followed, in the same chain, by a
 *   successful sync of the same controller and key, and the failed requests of that sync;
 * - a request a sync retried itself (the ReplicaSet controller's updateReplicaSetStatus re-reads
 *   the object and writes its status again after a conflict): a failed request followed, in the
 *   same sync (the same cause), by the same request (verb, resource, subresource, object) that
 *   succeeded.
 * Retrying is how control loops work (optimistic concurrency, requeue with backoff), so the
 * views draw these as "retried", never as errors.
 */
import type { ApiRequestRecord } from '../trace/apiserver';
import type { ReconcileRecord } from '../trace/reconcile';
import type { TraceRecord } from '../trace/types';

export function retriedRecords(chain: readonly TraceRecord[]): Set<number> {
  const syncs = new Map<string, ReconcileRecord[]>();
  for (const r of chain) {
    if (r.type !== 'controller.reconcile') continue;
    const k = `${r.controller}/${r.key}`;
    const list = syncs.get(k);
    if (list) list.push(r);
    else syncs.set(k, [r]);
  }
  const out = new Set<number>();
  for (const list of syncs.values()) {
    list.sort((a, b) => a.id - b.id);
    list.forEach((r, i) => {
      if (r.outcome !== 'error') return;
      if (list.slice(i + 1).some((s) => s.outcome !== 'error' || s.retryOf === r.id)) out.add(r.id);
    });
  }
  // A sync's own retries: the successful requests of each sync, by what they asked for.
  const succeeded = new Map<string, number[]>();
  for (const r of chain) {
    if (r.type !== 'api.request' || r.cause === undefined || r.code >= 400) continue;
    const k = sameRequest(r);
    const ids = succeeded.get(k);
    if (ids) ids.push(r.id);
    else succeeded.set(k, [r.id]);
  }
  for (const r of chain) {
    if (r.type !== 'api.request' || r.code < 400 || r.cause === undefined) continue;
    if (out.has(r.cause) || (succeeded.get(sameRequest(r)) ?? []).some((id) => id > r.id)) out.add(r.id);
  }
  return out;
}

function sameRequest(r: ApiRequestRecord): string {
  return JSON.stringify([r.cause, r.verb, r.group, r.resource, r.subresource ?? '', r.namespace ?? '', r.name ?? '']);
}
