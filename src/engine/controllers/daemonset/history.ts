/**
 * DaemonSet revisions (ControllerRevisions named <daemonset>-<hash>): each holds a patch that
 * replaces spec.template, the revision number orders them, and the hash labels the pods made
 * from it. A template that goes back to an earlier one reuses that revision with a new number.
 */
import type { JsonObject } from '../../api/types';
import { computeHash } from '../deployment/template';
import { daemonSetControllerRef } from './pod-template';
import { CONTROLLER_REVISION_HASH_LABEL, type ControllerRevision, type DaemonSet } from './types';

/** getPatch: {"spec":{"template":{..., "$patch":"replace"}}}. */
export function revisionData(ds: DaemonSet): JsonObject {
  return { spec: { template: { ...(structuredClone(ds.spec.template ?? {}) as JsonObject), $patch: 'replace' } } };
}

export function revisionHash(ds: DaemonSet): string {
  return computeHash(ds.spec.template, ds.status?.collisionCount);
}

export function newRevision(ds: DaemonSet, hash: string, revision: number): ControllerRevision {
  const labels = { ...(ds.spec.template?.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash };
  const metadata: ControllerRevision['metadata'] = { name: `${ds.metadata.name ?? ''}-${hash}`, namespace: ds.metadata.namespace, labels };
  if (ds.metadata.annotations) metadata.annotations = { ...ds.metadata.annotations };
  metadata.ownerReferences = [daemonSetControllerRef(ds)];
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, data: revisionData(ds), revision };
}

/** Same template: the stored data equals the DaemonSet's (key order aside). */
export function sameData(a: JsonObject | undefined, b: JsonObject): boolean {
  const canonical = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0))) : x));
  return canonical(a ?? {}) === canonical(b);
}
