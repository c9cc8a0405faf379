/**
 * The informer-first reads of LimitRanger and ResourceQuota admission: a namespace's objects come
 * from the informer (here the watch cache); only when it holds none is the namespace listed live,
 * and that answer is used for liveTTL (30 s) by later requests (upstream's liveLookupCache), so
 * a namespace without any costs one live list per 30 s instead of one per request.
 */
import type { KubeObject } from '../../api/types';
import type { GroupResource } from '../storage/reader';
import type { AdmissionContext } from './types';

/** liveTTL of LimitRanger and the quota accessor. */
export const LIVE_LOOKUP_TTL_MS = 30_000;

export type NamespaceLister = (namespace: string, ctx: AdmissionContext) => Promise<readonly KubeObject[]>;

/** A lister of `resource` per namespace with its own live-lookup cache (one per plugin instance). */
export function informerFirst(resource: GroupResource): NamespaceLister {
  const live = new Map<string, { expiry: number; items: readonly KubeObject[] }>();
  return async (namespace, ctx) => {
    const cached = ctx.reader.cached(resource, namespace);
    if (cached.length > 0) return cached;
    const now = ctx.clock.now();
    const entry = live.get(namespace);
    if (entry && entry.expiry >= now) return entry.items;
    const items = await ctx.reader.list(resource, namespace);
    for (const [ns, e] of live) if (e.expiry < now) live.delete(ns);
    live.set(namespace, { expiry: now + LIVE_LOOKUP_TTL_MS, items });
    return items;
  };
}
