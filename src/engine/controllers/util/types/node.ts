/** The core/v1 and coordination.k8s.io/v1 types the node lifecycle and taint eviction controllers use (generated from the OpenAPI). */
export type { Node, NodeCondition, Pod, PodCondition, Taint, Toleration } from '../../../api/generated/core-v1';
export type { Lease } from '../../../api/generated/coordination-v1';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
