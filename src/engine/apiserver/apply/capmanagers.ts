/**
 * At most ten Update managers are kept per object (capManagersManager): past that, the oldest
 * are folded, per API version, into an "ancient-changes" Update manager.
 */
import { compareStrings } from './fieldpath/element';
import { FieldSet } from './fieldpath/set';
import type { Managed } from './managed';
import { managerIdentifier, unixSeconds } from './managed';

export const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = 'ancient-changes';

export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  // Counted first: nearly every write is under the cap, and needs no list.
  let count = 0;
  for (const vs of managed.fields.values()) if (!vs.applied) count++;
  if (count <= max) return;
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  updaters.sort((a, b) => {
    const ta = unixSeconds(managed.times.get(a));
    const tb = unixSeconds(managed.times.get(b));
    return ta !== tb ? ta - tb : compareStrings(a, b);
  });
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const manager = updaters[i]!;
    const vs = managed.fields.get(manager)!;
    const time = managed.times.get(manager);
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, manager);
      continue;
    }
    const firstSet = managed.fields.get(first);
    if (!managed.fields.has(bucket) && firstSet) {
      managed.fields.set(bucket, firstSet);
      managed.fields.delete(first);
    }
    const bucketSet = managed.fields.get(bucket)?.set ?? FieldSet.EMPTY;
    managed.fields.set(bucket, { set: vs.set.union(bucketSet), apiVersion: vs.apiVersion, applied: vs.applied });
    managed.fields.delete(manager);
    length--;
    managed.times.set(bucket, time);
  }
}
