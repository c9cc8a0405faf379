/**
 * The apps/v1 Deployment as the deployment controller reads it, and the names upstream gives to
 * its annotations, condition types and reasons (pkg/controller/deployment/util).
 */
import type * as apps from '../../api/generated/apps-v1';

export type { DeploymentCondition, DeploymentStatus, DeploymentStrategy } from '../../api/generated/apps-v1';

/** A stored Deployment: validation requires its spec (selector and template). */
export type Deployment = apps.Deployment & { spec: apps.DeploymentSpec };

export const RECREATE = 'Recreate';
export const ROLLING_UPDATE = 'RollingUpdate';

export { POD_TEMPLATE_HASH_LABEL } from '../util/types/workload';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
/** apps.DeprecatedRollbackTo: how the removed spec.rollbackTo still round-trips. */
export const ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

export const PROGRESSING = 'Progressing';
export const AVAILABLE = 'Available';
export const REPLICA_FAILURE = 'ReplicaFailure';

export const Reason = {
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  FailedRSCreate: 'ReplicaSetCreateError',
  NewReplicaSetCreated: 'NewReplicaSetCreated',
  FoundNewReplicaSet: 'FoundNewReplicaSet',
  NewReplicaSetAvailable: 'NewReplicaSetAvailable',
  TimedOut: 'ProgressDeadlineExceeded',
  Paused: 'DeploymentPaused',
  Resumed: 'DeploymentResumed',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
  RollbackRevisionNotFound: 'DeploymentRollbackRevisionNotFound',
  RollbackTemplateUnchanged: 'DeploymentRollbackTemplateUnchanged',
  RollbackDone: 'DeploymentRollback',
} as const;

/** math.MaxInt32: the "no deadline" / "keep everything" sentinel of progressDeadlineSeconds and revisionHistoryLimit. */
export const MAX_INT32 = 2147483647;

/** spec.replicas; the API server defaults a missing value to 1. */
export const deploymentReplicas = (d: Deployment): number => d.spec.replicas ?? 1;
