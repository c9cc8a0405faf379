/** The core/v1 Endpoints object the legacy Endpoints controller writes (generated from the OpenAPI) and its limits. */
export type { EndpointAddress, EndpointPort, Endpoints, EndpointSubset } from '../../api/generated/core-v1';

/** Set when the controller had to drop addresses beyond maxCapacity. */
export const ANNOTATION_OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';

/** Endpoints objects hold at most this many addresses; more are truncated. */
export const MAX_CAPACITY = 1000;
