/**
 * ResourceQuota admission: a write is admitted only if what it adds keeps every matching quota
 * within status.hard; the new usage is then written to the quota's status.used (through the
 * loopback client, as kube-apiserver does) before the object itself is stored. Checks run one
 * at a time per namespace so that concurrent writes cannot both spend the last unit.
 *
 * As upstream's quotaAccessor, the quotas come from the informer (here the watch cache), newer
 * copies this plugin wrote itself taking precedence (its updatedQuotas LRU); only when the cache
 * holds none for the namespace is the namespace listed live, and that answer is kept for 30 s
 * (liveTTL). A status update that loses its race (409: the informer's copy was behind) is retried
 * as checkQuotas does: the failed quotas are got again and the request re-checked against them,
 * at most 3 more times; past that the write fails with the update's own error. Upstream's
 * Evaluate waits at most 10 s for its worker: past that the write fails with "Internal error
 * occurred: resource quota evaluation timed out".
 */
import { internalServerError, StatusError } from '../../../api/status';
import { isKubeObject, isObject, type KubeObject } from '../../../api/types';
import { APISERVER_USER } from '../../authn/user';
import { toStatusError } from '../../errors';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { informerFirst } from '../live-lookup';
import { evaluatorFor } from './evaluators';
import { add, exceeded, mask, parseResourceList, prettyPrint, removeZeros, subtractNonNegative, toJson, type ResourceList } from './resources';

const RESOURCE_QUOTAS = { group: '', resource: 'resourcequotas' };

const statusOf = (q: KubeObject) => (isObject(q.status) ? q.status : {});

/** Evaluate's wait for its worker. */
export const QUOTA_EVALUATION_TIMEOUT_MS = 10_000;
/** checkQuotas' retries after a failed status update. */
const NUM_RETRIES = 3;
/** The size of the accessor's LRU of quotas it updated. */
const UPDATED_QUOTAS = 100;

/** quotaAccessor: the informer's quotas (or a live list), each replaced by a newer copy this plugin wrote. */
class QuotaAccessor {
  private readonly lister = informerFirst(RESOURCE_QUOTAS);
  private readonly updated = new Map<string, KubeObject>();

  async getQuotas(namespace: string, ctx: AdmissionContext): Promise<KubeObject[]> {
    const items = await this.lister(namespace, ctx);
    return items.map((q) => {
      const key = `${namespace}/${q.metadata.name ?? ''}`;
      const mine = this.updated.get(key);
      if (!mine) return q;
      this.updated.delete(key);
      this.updated.set(key, mine);
      return Number(mine.metadata.resourceVersion) > Number(q.metadata.resourceVersion) ? mine : q;
    });
  }

  wrote(q: KubeObject): void {
    const key = `${q.metadata.namespace ?? ''}/${q.metadata.name ?? ''}`;
    this.updated.delete(key);
    this.updated.set(key, q);
    if (this.updated.size > UPDATED_QUOTAS) this.updated.delete(this.updated.keys().next().value!);
  }
}

/** checkQuotas: the request against the quotas, their new usage written, failed writes retried against fresh copies. */
async function check(a: AdmissionAttributes, ctx: AdmissionContext, accessor: QuotaAccessor): Promise<void> {
  if (!a.object) return;
  let quotas = await accessor.getQuotas(a.namespace, ctx);
  for (let retries = NUM_RETRIES; quotas.length > 0; retries--) {
    const updated = checkRequest(a, ctx, quotas);
    if (a.dryRun) return;
    const failed = new Set<string>();
    let lastErr: StatusError | undefined;
    for (const q of updated) {
      const res = await ctx.loopback({
        verb: 'update',
        user: APISERVER_USER,
        group: '',
        version: 'v1',
        resource: 'resourcequotas',
        subresource: 'status',
        namespace: a.namespace,
        name: q.metadata.name ?? '',
        body: { object: q },
      });
      if (res.code < 400) {
        if (isKubeObject(res.body)) accessor.wrote(res.body);
        continue;
      }
      failed.add(q.metadata.name ?? '');
      lastErr = updateError(res.code, res.body);
    }
    if (!lastErr) return;
    if (retries <= 0) throw lastErr;
    quotas = (await accessor.getQuotas(a.namespace, ctx)).filter((q) => failed.has(q.metadata.name ?? ''));
  }
}

/** The failed status update's own Status, as the loopback client returns it. */
function updateError(code: number, body: unknown): StatusError {
  if (!isObject(body) || typeof body.message !== 'string') return toStatusError(new Error(`resource quota status update failed with code ${code}`));
  const { kind: _k, apiVersion: _v, metadata: _m, status: _s, ...rest } = body;
  return new StatusError({ ...rest, code });
}

