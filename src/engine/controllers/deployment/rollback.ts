/**
 * Rollback through the deprecated rollbackTo annotation (rollback.go): copy an earlier
 * revision's template back into the Deployment; the next sync then rolls out to the ReplicaSet
 * that already has it, which gets the newest revision. (`kubectl rollout undo` today patches the
 * template directly, which is the same rollout without this step.)
 */
import { goQuote } from '../../api/gofmt';
import type { ReplicaSet } from '../util/types/workload';
import { lastRevision, revision, RevisionError, setDeploymentAnnotationsTo } from './annotations';
import type { Plan } from './plan';
import { getAllReplicaSetsAndSyncRevision, rollbackRevision } from './sync';
import { equalIgnoreHash } from '../util/template-hash';
import { POD_TEMPLATE_HASH_LABEL, Reason, ROLLBACK_TO_ANNOTATION, type Deployment } from './types';

export function rollback(plan: Plan, d: Deployment, rsList: readonly ReplicaSet[]): void {
  const [newRS, oldRSs] = getAllReplicaSetsAndSyncRevision(plan, d, rsList, true);
  const allRSs = [...oldRSs, newRS];
  let target = rollbackRevision(d) ?? 0;
  if (target === 0) {
    target = lastRevision(allRSs);
    if (target === 0) {
      plan.event('Warning', Reason.RollbackRevisionNotFound, 'Unable to find last revision.');
      return clearRollbackTo(plan, d);
    }
  }
  for (const rs of allRSs) {
    if (!rs) continue;
    const v = revision(rs);
    if (v instanceof RevisionError || v !== target) continue;
    if (rollbackToTemplate(plan, d, rs)) plan.event('Normal', Reason.RollbackDone, `Rolled back deployment ${goQuote(d.metadata.name ?? '')} to revision ${target}`);
    return;
  }
  plan.event('Warning', Reason.RollbackRevisionNotFound, 'Unable to find the revision to rollback to.');
  clearRollbackTo(plan, d);
}

/** Copies the ReplicaSet's template (without its hash label) and annotations into the Deployment; true if the template changed. */
function rollbackToTemplate(plan: Plan, d: Deployment, rs: ReplicaSet): boolean {
  let performed = false;
  if (!equalIgnoreHash(d.spec.template, rs.spec.template)) {
    const template = structuredClone(rs.spec.template ?? {});
    const labels = { ...(template.metadata?.labels ?? {}) };
    delete labels[POD_TEMPLATE_HASH_LABEL];
    template.metadata = { ...template.metadata, labels };
    d.spec.template = template;
    // The Deployment takes the annotations of the revision it returns to (change-cause and the like).
    setDeploymentAnnotationsTo(d, rs);
    performed = true;
  } else {
    plan.event('Warning', Reason.RollbackTemplateUnchanged, `The rollback revision contains the same template as current deployment ${goQuote(d.metadata.name ?? '')}`);
  }
  clearRollbackTo(plan, d);
  return performed;
}

function clearRollbackTo(plan: Plan, d: Deployment): void {
  if (d.metadata.annotations) delete d.metadata.annotations[ROLLBACK_TO_ANNOTATION];
  plan.updateDeployment(d);
}
