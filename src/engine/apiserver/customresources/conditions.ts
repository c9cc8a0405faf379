/**
 * CustomResourceDefinition conditions (apiextensions helpers FindCRDCondition, SetCRDCondition,
 * IsCRDConditionTrue): a condition keeps its lastTransitionTime unless its status changes.
 */
import { isObject, type JsonObject, type KubeObject } from '../../api/types';

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

function conditionsOf(crd: KubeObject): JsonObject[] {
  const status = isObject(crd.status) ? crd.status : {};
  return Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
}

export function findCondition(crd: KubeObject, type: string): JsonObject | undefined {
  return conditionsOf(crd).find((c) => c.type === type);
}

export function isConditionTrue(crd: KubeObject, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/** Whether the CRD already has the condition with this status, reason and message. */
export function hasCondition(crd: KubeObject, c: CrdCondition): boolean {
  const found = findCondition(crd, c.type);
  return !!found && found.status === c.status && found.reason === c.reason && found.message === c.message;
}

/** The CRD's status with the condition set (in place of one of its type, else appended). */
export function withCondition(crd: KubeObject, c: CrdCondition, now: string): KubeObject {
  const status = isObject(crd.status) ? crd.status : {};
  const existing = findCondition(crd, c.type);
  const lastTransitionTime = existing && existing.status === c.status && typeof existing.lastTransitionTime === 'string' ? existing.lastTransitionTime : now;
  const next: JsonObject = { type: c.type, status: c.status, lastTransitionTime, reason: c.reason, message: c.message };
  const conditions = existing ? conditionsOf(crd).map((x) => (x === existing ? next : x)) : [...conditionsOf(crd), next];
  return { ...crd, status: { ...status, conditions } };
}
