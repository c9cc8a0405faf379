/**
 * The autoscaling/v2 HorizontalPodAutoscaler fields the controller reads and writes (fields in
 * Go's order, so status writes serialize as upstream's), and the core/v1 pod fields its replica
 * calculation looks at.
 */
import type { KubeObject } from '../../api/types';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface CrossVersionObjectReference {
  kind: string;
  name: string;
  apiVersion?: string;
}

export interface MetricTarget {
  type: string;
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

export interface MetricIdentifier {
  name: string;
  selector?: unknown;
}

export interface MetricSpec {
  type: string;
  object?: { describedObject: CrossVersionObjectReference; target: MetricTarget; metric: MetricIdentifier };
  pods?: { metric: MetricIdentifier; target: MetricTarget };
  resource?: { name: string; target: MetricTarget };
  containerResource?: { name: string; target: MetricTarget; container: string };
  external?: { metric: MetricIdentifier; target: MetricTarget };
}

export interface MetricValueStatus {
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

/** MetricStatus: a metric that could not be computed stays `{type: ""}`, as upstream leaves it. */
export interface MetricStatus {
  type: string;
  object?: { metric: MetricIdentifier; current: MetricValueStatus; describedObject: CrossVersionObjectReference };
  pods?: { metric: MetricIdentifier; current: MetricValueStatus };
  resource?: { name: string; current: MetricValueStatus };
  containerResource?: { name: string; current: MetricValueStatus; container: string };
  external?: { metric: MetricIdentifier; current: MetricValueStatus };
}

export interface HPAScalingPolicy {
  type: 'Pods' | 'Percent' | string;
  value: number;
  periodSeconds: number;
}

export interface HPAScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: 'Max' | 'Min' | 'Disabled' | string;
  policies?: HPAScalingPolicy[];
  tolerance?: string;
}

export interface HorizontalPodAutoscalerCondition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface HorizontalPodAutoscalerStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas: number;
  currentMetrics?: MetricStatus[];
  conditions?: HorizontalPodAutoscalerCondition[];
}

export interface HorizontalPodAutoscaler extends KubeObject {
  spec: {
    scaleTargetRef: CrossVersionObjectReference;
    minReplicas?: number;
    maxReplicas: number;
    metrics?: MetricSpec[];
    behavior?: { scaleUp?: HPAScalingRules; scaleDown?: HPAScalingRules };
  };
  status?: HorizontalPodAutoscalerStatus;
}

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
export interface Scale extends KubeObject {
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

export const ABLE_TO_SCALE = 'AbleToScale';
export const SCALING_ACTIVE = 'ScalingActive';
export const SCALING_LIMITED = 'ScalingLimited';
