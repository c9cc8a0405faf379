/**
 * ControllerRevisions as the controllers that keep a history (DaemonSet, StatefulSet) share them
 * (upstream's pkg/controller/history): the apps/v1 type and the comparison of stored data.
 */
import type { JsonObject } from '../../api/types';

export type { ControllerRevision } from '../../api/generated/apps-v1';

/** Same template: the stored data equals the workload's (key order aside). */
export function sameData(a: JsonObject | undefined, b: JsonObject): boolean {
  const canonical = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0))) : x));
  return canonical(a ?? {}) === canonical(b);
}
