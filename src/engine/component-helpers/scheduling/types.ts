/**
 * The core/v1 types the scheduling helpers read (taints, tolerations, node selectors and node
 * affinity), shared by the scheduler, the controllers and the kubelet as upstream shares them
 * through k8s.io/component-helpers: the generated ones.
 */
import type { PodSpec } from '../../api/generated/core-v1';

export type {
  NodeAffinity,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PreferredSchedulingTerm,
  Taint,
  Toleration,
} from '../../api/generated/core-v1';

/** The part of a pod node affinity reads: spec.nodeSelector and spec.affinity.nodeAffinity. */
export interface NodeAffinityPod {
  spec: Pick<PodSpec, 'nodeSelector' | 'affinity'>;
}
