/**
 * The v1 and discovery.k8s.io/v1 types the EndpointSlice and Endpoints controllers read and
 * write, as generated from the OpenAPI (src/engine/api/generated), and the labels and limits
 * kube-controller-manager gives them.
 */
export type { ContainerPort, Node, ObjectReference, Pod, PodCondition, Service, ServicePort } from '../../../api/generated/core-v1';
export type { Endpoint, EndpointConditions, EndpointPort, EndpointSlice } from '../../../api/generated/discovery-v1';

export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const ANNOTATION_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

/** The controller name kube-controller-manager's EndpointSlice controller writes in managed-by. */
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';

/** --max-endpoints-per-slice default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;
