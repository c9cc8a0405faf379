/** The core/v1 Endpoints object as the legacy Endpoints controller writes it (fields in Go's order). */
import type { KubeObject } from '../../api/types';
import type { ObjectReference } from '../util/types/endpoint';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

/** Set when the controller had to drop addresses beyond maxCapacity. */
export const ANNOTATION_OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';

/** Endpoints objects hold at most this many addresses; more are truncated. */
export const MAX_CAPACITY = 1000;
