/**
 * Upstream's replica calculator cases for resource metrics (pkg/controller/podautoscaler
 * replica_calculator_test.go, TestReplicaCalc*), as data: pods named test-pod-<i> with two
 * containers that each request `requests[i]` and use `levels[i]` milli-units, Ready unless
 * `readiness` says otherwise, started long ago unless `start` says "hot" (now, within the CPU
 * initialization period) or "cool" (3 minutes ago), with upstream's testing settings (10%
 * tolerance, 2-minute CPU initialization period, 10-second initial readiness delay).
 */
export interface ReplicaCalcCase {
  name: string;
  currentReplicas: number;
  expectedReplicas?: number;
  expectedError?: string;
  requests: string[];
  levels: number[];
  podNames?: string[];
  targetUtilization: number;
  expectedUtilization?: number;
  /** The raw average, in milli-units, over both containers. */
  expectedValue?: number;
  readiness?: ('True' | 'False')[];
  start?: ('hot' | 'cool')[];
  phase?: ('Running' | 'Pending' | 'Failed')[];
  deleting?: boolean[];
}

const ones = (n: number): string[] => Array.from({ length: n }, () => '1.0');

export const REPLICA_CALC_CASES: ReplicaCalcCase[] = [
  { name: 'DisjointResourcesMetrics', currentReplicas: 1, expectedError: 'no metrics returned matched known pods', requests: ['1.0'], levels: [100], podNames: ['an-older-pod-name'], targetUtilization: 100 },
  { name: 'ScaleUp', currentReplicas: 3, expectedReplicas: 5, requests: ones(3), levels: [300, 500, 700], targetUtilization: 30, expectedUtilization: 50, expectedValue: 2 * 500 },
  { name: 'ScaleUpUnreadyLessScale', currentReplicas: 3, expectedReplicas: 4, readiness: ['False', 'True', 'True'], requests: ones(3), levels: [300, 500, 700], targetUtilization: 30, expectedUtilization: 60, expectedValue: 2 * 600 },
  { name: 'ScaleUpHotCpuLessScale', currentReplicas: 3, expectedReplicas: 4, start: ['hot', 'cool', 'cool'], requests: ones(3), levels: [300, 500, 700], targetUtilization: 30, expectedUtilization: 60, expectedValue: 2 * 600 },
  { name: 'ScaleUpUnreadyNoScale', currentReplicas: 3, expectedReplicas: 3, readiness: ['True', 'False', 'False'], requests: ones(3), levels: [400, 500, 700], targetUtilization: 30, expectedUtilization: 40, expectedValue: 2 * 400 },
  { name: 'ScaleHotCpuNoScale', currentReplicas: 3, expectedReplicas: 3, readiness: ['True', 'False', 'False'], start: ['cool', 'hot', 'hot'], requests: ones(3), levels: [400, 500, 700], targetUtilization: 30, expectedUtilization: 40, expectedValue: 2 * 400 },
  { name: 'ScaleUpIgnoresFailedPods', currentReplicas: 2, expectedReplicas: 4, readiness: ['True', 'True', 'False', 'False'], phase: ['Running', 'Running', 'Failed', 'Failed'], requests: ones(4), levels: [500, 700], targetUtilization: 30, expectedUtilization: 60, expectedValue: 2 * 600 },
  { name: 'ScaleUpIgnoresDeletionPods', currentReplicas: 2, expectedReplicas: 4, readiness: ['True', 'True', 'False', 'False'], phase: ['Running', 'Running', 'Running', 'Running'], deleting: [false, false, true, true], requests: ones(4), levels: [500, 700], targetUtilization: 30, expectedUtilization: 60, expectedValue: 2 * 600 },
  { name: 'ScaleDown', currentReplicas: 5, expectedReplicas: 3, requests: ones(5), levels: [100, 300, 500, 250, 250], targetUtilization: 50, expectedUtilization: 28, expectedValue: 2 * 280 },
  { name: 'ScaleDownIncludeUnreadyPods', currentReplicas: 5, expectedReplicas: 2, readiness: ['True', 'True', 'True', 'False', 'False'], requests: ones(5), levels: [100, 300, 500, 250, 250], targetUtilization: 50, expectedUtilization: 30, expectedValue: 2 * 300 },
  { name: 'ScaleDownExcludeUnscheduledPods', currentReplicas: 5, expectedReplicas: 1, readiness: ['True', 'False', 'False', 'False', 'False'], phase: ['Running', 'Pending', 'Pending', 'Pending', 'Pending'], requests: ones(5), levels: [100], targetUtilization: 50, expectedUtilization: 10, expectedValue: 2 * 100 },
  { name: 'ScaleDownIgnoreHotCpuPods', currentReplicas: 5, expectedReplicas: 2, start: ['cool', 'cool', 'cool', 'hot', 'hot'], requests: ones(5), levels: [100, 300, 500, 250, 250], targetUtilization: 50, expectedUtilization: 30, expectedValue: 2 * 300 },
  { name: 'ScaleDownIgnoresFailedPods', currentReplicas: 5, expectedReplicas: 3, readiness: ['True', 'True', 'True', 'True', 'True', 'False', 'False'], phase: ['Running', 'Running', 'Running', 'Running', 'Running', 'Failed', 'Failed'], requests: ones(7), levels: [100, 300, 500, 250, 250], targetUtilization: 50, expectedUtilization: 28, expectedValue: 2 * 280 },
  { name: 'ScaleDownIgnoresDeletionPods', currentReplicas: 5, expectedReplicas: 3, readiness: ['True', 'True', 'True', 'True', 'True', 'False', 'False'], phase: ['Running', 'Running', 'Running', 'Running', 'Running', 'Running', 'Running'], deleting: [false, false, false, false, false, true, true], requests: ones(7), levels: [100, 300, 500, 250, 250], targetUtilization: 50, expectedUtilization: 28, expectedValue: 2 * 280 },
  { name: 'Tolerance', currentReplicas: 3, expectedReplicas: 3, requests: ['0.9', '1.0', '1.1'], levels: [1010, 1030, 1020], targetUtilization: 100, expectedUtilization: 102, expectedValue: 2 * 1020 },
  { name: 'SuperfluousMetrics', currentReplicas: 4, expectedReplicas: 24, requests: ones(4), levels: [4000, 9500, 3000, 7000, 3200, 2000], targetUtilization: 100, expectedUtilization: 587, expectedValue: 2 * 5875 },
  { name: 'MissingMetrics', currentReplicas: 4, expectedReplicas: 3, requests: ones(4), levels: [400, 95], targetUtilization: 100, expectedUtilization: 24, expectedValue: 495 },
  { name: 'EmptyMetrics', currentReplicas: 4, expectedError: 'no metrics returned from resource metrics API', requests: ones(3), levels: [], targetUtilization: 100 },
  { name: 'EmptyCPURequest', currentReplicas: 1, expectedError: 'missing request for', requests: [], levels: [200], targetUtilization: 100 },
  { name: 'MissingMetricsNoChangeEq', currentReplicas: 2, expectedReplicas: 2, requests: ones(2), levels: [1000], targetUtilization: 100, expectedUtilization: 100, expectedValue: 2 * 1000 },
  { name: 'MissingMetricsNoChangeGt', currentReplicas: 2, expectedReplicas: 2, requests: ones(2), levels: [1900], targetUtilization: 100, expectedUtilization: 190, expectedValue: 2 * 1900 },
  { name: 'MissingMetricsNoChangeLt', currentReplicas: 2, expectedReplicas: 2, requests: ones(2), levels: [600], targetUtilization: 100, expectedUtilization: 60, expectedValue: 2 * 600 },
  { name: 'MissingMetricsUnreadyChange', currentReplicas: 3, expectedReplicas: 3, readiness: ['False', 'True', 'True'], requests: ones(3), levels: [100, 450], targetUtilization: 50, expectedUtilization: 45, expectedValue: 2 * 450 },
  { name: 'MissingMetricsHotCpuNoChange', currentReplicas: 3, expectedReplicas: 3, start: ['hot', 'cool', 'cool'], requests: ones(3), levels: [100, 450], targetUtilization: 50, expectedUtilization: 45, expectedValue: 2 * 450 },
  { name: 'MissingMetricsUnreadyScaleUp', currentReplicas: 3, expectedReplicas: 4, readiness: ['False', 'True', 'True'], requests: ones(3), levels: [100, 2000], targetUtilization: 50, expectedUtilization: 200, expectedValue: 2 * 2000 },
  { name: 'MissingMetricsHotCpuScaleUp', currentReplicas: 3, expectedReplicas: 4, readiness: ['False', 'True', 'True'], start: ['hot', 'cool', 'cool'], requests: ones(3), levels: [100, 2000], targetUtilization: 50, expectedUtilization: 200, expectedValue: 2 * 2000 },
  { name: 'MissingMetricsUnreadyScaleDown', currentReplicas: 4, expectedReplicas: 3, readiness: ['False', 'True', 'True', 'True'], requests: ones(4), levels: [100, 100, 100], targetUtilization: 50, expectedUtilization: 10, expectedValue: 2 * 100 },
  { name: 'DuringRollingUpdateWithMaxSurge', currentReplicas: 2, expectedReplicas: 2, phase: ['Running', 'Running', 'Running'], requests: ones(3), levels: [100, 100], targetUtilization: 50, expectedUtilization: 10, expectedValue: 2 * 100 },
];
