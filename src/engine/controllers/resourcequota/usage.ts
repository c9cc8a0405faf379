/**
 * A quota's full recalculation (resource_quota_controller.go syncResourceQuota), with the API
 * server's quota evaluators (admission/resourcequota): which resources' objects count toward the
 * names in spec.hard, the status those objects add up to, and whether it differs from the stored
 * one. Names nothing evaluates keep whatever usage the status had, as upstream does.
 */
import { evaluatorFor } from '../../apiserver/admission/resourcequota/evaluators';
import { computeQuotaStatus } from '../../apiserver/admission/resourcequota/plugin';
import { parseResourceList, type ResourceList } from '../../apiserver/admission/resourcequota/resources';
import type { KubeObject } from '../../api/types';
import type { ResourceQuota, ResourceQuotaStatus } from '../../api/generated/core-v1';
import { own, setOwn } from '../../api/own';

export interface GroupResource {
  group: string;
  resource: string;
}

export type { ResourceQuota, ResourceQuotaStatus };

/** Resources whose quota names are not spelled count/<resource>: the legacy object counts and the compute ones. */
const NAMED: readonly GroupResource[] = ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas'].map((resource) => ({ group: '', resource }));

/** "count/deployments.apps": the resource an object count quota counts. */
function countedResource(name: string): GroupResource | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

export const groupResourceKey = (gr: GroupResource): string => `${gr.group}/${gr.resource}`;

/** The resources whose objects count toward a quota resource name (none for names no evaluator knows). */
export function resourcesCounting(name: string): GroupResource[] {
  const counted = countedResource(name);
  const candidates = counted ? [counted, ...NAMED] : NAMED;
  const seen = new Set<string>();
  return candidates.filter((gr) => {
    const key = groupResourceKey(gr);
    if (seen.has(key) || !evaluatorFor(gr.group, gr.resource).matchesResource(name)) return false;
    seen.add(key);
    return true;
  });
}

/** The resources a quota's hard limits need counted. */
export function trackedResources(quota: ResourceQuota): GroupResource[] {
  const out = new Map<string, GroupResource>();
  for (const name of Object.keys(quota.spec?.hard ?? {})) for (const gr of resourcesCounting(name)) out.set(groupResourceKey(gr), gr);
  return [...out.values()];
}

/**
 * The recalculated status: hard from spec.hard, used summed over `objects` (the namespace's
 * objects of each tracked resource, by "group/resource", at `nowMs`) for the names they count toward; the
 * old usage for names none of them does.
 */
export function recalculatedStatus(quota: ResourceQuota, objects: ReadonlyMap<string, readonly KubeObject[]>, nowMs: number): Required<ResourceQuotaStatus> {
  const computed = computeQuotaStatus(quota, objects, nowMs);
  const used: Record<string, string> = {};
  for (const [name, value] of Object.entries(computed.used)) {
    if (resourcesCounting(name).some((gr) => objects.has(groupResourceKey(gr)))) setOwn(used, name, value);
    else {
      const before = own(quota.status?.used, name);
      if (before !== undefined) setOwn(used, name, before);
    }
  }
  return { hard: computed.hard, used };
}

/** quota.Equals: the same names with equal quantities. */
function sameQuantities(a: ResourceList, b: ResourceList): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.has(k) && v.cmp(b.get(k)!) === 0);
}

/** quota.V1Equals over two hard-limit maps as written. */
export function sameHardLimits(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  return sameQuantities(parseResourceList(a), parseResourceList(b));
}

/** Whether the status must be written: first sync, changed hard limits, or changed usage. */
export function statusNeedsUpdate(quota: ResourceQuota, next: Required<ResourceQuotaStatus>): boolean {
  const status = quota.status;
  if (!status?.hard || !status.used) return true;
  return !sameHardLimits(quota.spec?.hard, status.hard) || !sameHardLimits(next.used, status.used);
}

/** addQuota's priority: hard limits not yet in the status, or a limit without usage that can be computed. */
export function needsPriority(quota: ResourceQuota): boolean {
  const status = quota.status ?? {};
  if (!sameHardLimits(quota.spec?.hard, status.hard)) return true;
  return Object.keys(status.hard ?? {}).some((name) => own(status.used, name) === undefined && resourcesCounting(name).length > 0);
}
