/**
 * POST pods/<name>/eviction (pkg/registry/core/pod/storage/eviction.go): deletes the pod unless
 * that would violate its PodDisruptionBudget. Pods that are pending, finished or already being
 * deleted go at once; otherwise the one budget selecting the pod must allow a disruption, which
 * the API server takes by decrementing disruptionsAllowed and recording the pod in disruptedPods
 * before the delete. A pod about to go gets the DisruptionTarget condition first.
 */
import { labelSelectorAsSelector, type LabelSelector } from '../../api/labels';
import { goQuote } from '../../api/gofmt';
import { badRequestError, forbiddenError, isStatusError, notFoundError, StatusError, type StatusCause } from '../../api/status';
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import type { RequestContext, Target } from '../context';
import type { PropagationPolicy } from '../request';
import { decodeBody } from '../body';
import { acceptDeleteOptions, deleteObject, type DeleteOptions } from './delete';
import { getObject } from './read';

const PDB = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
/** Evictions the PDB controller has not confirmed yet that a budget may record. */
const MAX_DISRUPTED_PODS = 2000;
/** EvictionsRetry: attempts at a budget update that conflicts with another writer. */
const RETRIES = 20;

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** NewTooManyRequests with the DisruptionBudget cause (retryAfterSeconds 0 is left out). */
function tooManyRequests(cause: string, retryAfterSeconds: number): StatusError {
  const causes: StatusCause[] = [{ reason: 'DisruptionBudget', message: cause }];
  return new StatusError({ code: 429, reason: 'TooManyRequests', message: VIOLATION, details: retryAfterSeconds > 0 ? { retryAfterSeconds, causes } : { causes } });
}

const stillProcessing = (pdb: string): StatusError => tooManyRequests(`The disruption budget ${pdb} is still being processed by the server.`, 10);

/** The Eviction's deleteOptions, validated as DeleteOptions. */
function evictionDeleteOptions(ctx: RequestContext, eviction: KubeObject): DeleteOptions {
  const b = isObject(eviction.deleteOptions) ? eviction.deleteOptions : {};
  const pre = isObject(b.preconditions) ? b.preconditions : undefined;
  const options: DeleteOptions = {
    gracePeriodSeconds: typeof b.gracePeriodSeconds === 'number' ? b.gracePeriodSeconds : undefined,
    propagationPolicy: str(b.propagationPolicy) as PropagationPolicy | undefined,
    orphanDependents: typeof b.orphanDependents === 'boolean' ? b.orphanDependents : undefined,
    preconditions: pre ? { uid: str(pre.uid), resourceVersion: str(pre.resourceVersion) } : undefined,
    dryRun: (Array.isArray(b.dryRun) && b.dryRun.includes('All')) || ctx.dryRun,
  };
  return acceptDeleteOptions(ctx, options);
}

const phaseOf = (pod: KubeObject): string => str(isObject(pod.status) ? pod.status.phase : undefined) ?? '';
const deleting = (pod: KubeObject): boolean => pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;

function canIgnorePDB(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || deleting(pod);
}

function isReady(pod: KubeObject): boolean {
  const conditions = isObject(pod.status) && Array.isArray(pod.status.conditions) ? pod.status.conditions : [];
  return conditions.some((c) => isObject(c) && c.type === 'Ready' && c.status === 'True');
}

/** The budgets whose (non-empty) selector selects the pod. */
async function budgetsFor(ctx: RequestContext, pod: KubeObject): Promise<KubeObject[]> {
  const all = await ctx.server.storage.list(PDB, pod.metadata.namespace ?? '');
  return all.filter((pdb) => {
    const spec = isObject(pdb.spec) ? pdb.spec : {};
    const selector = labelSelectorAsSelector(isObject(spec.selector) ? (spec.selector as LabelSelector) : null);
    return selector.ok && !selector.value.empty() && selector.value.matches(pod.metadata.labels ?? {});
  });
}

/** apimeta.SetStatusCondition for DisruptionAllowed once the budget has no disruptions left. */
function disruptionAllowedCondition(status: JsonObject, now: string): void {
  const allowed = num(status.disruptionsAllowed) > 0;
  const condition: JsonObject = {
    type: 'DisruptionAllowed',
    status: allowed ? 'True' : 'False',
    observedGeneration: num(status.observedGeneration),
    lastTransitionTime: now,
    reason: allowed ? 'SufficientPods' : 'InsufficientPods',
    message: '',
  };
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const i = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
  if (i < 0) conditions.push(condition);
  else {
    const old = conditions[i]!;
    conditions[i] = { ...old, ...condition, lastTransitionTime: old.status === condition.status ? old.lastTransitionTime ?? now : now };
  }
  status.conditions = conditions;
}

