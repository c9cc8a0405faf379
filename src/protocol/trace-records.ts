/**
 * The trace records as the panel reads them (the records travel unchanged in RecordsMessage),
 * and the engine's own readings of a scheduling record (which plugin rejected a node, and in
 * what words): the webview's pictures take their types and these from here, not from the engine.
 */
export type { BindingRecord, FilterVerdict, InsufficientAmount, NodeScores, RankedNode, SchedulingAttemptRecord } from '../engine/scheduler/record';
export { filterPluginVerdicts } from '../engine/scheduler/record';
export { bytes, cores, insufficientText, rejectionText } from '../engine/scheduler/insufficient';
export type { ApiRequestRecord } from '../engine/trace/apiserver';
export type { CompactionRecord } from '../engine/trace/compaction';
export type { ReconcileRecord } from '../engine/trace/reconcile';
export type { RevisionRecord } from '../engine/trace/revision';
export type { TraceRecord } from '../engine/trace/types';
export type { KubeEventRecord } from '../engine/trace/event';
