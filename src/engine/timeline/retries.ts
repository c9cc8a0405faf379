/**
 * Which failures of a causal chain were retried past: a sync that failed (a 409 Conflict, a
 * transient error) followed, in the same chain, by a successful sync of the same controller and
 * key, and the failed requests of that sync. Retrying is how control loops work (optimistic
 * concurrency, requeue with backoff), so the views draw these as "retried", never as errors.
 */
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
  for (const r of chain) if (r.type === 'api.request' && r.code >= 400 && r.cause !== undefined && out.has(r.cause)) out.add(r.id);
  return out;
}
