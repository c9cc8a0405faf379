import { compareBytes, normalizeRangeEnd } from '../keys';
import type { KeyValue, RangeRequest, RangeResponse, SortOrder, SortTarget } from '../types';
import type { ReadView } from './kv-store';

/**
 * etcd's Range on a read view (applierV3backend.Range): fetch, sort, truncate to the limit.
 * A sort or limit applies to every match, so sorted reads fetch everything first; `count` is
 * always the number of matches.
 */
export function applyRange(view: ReadView, r: RangeRequest): RangeResponse {
  const limit = r.limit ?? 0;
  const requestedOrder = knownOrder(r.sortOrder);
  const target = knownTarget(r.sortTarget);
  // One extra key tells whether there are more; a sort needs all of them.
  const fetch = requestedOrder !== 'none' ? 0 : limit > 0 ? limit + 1 : 0;
  const result = view.range(r.key, normalizeRangeEnd(r.rangeEnd), { limit: fetch, rev: r.revision ?? 0, count: r.countOnly === true });
  let kvs = result.kvs;
  const order = target !== 'key' && requestedOrder === 'none' ? 'ascend' : requestedOrder;
  if (order !== 'none') kvs = sortKvs(kvs, target, order);
  let more = false;
  if (limit > 0 && kvs.length > limit) {
    kvs = kvs.slice(0, limit);
    more = true;
  }
  if (r.keysOnly) kvs = kvs.map((kv) => ({ ...kv, value: '' }));
  return { header: { revision: result.rev }, kvs, more, count: result.count };
}

function knownOrder(order: SortOrder | undefined): SortOrder {
  return order === 'ascend' || order === 'descend' ? order : 'none';
}

function knownTarget(target: SortTarget | undefined): SortTarget {
  return target === 'version' || target === 'create' || target === 'mod' || target === 'value' ? target : 'key';
}

const BY: Record<SortTarget, (a: KeyValue, b: KeyValue) => number> = {
  key: (a, b) => compareBytes(a.key, b.key),
  version: (a, b) => a.version - b.version,
  create: (a, b) => a.createRevision - b.createRevision,
  mod: (a, b) => a.modRevision - b.modRevision,
  value: (a, b) => compareBytes(a.value, b.value),
};

/**
 * Stable, like the insertion sort Go's sort.Sort uses for up to 12 items: ties keep key order
 * in both directions. For more items Go (pdqsort) may order ties differently.
 */
function sortKvs(kvs: KeyValue[], target: SortTarget, order: 'ascend' | 'descend'): KeyValue[] {
  const by = BY[target];
  return [...kvs].sort(order === 'ascend' ? by : (a, b) => by(b, a));
}
