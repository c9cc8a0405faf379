/** The Node, Lease and Pod fields the node lifecycle and taint eviction controllers use. */
import type { KubeObject } from '../../../api/types';
import type { Taint, Toleration } from '../../../component-helpers/scheduling/types';

export type { Taint, Toleration };

export interface NodeCondition {
  type: string;
  status: string;
  lastHeartbeatTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: Taint[] | null; [key: string]: unknown };
  status?: { conditions?: NodeCondition[]; [key: string]: unknown };
}

export interface Lease extends KubeObject {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string | null };
}

export interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface Pod extends KubeObject {
  spec?: { nodeName?: string; tolerations?: Toleration[] | null; [key: string]: unknown };
  status?: { conditions?: PodCondition[]; [key: string]: unknown };
}

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