/** checkAndDecrement: takes one disruption from the budget, or says why it cannot. */
async function checkAndDecrement(ctx: RequestContext, pod: KubeObject, budget: KubeObject, dryRun: boolean): Promise<StatusError | 'conflict' | undefined> {
  const name = budget.metadata.name ?? '';
  const status: JsonObject = isObject(budget.status) ? structuredClone(budget.status) : {};
  if (num(status.observedGeneration) < num(budget.metadata.generation)) return stillProcessing(name);
  const allowed = num(status.disruptionsAllowed);
  if (allowed < 0) return forbiddenError({ group: 'policy', name: 'poddisruptionbudget' }, name, 'pdb disruptions allowed is negative');
  const disrupted = isObject(status.disruptedPods) ? status.disruptedPods : {};
  if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) {
    return forbiddenError({ group: 'policy', name: 'poddisruptionbudget' }, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (allowed === 0) return tooManyRequests(`The disruption budget ${name} needs ${num(status.desiredHealthy)} healthy pods and has ${num(status.currentHealthy)} currently`, 0);
  status.disruptionsAllowed = allowed - 1;
  const now = ctx.server.clock.rfc3339(ctx.server.clock.now());
  if (status.disruptionsAllowed === 0) disruptionAllowedCondition(status, now);
  if (dryRun) return undefined;
  status.disruptedPods = { ...disrupted, [pod.metadata.name ?? '']: now };
  const res = await ctx.server.admissionContext.loopback({
    verb: 'update',
    ...PDB,
    subresource: 'status',
    namespace: budget.metadata.namespace,
    name,
    body: { object: { ...budget, status } },
  });
  if (res.code === 409) return 'conflict';
  if (res.code >= 400) return new StatusError(res.body as never);
  return undefined;
}

/** The pod's DisruptionTarget condition, written before it is deleted (its new resourceVersion). */
async function markDisruptionTarget(ctx: RequestContext, pod: KubeObject): Promise<string | undefined> {
  const status = isObject(pod.status) ? pod.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter((c) => !(isObject(c) && c.type === 'DisruptionTarget')) : [];
  const condition = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: ctx.server.clock.rfc3339(ctx.server.clock.now()), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
  const res = await ctx.server.admissionContext.loopback({
    verb: 'update',
    group: '',
    version: 'v1',
    resource: 'pods',
    subresource: 'status',
    namespace: pod.metadata.namespace,
    name: pod.metadata.name,
    body: { object: { ...pod, status: { ...status, conditions: [...conditions, condition] } } },
  });
  if (res.code >= 400) throw new StatusError(res.body as never);
  return isObject(res.body.metadata) ? str(res.body.metadata.resourceVersion) : undefined;
}

/** addConditionAndDeletePod. */
async function evict(ctx: RequestContext, t: Target, pod: KubeObject, options: DeleteOptions): Promise<void> {
  let opts = options;
  if (!options.dryRun) {
    const rv = await markDisruptionTarget(ctx, pod);
    if (options.preconditions?.resourceVersion !== undefined && rv !== undefined) opts = { ...options, preconditions: { ...options.preconditions, resourceVersion: rv } };
  }
  await deleteObject(ctx, t, opts);
}

const success = (): JsonObject => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });

export async function createEviction(ctx: RequestContext, t: Target): Promise<{ code: number; body: JsonObject }> {
  const sub = t.info.subresources.find((s) => s.name === 'eviction')!;
  const eviction = decodeBody(ctx, { group: sub.group, version: sub.version, kind: sub.kind });
  if ((eviction.metadata.name ?? '') !== t.name) throw badRequestError('name in URL does not match name in Eviction object');
  const options = evictionDeleteOptions(ctx, eviction);
  const pinned = options.preconditions?.resourceVersion !== undefined;

  const pod = await getObject(ctx, t);
  if (canIgnorePDB(pod)) {
    const enforce = !(phaseOf(pod) === 'Succeeded' || phaseOf(pod) === 'Failed' || deleting(pod));
    const opts = enforce && !pinned ? { ...options, preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion } } : options;
    await evict(ctx, t, pod, opts);
    return { code: 201, body: success() };
  }

  const budgets = await budgetsFor(ctx, pod);
  if (budgets.length > 1) {
    return { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 } };
  }
  let unhealthyWithinBudget = false;
  const budget = budgets[0];
  if (budget) {
    const spec = isObject(budget.spec) ? budget.spec : {};
    const status = isObject(budget.status) ? budget.status : {};
    if (!isReady(pod) && (spec.unhealthyPodEvictionPolicy === 'AlwaysAllow' || (num(status.currentHealthy) >= num(status.desiredHealthy) && num(status.desiredHealthy) > 0))) {
      unhealthyWithinBudget = true;
    } else {
      let current: KubeObject | undefined = budget;
      for (let attempt = 0; ; attempt++) {
        if (!current) throw notFoundError({ group: 'policy', name: 'poddisruptionbudgets' }, budget.metadata.name ?? '');
        const outcome = await checkAndDecrement(ctx, pod, current, options.dryRun);
        if (outcome === undefined) break;
        if (outcome !== 'conflict') throw outcome;
        if (attempt + 1 >= RETRIES) throw new StatusError({ code: 504, reason: 'Timeout', message: `Timeout: couldn't update PodDisruptionBudget ${goQuote(budget.metadata.name ?? '')} due to conflicts`, details: { retryAfterSeconds: 10 } });
        current = await ctx.server.storage.get(PDB, budget.metadata.namespace ?? '', budget.metadata.name ?? '');
      }
    }
  }
  // An unready pod the budget does not count goes only if it is still the version judged.
  const opts = unhealthyWithinBudget ? { ...options, preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion } } : options;
  try {
    await evict(ctx, t, pod, opts);
  } catch (err) {
    if (isStatusError(err) && err.code === 409 && unhealthyWithinBudget && !pinned) throw stillProcessing(budget?.metadata.name ?? '');
    throw err;
  }
  return { code: 201, body: success() };
}
