/**
 * WATCH, served by the resource's watch cache: from a resourceVersion still in its window, or
 * with the current state first (resourceVersion unset or "0"), through the request's selectors,
 * with bookmarks when asked for. A start below the window is kube-apiserver's ERROR event with
 * 410 Expired "too old resource version: X (Y)".
 */
import { Path, forbidden, notSupported, type ErrorList } from '../../api/field';
import { invalidError, StatusError } from '../../api/status';
import type { JsonObject } from '../../api/types';
import type { RequestContext, Target } from '../context';
import type { WatchListener } from '../request';
import { apiVersionOf } from '../resources';
import type { CacheWatcher } from '../storage/watch-cache';
import { predicate } from './read';

function validateWatchOptions(ctx: RequestContext): ErrorList {
  const o = ctx.options;
  const errs: ErrorList = [];
  const path = Path.root('resourceVersionMatch');
  if (o.sendInitialEvents !== undefined && o.resourceVersionMatch !== 'NotOlderThan') {
    errs.push(forbidden(path, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (o.resourceVersionMatch) {
    if (o.sendInitialEvents === undefined) errs.push(forbidden(path, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (o.resourceVersionMatch !== 'NotOlderThan') errs.push(notSupported(path, o.resourceVersionMatch, ['NotOlderThan']));
    if (o.continue) errs.push(forbidden(path, 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

/** Starts the watch; an error before the first event (bad options, a compacted start) is thrown or sent as ERROR. */
export function startWatch(ctx: RequestContext, t: Target, listener: WatchListener): CacheWatcher {
  const errs = validateWatchOptions(ctx);
  if (errs.length > 0) throw invalidError({ group: 'meta.k8s.io', name: 'ListOptions' }, '', errs);
  const o = ctx.options;
  const pred = predicate(ctx, t);
  const rv = o.resourceVersion ?? '';
  if (rv !== '' && rv !== '0' && !/^\d+$/.test(rv)) {
    throw new StatusError({ code: 400, reason: 'BadRequest', message: `invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax` });
  }
  const initialState = o.sendInitialEvents === true || (o.sendInitialEvents === undefined && (rv === '' || rv === '0'));
  const w = t.storage.cache.watch({
    keyPrefix: t.storage.prefix(t.namespace),
    fromRevision: rv === '' || rv === '0' ? t.storage.cache.resourceVersion : Number(rv),
    initialState,
    matches: pred.matches,
    listener: (e) => listener({ type: e.type, object: e.object as JsonObject }),
    bookmarks: o.allowWatchBookmarks === true,
    initialEventsEnd: o.sendInitialEvents === true && o.allowWatchBookmarks === true,
    bookmarkType: { kind: t.info.kind, apiVersion: apiVersionOf(t.info) },
    trigger: t.storage.triggerField !== undefined ? pred.fields.requiresExactMatch(t.storage.triggerField) : undefined,
  });
  if (w instanceof StatusError) {
    ctx.stage({ stage: 'storage', verdict: 'rejected', rule: t.storage.keyPrefix, detail: w.message });
    listener({ type: 'ERROR', object: w.status as JsonObject });
    return { stop: () => undefined };
  }
  ctx.stage({ stage: 'storage', verdict: 'passed', rule: t.storage.keyPrefix, detail: `watching from revision ${rv || 'now'}` });
  return w;
}
