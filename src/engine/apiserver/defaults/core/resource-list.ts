/**
 * ResourceList defaulting: every quantity is rounded up to milli precision (so "100u" of cpu
 * becomes "1m") and written back in the canonical form kube-apiserver returns.
 */
import type { JsonObject } from '../../../api/types';
import { objectAt } from '../fields';
import { formatQuantity, quantityOf, roundUp } from './quantity';

const milli = -3;

export function defaultResourceList(parent: JsonObject, key: string): void {
  const list = objectAt(parent, key);
  if (!list) return;
  for (const [name, value] of Object.entries(list)) {
    const q = quantityOf(value);
    if (q) list[name] = formatQuantity(roundUp(q, milli));
  }
}

/** ResourceRequirements: its limits and requests lists. */
export function defaultResourceRequirements(parent: JsonObject, key: string): void {
  const requirements = objectAt(parent, key);
  if (!requirements) return;
  defaultResourceList(requirements, 'limits');
  defaultResourceList(requirements, 'requests');
}
