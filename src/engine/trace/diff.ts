/**
 * The one-line change of a revision: the leaf fields that differ between two versions of an
 * object, `path: old → new`, a few at most. Bookkeeping that changes on every write
 * (resourceVersion, managedFields) is left out.
 */
import type { JsonValue } from '../api/types';

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
      for (const k of Object.keys(a)) walk(a[k], b[k], path ? `${path}.${k}` : k);
      for (const k of Object.keys(b)) if (!(k in a)) walk(undefined, b[k], path ? `${path}.${k}` : k);
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
