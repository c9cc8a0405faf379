/**
 * StatefulSet revisions: ControllerRevisions named <set>-<hash> holding a patch that replaces
 * spec.template; a pod's controller-revision-hash label names the revision it was made from.
 * The update revision is the one of the current template (an earlier equal one is reused with
 * the next number); the current revision is status.currentRevision until a rollout completes.
 */
import type { JsonObject } from '../../api/types';
import { computeHash } from '../util/template-hash';
import { sameData, type ControllerRevision } from '../util/history';
import { statefulSetControllerRef } from './identity';
import { REVISION_HASH_LABEL, type StatefulSet } from './types';

export function revisionData(set: StatefulSet): JsonObject {
  return { spec: { template: { ...(structuredClone(set.spec.template ?? {}) as JsonObject), $patch: 'replace' } } };
}

export function newRevision(set: StatefulSet, revision: number): ControllerRevision {
  const hash = computeHash(set.spec.template, set.status?.collisionCount);
  const labels = { ...(set.spec.template?.metadata?.labels ?? {}), [REVISION_HASH_LABEL]: hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name: `${set.metadata.name ?? ''}-${hash}`, namespace: set.metadata.namespace, labels, ownerReferences: [statefulSetControllerRef(set)] },
    data: revisionData(set),
    revision,
  };
}

/** ApplyRevision: the template a revision holds. */
export function templateOf(revision: ControllerRevision): StatefulSet['spec']['template'] {
  const spec = revision.data?.spec as JsonObject | undefined;
  const { $patch: _patch, ...template } = (spec?.template ?? {}) as JsonObject;
  return template as StatefulSet['spec']['template'];
}

export function findEqual(revisions: readonly ControllerRevision[], set: StatefulSet): ControllerRevision | undefined {
  const data = revisionData(set);
  return [...revisions].sort((a, b) => b.revision - a.revision).find((r) => sameData(r.data, data));
}
