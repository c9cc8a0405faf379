/** The Pod and Node fields the pod garbage collector reads. */
import type { KubeObject } from '../../api/types';
import type { Taint } from '../../component-helpers/scheduling/types';

export interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface Pod extends KubeObject {
  spec?: { nodeName?: string; [key: string]: unknown };
  status?: { phase?: string; reason?: string; conditions?: PodCondition[]; [key: string]: unknown };
}

export interface Node extends KubeObject {
  spec?: { taints?: Taint[] | null; [key: string]: unknown };
  status?: { conditions?: { type: string; status: string }[]; [key: string]: unknown };
}
