/**
 * GET and LIST (the registry's Get and GetList, served by etcd or the watch cache as
 * kube-apiserver chooses): resourceVersion semantics (unset: consistent; "0": any, from the
 * cache; N: not older than N, or exactly N), label and field selectors, limit/continue paging
 * with kube-apiserver's continue tokens, and its 410 texts once history is compacted.
 */
import { Path, forbidden, notSupported, type ErrorList } from '../../api/field';
import { fieldsForKind, type FieldSelector } from '../../api/fieldselector';
import type { Selector } from '../../api/labels';
import { listSelectors } from '../../api/list-selectors';
import { badRequestError, invalidError, notFoundError, resourceExpiredError, StatusError } from '../../api/status';
import type { JsonObject, KubeObject } from '../../api/types';
import { StoreError } from '../../store/types';
import type { RequestContext, Target } from '../context';
import { apiVersionOf, groupResource } from '../resources';
import { decodeContinue, encodeContinue } from '../storage/continue';

export interface Predicate {
  labels: Selector;
  fields: FieldSelector;
  matches(obj: KubeObject): boolean;
  empty: boolean;
}

/** The request's selectors, parsed as the query-parameter decoder and field label conversion do. */
export function predicate(ctx: RequestContext, t: Target): Predicate {
  const o = ctx.options;
  const { labels, fields: f } = listSelectors(o.labelSelector, o.fieldSelector, t.info.group, t.info.kind);
  const empty = labels.empty() && f.empty();
  return {
    labels,
    fields: f,
    empty,
    matches: (obj) =>
      (empty || (labels.matches(obj.metadata.labels ?? {}) && f.matches(fieldsForKind(t.info.group, t.info.kind, obj)))) &&
      (!t.name || obj.metadata.name === t.name),
  };
}

function parseRevision(rv: string): number {
  if (!/^\d+$/.test(rv)) throw badRequestError(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  return Number(rv);
}

export async function getObject(ctx: RequestContext, t: Target): Promise<KubeObject> {
  const key = t.storage.key(t.namespace, t.name);
  const fromCache = ctx.options.resourceVersion === '0';
  const obj = fromCache ? t.storage.cache.get(key) : (await t.storage.get(key))?.object;
  if (!obj) throw notFoundError(groupResource(t.info), t.name);
  return obj;
}

function validateListOptions(ctx: RequestContext): ErrorList {
  const o = ctx.options;
  const errs: ErrorList = [];
  const match = o.resourceVersionMatch;
  if (match) {
    const path = Path.root('resourceVersionMatch');
    if (!o.resourceVersion) errs.push(forbidden(path, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (o.continue) errs.push(forbidden(path, 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported(path, match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && o.resourceVersion === '0') errs.push(forbidden(path, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (o.sendInitialEvents !== undefined) errs.push(forbidden(Path.root('sendInitialEvents'), 'sendInitialEvents is forbidden for list'));
  return errs;
}

function listObject(t: Target, items: readonly KubeObject[], revision: number, more?: { continue: string; remaining?: number }): JsonObject {
  const metadata: JsonObject = { resourceVersion: String(revision) };
  if (more) {
    metadata.continue = more.continue;
    if (more.remaining !== undefined) metadata.remainingItemCount = more.remaining;
  }
  return { kind: t.info.listKind ?? `${t.info.kind}List`, apiVersion: apiVersionOf(t.info), metadata, items: items as unknown as JsonObject[] };
}

export async function listObjects(ctx: RequestContext, t: Target): Promise<JsonObject> {
  const errs = validateListOptions(ctx);
  if (errs.length > 0) throw invalidError({ group: 'meta.k8s.io', name: 'ListOptions' }, '', errs);
  const o = ctx.options;
  const pred = predicate(ctx, t);
  const prefix = t.storage.prefix(t.namespace);
  const limit = o.limit && o.limit > 0 ? o.limit : 0;

  if (o.resourceVersion === '0' && !o.continue) {
    const items = t.storage.cache.list(prefix).filter(pred.matches);
    return listObject(t, items, t.storage.cache.resourceVersion);
  }

  let fromKey = prefix;
  let revision = 0;
  let paging = false;
  if (o.continue) {
    const decoded = decodeContinue(o.continue, t.storage.keyPrefix);
    if (decoded instanceof StatusError) throw decoded;
    if (o.resourceVersion && o.resourceVersion !== '0') throw badRequestError('specifying resource version is not allowed when using continue');
    fromKey = decoded.fromKey;
    revision = decoded.revision > 0 ? decoded.revision : 0;
    paging = true;
  } else if (o.resourceVersion) {
    const rv = parseRevision(o.resourceVersion);
    if (o.resourceVersionMatch === 'Exact' || (o.resourceVersionMatch === undefined && limit > 0 && rv > 0)) revision = rv;
    else await ensureNotOlderThan(t, rv);
  }
  return rangeList(ctx, t, pred, { prefix, fromKey, revision, limit, paging });
}

/** storage.NewTooLargeResourceVersionError: a 504 the client retries after a second. */
function tooLargeResourceVersion(rv: number, current: number): StatusError {
  return new StatusError({
    code: 504,
    reason: 'Timeout',
    message: `Too large resource version: ${rv}, current: ${current}`,
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
  });
}

async function ensureNotOlderThan(t: Target, rv: number): Promise<void> {
  const status = await t.storage.store.status();
  if (rv > status.revision) {
    throw tooLargeResourceVersion(rv, status.revision);
  }
}

interface RangeSpec {
  prefix: string;
  fromKey: string;
  revision: number;
  limit: number;
  paging: boolean;
}

async function rangeList(ctx: RequestContext, t: Target, pred: Predicate, r: RangeSpec): Promise<JsonObject> {
  const end = t.storage.rangeEndOf(r.prefix);
  const items: KubeObject[] = [];
  let from = r.fromKey;
  let revision = r.revision;
  let lastKey = '';
  let more = false;
  let firstCount = -1;
  try {
    for (;;) {
      const res = await t.storage.range(from, end, revision, r.limit > 0 ? r.limit : 0);
      if (revision === 0) revision = res.header.revision;
      if (firstCount < 0) firstCount = res.count;
      for (const kv of res.kvs) {
        lastKey = kv.key;
        const obj = t.storage.decode(kv);
        if (pred.matches(obj)) items.push(obj);
        if (r.limit > 0 && items.length === r.limit) break;
      }
      const consumedAll = res.kvs.length === 0 || lastKey === res.kvs[res.kvs.length - 1]!.key;
      more = res.more || !consumedAll;
      if (r.limit === 0 || items.length >= r.limit || !more) break;
      from = lastKey + '\0';
    }
  } catch (err) {
    if (err instanceof StoreError && err.code === 'compacted') {
      throw resourceExpiredError(
        r.paging
          ? 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.'
          : 'The resourceVersion for the provided list is too old.',
      );
    }
    if (err instanceof StoreError && err.code === 'futureRevision') {
      const current = (await t.storage.store.status()).revision;
      throw tooLargeResourceVersion(revision, current);
    }
    throw err;
  }
  ctx.stage({ stage: 'storage', verdict: 'passed', rule: r.prefix, detail: `${items.length} items at revision ${revision}` });
  if (!more || r.limit === 0) return listObject(t, items, revision);
  const token = encodeContinue(lastKey + '\0', t.storage.keyPrefix, revision);
  const remaining = pred.empty ? Math.max(0, firstCount - r.limit) : undefined;
  return listObject(t, items, revision, { continue: token, remaining });
}
