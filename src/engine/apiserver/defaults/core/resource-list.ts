/**
 * ResourceList defaulting: every quantity is rounded up to milli precision (so "100u" of cpu
 * becomes "1m") and written back as kube-apiserver serializes it (canonical, or the input text
 * where upstream keeps it). Text that is not a quantity is left for validation to reject.
 */
import { quantityOrUndefined, Quantity } from '../../../api/quantity';
import type { JsonObject } from '../../../api/types';
import { objectAt } from '../fields';

/** A quantity field's JSON value: a string, or a bare number as Go's decoder also accepts. */
export function quantityOf(v: unknown): Quantity | undefined {
  const text = typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
  if (text === undefined) return undefined;
  return quantityOrUndefined(text);
}

/** The serialized forms finer than a milli: micro and nano units (parsing stops at nano). */
const subMilli = /^(-?)(\d+)(u|n|e-6|e-9)$/;

/** Quantity.RoundUp(-3): away from zero to whole milli units, then serialized. */
export function roundUpToMilli(q: Quantity): string {
  const text = q.toString();
  const m = subMilli.exec(text);
  if (!m) return text;
  const [, sign, digits = '0', unit = ''] = m;
  const perMilli = unit === 'u' || unit === 'e-6' ? 1000n : 1000000n;
  const units = BigInt(digits);
  const millis = units / perMilli + (units % perMilli === 0n ? 0n : 1n);
  return Quantity.fromMilli(sign === '-' ? -millis : millis, q.format).toString();
}

export function defaultResourceList(parent: JsonObject, key: string): void {
  const list = objectAt(parent, key);
  if (!list) return;
  // for-in reads the keys without a copy; only existing keys are written, and only when the
  // text changes (a list already defaulted may be frozen, shared with a stored revision).
  for (const name in list) {
    const v = list[name];
    const q = quantityOf(v);
    if (!q) continue;
    const text = roundUpToMilli(q);
    if (text !== v) list[name] = text;
  }
}

/** ResourceRequirements: its limits and requests lists. */
export function defaultResourceRequirements(parent: JsonObject, key: string): void {
  const requirements = objectAt(parent, key);
  if (!requirements) return;
  defaultResourceList(requirements, 'limits');
  defaultResourceList(requirements, 'requests');
}
