/**
 * ResourceQuota admission: a write is admitted only if what it adds keeps every matching quota
 * within status.hard; the new usage is then written to the quota's status.used (through the
 * loopback client, as kube-apiserver does) before the object itself is stored. Checks run one
 * at a time per namespace so that concurrent writes cannot both spend the last unit.
 */
import { isObject, type KubeObject } from '../../../api/types';
import { APISERVER_USER } from '../../authn/user';
import { toStatusError } from '../../errors';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { evaluatorFor } from './evaluators';
import { add, exceeded, mask, parseResourceList, prettyPrint, removeZeros, subtractNonNegative, toJson, type ResourceList } from './resources';

const RESOURCE_QUOTAS = { group: '', resource: 'resourcequotas' };

const statusOf = (q: KubeObject) => (isObject(q.status) ? q.status : {});

async function check(a: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const obj = a.object;
  if (!obj) return;
  const evaluator = evaluatorFor(a.group, a.resource);
  const quotas = await ctx.reader.list(RESOURCE_QUOTAS, a.namespace);
  if (quotas.length === 0) return;

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
  if (interesting.length === 0) return;

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
  if (a.dryRun) return;
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
    if (res.code >= 400) throw toStatusError(new Error(`resource quota status update failed: ${String(res.body.message ?? '')}`));
  }
}

function withUsed(q: KubeObject, used: ResourceList): KubeObject {
  const copy = structuredClone(q) as KubeObject;
  copy.status = { ...statusOf(copy), used: toJson(used) };
  return copy;
}

export function resourceQuota(): AdmissionPlugin {
  const queues = new Map<string, Promise<void>>();
  return {
    name: 'ResourceQuota',
    handles: (a) =>
      a.namespace !== '' && !(a.group === '' && a.resource === 'resourcequotas') && evaluatorFor(a.group, a.resource).handles(a.operation, a.subresource),
    validate(a, ctx) {
      const prev = queues.get(a.namespace) ?? Promise.resolve();
      const run = prev.then(() => check(a, ctx));
      const tail = run.catch(() => undefined);
      queues.set(a.namespace, tail);
      void tail.then(() => {
        if (queues.get(a.namespace) === tail) queues.delete(a.namespace);
      });
      return run;
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
