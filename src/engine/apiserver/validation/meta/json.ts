/**
 * Reading the decoded JSON defensively: validation runs on objects that passed schema checks,
 * but a rule must never crash on a value of the wrong type, so absent or mistyped fields read
 * as Go's zero values.
 */
import { isObject, type JsonObject } from '../../../api/types';

export const asString = (v: unknown): string => (typeof v === 'string' ? v : '');

export const asObject = (v: unknown): JsonObject | undefined => (isObject(v) ? v : undefined);

export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A map[string]string in key order (upstream walks Go maps in random order). */
export function stringEntries(v: unknown): [string, string][] {
  const o = asObject(v);
  if (!o) return [];
  return Object.keys(o)
    .sort()
    .map((k) => [k, asString(o[k])]);
}
