/**
 * The small formatters kube-apiserver's printers share: ages, label sets and selectors, the
 * container name and image lists, "a,b,c + N more..." lists, and safe reads of plain JSON.
 */
import { labelSelectorAsSelector, type LabelSelector } from '../api/labels';
import { parseQuantity } from '../api/quantity';
import { isObject, type JsonObject, type JsonValue, type KubeObject } from '../api/types';
import { humanDuration } from './duration';
import { setOwn } from '../api/own';

export const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
export const arr = (v: unknown): JsonValue[] => (Array.isArray(v) ? (v as JsonValue[]) : []);
export const objs = (v: unknown): JsonObject[] => arr(v).filter(isObject);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const int = (v: unknown): number => (typeof v === 'number' ? Math.trunc(v) : 0);
export const bool = (v: unknown): boolean => v === true;
export const strMap = (v: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj(v))) if (typeof x === 'string') setOwn(out, k, x);
  return out;
};

/** translateTimestampSince: the age of an RFC 3339 timestamp at `now`, "<unknown>" when unset. */
export function age(timestamp: unknown, now: number): string {
  const t = typeof timestamp === 'string' && timestamp ? Date.parse(timestamp) : NaN;
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

/** The AGE cell: how long ago the object was created. */
export function ageOf(o: KubeObject, now: number): string {
  return age(o.metadata.creationTimestamp, now);
}

/** labels.FormatLabels: "k=v,k2=v2" in key order, "<none>" when empty. */
export function formatLabels(labels: Record<string, string>): string {
  const keys = Object.keys(labels).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels[k]}`).join(',');
}

/** metav1.FormatLabelSelector: the selector's string form, "<none>" when it selects nothing. */
export function formatLabelSelector(selector: unknown): string {
  const s = labelSelectorAsSelector(selector === undefined || selector === null ? null : (selector as LabelSelector));
  if (!s.ok) return '<error>';
  return s.value.toString() || '<none>';
}

/** LabelSelectorAsSelector(...).String(), "<invalid>" when it does not parse (deployments). */
export function selectorString(selector: unknown): string {
  const s = labelSelectorAsSelector(selector === undefined || selector === null ? null : (selector as LabelSelector));
  return s.ok ? s.value.toString() : '<invalid>';
}

/** layoutContainerCells: the containers' names and images, comma-separated. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = objs(obj(podSpec).containers);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}

/** The items shown, joined by `separator`, then " + N more..." for the rest of the `total`. */
export function joinWithMore(shown: readonly string[], total: number, separator = ','): string {
  const text = shown.join(separator);
  return total > shown.length ? `${text} + ${total - shown.length} more...` : text;
}

/** listWithMoreString: the first `max` items, then " + N more...", "<unset>" when empty. */
export function listWithMore(items: readonly string[], max: number): string {
  return joinWithMore(items.slice(0, max), items.length) || '<unset>';
}

/**
 * loadBalancerStatusStringer: the ingress points' IPs (else hostnames), sorted, without
 * duplicates. Server-side printing is always wide, so the list is never clipped.
 */
export function loadBalancerAddresses(loadBalancer: unknown): string {
  const seen = new Set<string>();
  for (const i of objs(obj(loadBalancer).ingress)) {
    if (str(i.ip)) seen.add(str(i.ip));
    else if (str(i.hostname)) seen.add(str(i.hostname));
  }
  return [...seen].sort().join(',');
}

/** Quantity.String() of a JSON quantity (a string or a number). */
export function quantityString(v: unknown): string {
  if (v === undefined || v === null) return '0';
  const q = parseQuantity(typeof v === 'number' ? String(v) : str(v));
  return q.ok ? q.value.toString() : str(v);
}

/** intstr.IntOrString.String(). */
export function intOrString(v: unknown): string {
  return typeof v === 'number' ? String(Math.trunc(v)) : str(v);
}

/** A reference as "Kind/name" (a role binding's role, an autoscaler's target). */
export function kindSlashName(ref: unknown): string {
  const r = obj(ref);
  return `${str(r.kind)}/${str(r.name)}`;
}

/** Whether a condition of the type has status True. */
export function hasTrueCondition(conditions: unknown, type: string): boolean {
  return objs(conditions).some((c) => c.type === type && c.status === 'True');
}

/** The first condition of the type, if any. */
export function findCondition(conditions: unknown, type: string): JsonObject | undefined {
  return objs(conditions).find((c) => c.type === type);
}

/** A string field as a cell, "<none>" when it is empty or not a string. */
export const noneIfEmpty = (v: unknown): string => str(v) || '<none>';

/** A string field as a cell, "<unknown>" when it is empty or not a string. */
export const unknownIfEmpty = (v: unknown): string => str(v) || '<unknown>';
