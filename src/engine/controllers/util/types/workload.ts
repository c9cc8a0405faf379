/**
 * The apps/v1 and core/v1 types the workload controllers read, as generated from the OpenAPI
 * (src/engine/api/generated). Objects arrive as plain JSON from the informers; where a controller
 * relies on what validation guarantees of a stored object (a ReplicaSet has a spec), the view
 * says so here.
 */
import type * as apps from '../../../api/generated/apps-v1';

export type { ContainerStatus, Pod, PodCondition, PodTemplateSpec } from '../../../api/generated/core-v1';
export type { ReplicaSetCondition, ReplicaSetStatus } from '../../../api/generated/apps-v1';

/** apps/v1 DefaultDeploymentUniqueLabelKey: the label that names the template a ReplicaSet's pods (and a ControllerRevision) came from. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A stored ReplicaSet: validation requires its spec (selector and template). */
export type ReplicaSet = apps.ReplicaSet & { spec: apps.ReplicaSetSpec };

/** spec.replicas; the API server defaults a missing value to 1. */
export const specReplicas = (rs: ReplicaSet): number => rs.spec.replicas ?? 1;
