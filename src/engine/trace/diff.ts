/**
 * The one-line change of a revision: the leaf fields that differ between two versions of an
 * object, `path: old → new`, a few at most. Bookkeeping that changes on every write
 * (resourceVersion, managedFields) is left out.
 */
import type { JsonValue } from '../api/types';
import { own, setOwn } from '../api/own';

const IGNORED = new Set(['metadata.resourceVersion', 'metadata.managedFields']);
const MAX_SHOWN = 3;
const MAX_VALUE = 40;

type Change = { path: string; before: JsonValue | undefined; after: JsonValue | undefined };

export function summarizeChange(before: unknown, after: unknown): string {
  const changes: Change[] = [];
  let count = 0;
  const walk = (a: JsonValue | undefined, b: JsonValue | undefined, path: string): void => {
    if (a === b || IGNORED.has(path)) return;
    const aObj = isRecord(a);
    const bObj = isRecord(b);
    if (aObj && bObj) {
      for (const k of Object.keys(a)) walk(a[k], own(b, k), path ? `${path}.${k}` : k);
      for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) walk(undefined, b[k], path ? `${path}.${k}` : k);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      for (let i = 0; i < a.length; i++) walk(a[i], b[i], `${path}[${i}]`);
      return;
    }
    if (!aObj && !bObj && JSON.stringify(a) === JSON.stringify(b)) return;
    count++;
    if (changes.length < MAX_SHOWN) changes.push({ path, before: a, after: b });
  };
  walk(before as JsonValue | undefined, after as JsonValue | undefined, '');
  if (count === 0) return 'no change';
  const shown = changes.map((c) => describe(c)).join(', ');
  return count > changes.length ? `${shown} (+${count - changes.length} more)` : shown;
}

function describe(c: Change): string {
  if (c.before === undefined) return `${c.path}: set ${show(c.after)}`;
  if (c.after === undefined) return `${c.path}: removed`;
  return `${c.path}: ${show(c.before)} → ${show(c.after)}`;
}

function show(v: JsonValue | undefined): string {
  if (Array.isArray(v)) return `[${v.length} ${v.length === 1 ? 'item' : 'items'}]`;
  if (isRecord(v)) return '{…}';
  const s = typeof v === 'string' ? JSON.stringify(v) : String(v);
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s;
}

function isRecord(v: JsonValue | undefined): v is { [k: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface StatusTransitions {
  conditions?: Record<string, string>;
  phase?: string;
}

/**
 * The status conditions (by type) whose status a write set or changed, and the phase when it
 * changed. A condition only re-stamped (a heartbeat time, a message) is not a transition.
 */
export function statusTransitions(before: unknown, after: unknown): StatusTransitions {
  const was = statusOf(before);
  const now = statusOf(after);
  const out: StatusTransitions = {};
  const previous = new Map<string, string>();
  for (const c of conditionsOf(was)) previous.set(c.type, c.status);
  for (const c of conditionsOf(now)) {
    if (previous.get(c.type) === c.status) continue;
    setOwn((out.conditions ??= {}), c.type, c.status);
  }
  const phase = now?.phase;
  if (typeof phase === 'string' && phase !== was?.phase) out.phase = phase;
  return out;
}

function statusOf(object: unknown): { [k: string]: JsonValue } | undefined {
  const status = isRecord(object as JsonValue) ? (object as { [k: string]: JsonValue }).status : undefined;
  return isRecord(status) ? status : undefined;
}

function conditionsOf(status: { [k: string]: JsonValue } | undefined): { type: string; status: string }[] {
  const list = status?.conditions;
  if (!Array.isArray(list)) return [];
  const out: { type: string; status: string }[] = [];
  for (const c of list) {
    if (!isRecord(c)) continue;
    if (typeof c.type === 'string' && typeof c.status === 'string') out.push({ type: c.type, status: c.status });
  }
  return out;
}
