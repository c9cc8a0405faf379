/**
 * The budget arithmetic (disruption.go): how many pods the budget expects (the pods themselves
 * for an integer minAvailable, else the sum of their controllers' scales), how many must stay
 * healthy (percentages rounded up), how many are healthy now (ready, not being deleted, not
 * just evicted), and how many disruptions that leaves.
 */
import { getScaledValueFromIntOrPercent, type IntOrString } from '../../api/intstr';
import { goQuote } from '../../api/gofmt';
import type { OwnerReference } from '../../api/types';
import { controllerOf } from '../util/controller-ref-manager';
import { timeMs } from '../../api/time';
import { conditionsAreUpToDate, disruptionAllowedCondition, setStatusCondition, SYNC_FAILED } from './conditions';
import { DISRUPTION_ALLOWED, type Pod, type PodDisruptionBudget, type PodDisruptionBudgetStatus } from './types';
import { own, setOwn } from '../../api/own';

/** DeletionTimeout: how long an eviction's disruptedPods entry waits for the pod's deletion to show. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

export interface ControllerScale {
  uid: string;
  scale: number;
}

/** Finds a pod's controller and its scale: undefined when not found this way; throws when the lookup fails. */
export type ScaleFinder = (ref: OwnerReference, namespace: string) => Promise<ControllerScale | undefined>;

export interface ExpectedPods {
  expectedCount: number;
  desiredHealthy: number;
  /** Pods without a controller: reported in an UnmanagedPods event, left out of the count. */
  unmanagedPods: string[];
}

/** getExpectedScale: the scales of the pods' distinct controllers, added up. */
async function expectedScale(pods: readonly Pod[], finders: readonly ScaleFinder[]): Promise<{ expectedCount: number; unmanagedPods: string[] }> {
  const scales = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref) {
      unmanagedPods.push(pod.metadata.name ?? '');
      continue;
    }
    if (scales.has(ref.uid)) continue;
    let found: ControllerScale | undefined;
    for (const find of finders) {
      found = await find(ref, pod.metadata.namespace ?? '');
      if (found) break;
    }
    if (!found) throw new Error(`found no controllers for pod ${goQuote(pod.metadata.name ?? '')}`);
    scales.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const scale of scales.values()) expectedCount += scale;
  return { expectedCount, unmanagedPods };
}

function scaled(value: IntOrString, total: number): number {
  const n = getScaledValueFromIntOrPercent(value, total, true);
  if (!n.ok) throw new Error(n.error);
  return n.value;
}

