/**
 * The autoscaling/v2 HorizontalPodAutoscaler the controller reads and writes, the autoscaling/v1
 * Scale and the core/v1 pods its replica calculation looks at (all generated from the OpenAPI),
 * and the metrics samples it works from.
 */
import type * as autoscaling from '../../api/generated/autoscaling-v2';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export type {
  CrossVersionObjectReference,
  HorizontalPodAutoscalerCondition,
  HorizontalPodAutoscalerStatus,
  HPAScalingPolicy,
  HPAScalingRules,
  MetricIdentifier,
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
} from '../../api/generated/autoscaling-v2';

/** A stored HorizontalPodAutoscaler: validation requires its spec (scaleTargetRef, maxReplicas). */
export type HorizontalPodAutoscaler = autoscaling.HorizontalPodAutoscaler & { spec: autoscaling.HorizontalPodAutoscalerSpec };

export type { Container, Pod, PodCondition } from '../../api/generated/core-v1';

/** One pod's sample of a metric, in milli-units (metrics.PodMetric). */
export interface PodMetric {
  /** Virtual ms of the sample. */
  timestamp: number;
  windowMs: number;
  value: number;
}

/** Pod name to its sample (metrics.PodMetricsInfo). */
export type PodMetricsInfo = Map<string, PodMetric>;

/** The autoscaling/v1 Scale the scale subresource returns. */
export type { Scale } from '../../api/generated/autoscaling-v1';

export const ABLE_TO_SCALE = 'AbleToScale';
export const SCALING_ACTIVE = 'ScalingActive';
export const SCALING_LIMITED = 'ScalingLimited';
