/**
 * Simulated kubelets: `new Kubelet({ node, server, clock, random })`, one per node; `start()`
 * registers the node and runs its pods, `stop()` silences the node, `logs()`/`openLogs()` serve
 * pods/log, `resourceMetrics()` the CPU and memory metrics-server scrapes. The behavior annotation that steers containers is described in docs/behavior.md.
 */
export { Kubelet, type KubeletOptions, type LogStream } from './kubelet';
export { DEFAULT_CAPACITY, DEFAULT_SYSTEM_INFO, nodeAddresses, type NodeConfig, type SystemInfo } from './config';
export type { ImageSettings } from './images';
export { BEHAVIOR_ANNOTATION } from './behavior';
export { resolveLogContainer, type LogOptions } from './logs';
export { kubeletLogSource, type KubeletLogSource } from './log-source';
export { SharedLoad } from './shared-load';
export type { MetricsPoint, PodMetricsPoint, ResourceMetricsBatch } from './resource-metrics';