/** checkRequest: the quotas whose usage the request changes, with that usage; throws when one would be exceeded. */
function checkRequest(a: AdmissionAttributes, ctx: AdmissionContext, quotas: readonly KubeObject[]): KubeObject[] {
  const obj = a.object!;
  const evaluator = evaluatorFor(a.group, a.resource);

  const interesting: KubeObject[] = [];
  for (const q of quotas) {
    const hard = parseResourceList(statusOf(q).hard);
    const restricted = [...hard.keys()].filter((n) => evaluator.matchesResource(n)).sort();
    // Matches: the quota limits something the evaluator counts, and its scopes select the object.
    if (restricted.length === 0 || !evaluator.matchesScopes(q, obj)) continue;
    const constraint = evaluator.constraints(restricted, obj);
    if (constraint) throw admissionForbidden(a, `failed quota: ${q.metadata.name ?? ''}: ${constraint}`);
    const used = parseResourceList(statusOf(q).used);
    if (restricted.some((n) => !used.has(n))) {
      throw admissionForbidden(a, `status unknown for quota: ${q.metadata.name ?? ''}, resources: ${restricted.join(',')}`);
    }
    interesting.push(q);
  }
  if (interesting.length === 0) return [];

  const now = ctx.clock.now();
  const usage = evaluator.usage(obj, now);
  // An update is charged the difference to the old object for the quotas that counted it; an
  // update without an old resourceVersion (a create through update) is charged in full.
  const counted = a.operation === 'UPDATE' && a.oldObject?.metadata.resourceVersion ? a.oldObject : undefined;
  const difference = counted ? subtractNonNegative(usage, evaluator.usage(counted, now)) : usage;

  const updated: KubeObject[] = [];
  for (const q of interesting) {
    const delta = removeZeros(counted && evaluator.matchesScopes(q, counted) ? difference : usage);
    const hard = parseResourceList(statusOf(q).hard);
    const used = parseResourceList(statusOf(q).used);
    const requested = mask(delta, hard.keys());
    if (requested.size === 0) continue;
    const next = add(used, requested);
    // A status write is recorded, never refused.
    const over = a.subresource === 'status' ? [] : exceeded(mask(next, requested.keys()), hard);
    if (over.length > 0) {
      throw admissionForbidden(
        a,
        `exceeded quota: ${q.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, over))}, used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`,
      );
    }
    updated.push(withUsed(q, next));
  }
  return updated;
}

function withUsed(q: KubeObject, used: ResourceList): KubeObject {
  const copy = structuredClone(q) as KubeObject;
  copy.status = { ...statusOf(copy), used: toJson(used) };
  return copy;
}

/** `work`, or the InternalError Evaluate answers once it waited QUOTA_EVALUATION_TIMEOUT_MS. */
function withEvaluationTimeout(work: Promise<void>, ctx: AdmissionContext): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let done = false;
    const timer = ctx.clock.setTimer(
      QUOTA_EVALUATION_TIMEOUT_MS,
      () => {
        if (done) return;
        done = true;
        reject(internalServerError('resource quota evaluation timed out'));
      },
      { label: 'ResourceQuota admission: evaluation timeout' },
    );
    work.then(
      () => {
        if (done) return;
        done = true;
        ctx.clock.clearTimer(timer);
        resolve();
      },
      (err: unknown) => {
        if (done) return;
        done = true;
        ctx.clock.clearTimer(timer);
        reject(err);
      },
    );
  });
}

export function resourceQuota(): AdmissionPlugin {
  const queues = new Map<string, Promise<void>>();
  const accessor = new QuotaAccessor();
  return {
    name: 'ResourceQuota',
    handles: (a) =>
      a.namespace !== '' && !(a.group === '' && a.resource === 'resourcequotas') && evaluatorFor(a.group, a.resource).handles(a.operation, a.subresource),
    validate(a, ctx) {
      const prev = queues.get(a.namespace) ?? Promise.resolve();
      const run = prev.then(() => check(a, ctx, accessor));
      const tail = run.catch(() => undefined);
      queues.set(a.namespace, tail);
      void tail.then(() => {
        if (queues.get(a.namespace) === tail) queues.delete(a.namespace);
      });
      return withEvaluationTimeout(run, ctx);
    },
  };
}

/**
 * A quota's status as the quota controller computes it from what exists: hard from spec.hard,
 * used summed over the namespace's objects at `nowMs`. Hosts without a quota controller (the validate
 * command) use it to bring a new quota into force.
 */
export function computeQuotaStatus(
  quota: KubeObject,
  objects: ReadonlyMap<string, readonly KubeObject[]>,
  nowMs: number,
): { hard: Record<string, string>; used: Record<string, string> } {
  const spec = isObject(quota.spec) ? quota.spec : {};
  const hard = parseResourceList(spec.hard);
  let used: ResourceList = new Map([...hard.keys()].map((k) => [k, parseResourceList({ [k]: '0' }).get(k)!]));
  for (const [groupResource, list] of objects) {
    const [group, resource] = groupResource.split('/') as [string, string];
    const evaluator = evaluatorFor(group, resource);
    for (const obj of list) {
      if (!evaluator.matchesScopes(quota, obj)) continue;
      used = add(used, mask(evaluator.usage(obj, nowMs), hard.keys()));
    }
  }
  return { hard: toJson(hard), used: toJson(used) };
}
