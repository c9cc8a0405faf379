/**
 * DaemonSet revisions (ControllerRevisions named <daemonset>-<hash>): each holds a patch that
 * replaces spec.template, the revision number orders them, and the hash labels the pods made
 * from it. A template that goes back to an earlier one reuses that revision with a new number.
 */
import type { JsonObject } from '../../api/types';
import { computeHash } from '../util/template-hash';
import { daemonSetControllerRef } from './pod-template';
import type { ControllerRevision } from '../util/history';
import { CONTROLLER_REVISION_HASH_LABEL, type DaemonSet } from './types';

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