/** getExpectedPodCount: maxUnavailable wins over minAvailable; the finders are tried in order. */
export async function expectedPodCount(pdb: PodDisruptionBudget, pods: readonly Pod[], finders: readonly ScaleFinder[]): Promise<ExpectedPods> {
  const spec = pdb.spec ?? {};
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const { expectedCount, unmanagedPods } = await expectedScale(pods, finders);
    const maxUnavailable = scaled(spec.maxUnavailable, expectedCount);
    return { expectedCount, desiredHealthy: Math.max(0, expectedCount - maxUnavailable), unmanagedPods };
  }
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
    if (typeof spec.minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
    const { expectedCount, unmanagedPods } = await expectedScale(pods, finders);
    return { expectedCount, desiredHealthy: scaled(spec.minAvailable, expectedCount), unmanagedPods };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

const isPodReady = (pod: Pod): boolean => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** countHealthyPods: ready pods that are neither being deleted nor recently evicted. */
export function countHealthyPods(pods: readonly Pod[], disruptedPods: Readonly<Record<string, string>>, nowMs: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const disrupted = own(disruptedPods, pod.metadata.name ?? '');
    if (disrupted !== undefined && timeMs(disrupted) + DELETION_TIMEOUT_MS > nowMs) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

export interface DisruptedPods {
  /** The entries still waiting for their pod's deletion to be seen. */
  disruptedPods: Record<string, string>;
  /** When the first of those expires: the budget is synced again then. */
  recheckAtMs?: number;
  /** Pods whose deletion never came: each gets a NotDeleted event. */
  notDeleted: Pod[];
}

/** buildDisruptedPodMap: entries of pods gone or being deleted are dropped, expired ones reported. */
export function buildDisruptedPodMap(pods: readonly Pod[], pdb: PodDisruptionBudget, nowMs: number): DisruptedPods {
  const previous = pdb.status?.disruptedPods;
  const result: DisruptedPods = { disruptedPods: {}, notDeleted: [] };
  if (!previous) return result;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const name = pod.metadata.name ?? '';
    const at = own(previous, name);
    if (at === undefined) continue;
    const expectedDeletion = timeMs(at) + DELETION_TIMEOUT_MS;
    if (expectedDeletion < nowMs) {
      result.notDeleted.push(pod);
      continue;
    }
    if (result.recheckAtMs === undefined || expectedDeletion < result.recheckAtMs) result.recheckAtMs = expectedDeletion;
    setOwn(result.disruptedPods, name, at);
  }
  return result;
}

function sameEntries(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>>): boolean {
  const ak = Object.keys(a ?? {});
  return ak.length === Object.keys(b).length && ak.every((k) => a![k] === own(b, k));
}

export interface Counts {
  currentHealthy: number;
  desiredHealthy: number;
  expectedCount: number;
}

/**
 * updatePdbStatus: the status to write, or undefined when the stored one is up to date. A budget
 * that expects no pods allows no disruptions, so pods appearing before the next sync are safe.
 */
export function nextStatus(pdb: PodDisruptionBudget, counts: Counts, disruptedPods: Readonly<Record<string, string>>, now: string): PodDisruptionBudgetStatus | undefined {
  const { currentHealthy, desiredHealthy, expectedCount } = counts;
  let disruptionsAllowed = currentHealthy - desiredHealthy;
  if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const old: Partial<PodDisruptionBudgetStatus> = pdb.status ?? {};
  const generation = pdb.metadata.generation ?? 0;
  if (
    (old.currentHealthy ?? 0) === currentHealthy &&
    (old.desiredHealthy ?? 0) === desiredHealthy &&
    (old.expectedPods ?? 0) === expectedCount &&
    (old.disruptionsAllowed ?? 0) === disruptionsAllowed &&
    sameEntries(old.disruptedPods, disruptedPods) &&
    (old.observedGeneration ?? 0) === generation &&
    conditionsAreUpToDate(pdb)
  ) {
    return undefined;
  }
  const names = Object.keys(disruptedPods).sort();
  const status: PodDisruptionBudgetStatus = {
    ...(generation ? { observedGeneration: generation } : {}),
    ...(names.length > 0 ? { disruptedPods: Object.fromEntries(names.map((n) => [n, disruptedPods[n]!])) } : {}),
    disruptionsAllowed,
    currentHealthy,
    desiredHealthy,
    expectedPods: expectedCount,
    conditions: old.conditions,
  };
  status.conditions = disruptionAllowedCondition(status, now);
  return status;
}

/** failSafe: a status that could not be computed allows no disruptions and says why. */
export function failSafeStatus(pdb: PodDisruptionBudget, message: string, now: string): PodDisruptionBudgetStatus {
  const old: Partial<PodDisruptionBudgetStatus> = pdb.status ?? {};
  const status: PodDisruptionBudgetStatus = {
    ...(old.observedGeneration ? { observedGeneration: old.observedGeneration } : {}),
    ...(old.disruptedPods && Object.keys(old.disruptedPods).length > 0 ? { disruptedPods: old.disruptedPods } : {}),
    disruptionsAllowed: 0,
    currentHealthy: old.currentHealthy ?? 0,
    desiredHealthy: old.desiredHealthy ?? 0,
    expectedPods: old.expectedPods ?? 0,
  };
  status.conditions = setStatusCondition(old.conditions, { type: DISRUPTION_ALLOWED, status: 'False', reason: SYNC_FAILED, message, observedGeneration: old.observedGeneration }, now);
  return status;
}
