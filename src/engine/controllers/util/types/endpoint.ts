/**
 * Typed views of the v1 and discovery.k8s.io/v1 objects the EndpointSlice and Endpoints
 * controllers read and write. Objects are plain JSON; these name only the fields used here, in
 * the order Go serializes them, so what the controllers write reads like kube-controller-manager's.
 */
import type { KubeObject } from '../../../api/types';

export interface ServicePort {
  name?: string;
  protocol?: string;
  appProtocol?: string;
  port: number;
  targetPort?: number | string;
  nodePort?: number;
}

export interface Service extends KubeObject {
  spec?: {
    ports?: ServicePort[];
    selector?: Record<string, string> | null;
    clusterIP?: string;
    type?: string;
    publishNotReadyAddresses?: boolean;
    ipFamilies?: string[];
  };
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string | null;
}

export interface Pod extends KubeObject {
  spec?: {
    nodeName?: string;
    hostname?: string;
    subdomain?: string;
    containers?: { name: string; ports?: ContainerPort[] }[];
    initContainers?: { name: string; ports?: ContainerPort[]; restartPolicy?: string }[];
  };
  status?: {
    phase?: string;
    conditions?: PodCondition[];
    podIP?: string;
    podIPs?: { ip: string }[];
  };
}

export interface Node extends KubeObject {
  status?: { conditions?: { type: string; status: string }[] };
}

export interface ObjectReference {
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface Endpoint {
  addresses: string[];
  conditions: EndpointConditions;
  hostname?: string;
  targetRef?: ObjectReference;
  nodeName?: string;
  zone?: string;
}

export interface EndpointPort {
  name?: string;
  protocol?: string;
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  addressType: string;
  endpoints: Endpoint[] | null;
  ports?: EndpointPort[];
}

export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const ANNOTATION_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

/** The controller name kube-controller-manager's EndpointSlice controller writes in managed-by. */
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';

/** --max-endpoints-per-slice default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;
