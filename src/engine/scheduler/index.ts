/** kube-scheduler: the engine's public surface for the scheduler. */
export { Scheduler, type SchedulerOptions } from './scheduler';
export type { PodStatusUpdate, SchedulerEvent, SchedulerHost, SchedulerListers, WatchedKind } from './host';
export type {
  BindingRecord,
  FilterVerdict,
  NodeScores,
  RecordDetail,
  SchedulerRecord,
  SchedulerRecordDraft,
  SchedulerRecorder,
  SchedulingAttemptRecord,
} from './record';
export { filterPluginVerdicts } from './record';
