/**
 * What the scheduler records (docs/architecture.md, invariant 2): one record per scheduling attempt, explaining
 * it the way kube-scheduler decided it: which filters ran and what each evaluated node's verdict
 * was, every score plugin's raw, normalized and weighted score per node, the ranking, the chosen
 * node or the FitError message and what preemption did; and one record per binding outcome.
 *
 * `detail` keeps this cheap when nobody looks: 'off' records nothing, 'summary' the outcome and
 * the top of the ranking, 'full' everything per node.
 */
import type { RecordBase } from '../trace/record';
import type { InsufficientAmount } from './framework/status';

export type { InsufficientAmount } from './framework/status';

export type RecordDetail = 'off' | 'summary' | 'full';

export interface PodRef {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion?: string;
}

export interface PluginStatusSummary {
  readonly plugin: string;
  /** Success, Unschedulable, UnschedulableAndUnresolvable, Error, ... */
  readonly code: string;
  readonly reasons: readonly string[];
}

/**
 * A node's filter verdict. Filters run in `filterPlugins` order and stop at the first rejection:
 * the plugins before `plugin` passed, the ones after it did not run. A feasible node has code
 * 'Success' and plugin ''.
 */
export interface FilterVerdict {
  readonly node: string;
  readonly code: string;
  readonly plugin: string;
  readonly reasons: readonly string[];
  /**
   * For a NodeResourcesFit rejection, the amounts behind each "Insufficient <resource>" or "Too
   * many pods" reason: requested by the pod, already requested on the node, allocatable.
   */
  readonly insufficient?: readonly InsufficientAmount[];
}

export interface NodeScores {
  readonly node: string;
  /** Index-aligned with SchedulingAttemptRecord.scorePlugins. */
  readonly raw: readonly number[];
  readonly normalized: readonly number[];
  readonly weighted: readonly number[];
  readonly total: number;
}

export interface RankedNode {
  readonly node: string;
  readonly score: number;
}

export interface PreemptionSummary {
  /** The node the pod was nominated to, when preemption found room. */
  readonly nominatedNodeName?: string;
  /** namespace/name of the pods being evicted. */
  readonly victims: readonly string[];
  /** The PostFilter part of the message ("preemption: ..."), '' on success. */
  readonly message: string;
}

export interface SchedulingAttemptRecord extends RecordBase {
  readonly type: 'scheduler.attempt';
  readonly pod: PodRef;
  /** The scheduling cycle (the queue's pop count). */
  readonly cycle: number;
  /** This pod's attempt number. */
  readonly attempt: number;
  /** scheduled: assumed onto `node`, binding started; unschedulable: a FitError; error: anything else. */
  readonly outcome: 'scheduled' | 'unschedulable' | 'error';
  readonly node?: string;
  /** The FailedScheduling message (FitError.Error() or the error), for failed attempts. */
  readonly message?: string;
  readonly numAllNodes: number;
  readonly evaluatedNodes: number;
  readonly feasibleNodes: number;
  /** Where the node search started (nextStartNodeIndex) and how many nodes it aimed to find. */
  readonly searchStart: number;
  readonly numNodesToFind: number;
  /** PreFilter plugins that returned Skip (their filters did not run). */
  readonly preFilterSkipped: readonly string[];
  /** A PreFilter rejection (then no node was filtered). */
  readonly preFilterStatus?: PluginStatusSummary;
  /** The nodes PreFilter results narrowed the search to. */
  readonly preFilterNodes?: readonly string[];
  /** The filter plugins this attempt ran, in order. */
  readonly filterPlugins: readonly string[];
  /** Per evaluated node, in evaluation order (detail 'full'). */
  readonly filters?: readonly FilterVerdict[];
  /** How many evaluated nodes each rejecting plugin turned away. */
  readonly rejectionsByPlugin: Readonly<Record<string, number>>;
  readonly scorePlugins?: readonly { readonly name: string; readonly weight: number }[];
  readonly preScoreSkipped?: readonly string[];
  /** Per scored node (detail 'full'). */
  readonly scores?: readonly NodeScores[];
  /** Highest total first; the top 3 in 'summary' (as upstream reports), every node in 'full'. */
  readonly ranking: readonly RankedNode[];
  readonly preemption?: PreemptionSummary;
}

export interface BindingRecord extends RecordBase {
  readonly type: 'scheduler.binding';
  readonly pod: PodRef;
  readonly cycle: number;
  readonly node: string;
  readonly outcome: 'bound' | 'failed';
  readonly message?: string;
}

export type SchedulerRecord = SchedulingAttemptRecord | BindingRecord;

/** A record as the scheduler writes it; the trace buffer assigns id and time. */
export type SchedulerRecordDraft = SchedulingAttemptDraft | BindingDraft;
export type SchedulingAttemptDraft = Omit<SchedulingAttemptRecord, 'id' | 'time'>;
export type BindingDraft = Omit<BindingRecord, 'id' | 'time'>;

export interface SchedulerRecorder {
  /** Read before each attempt, so subscribers can turn detail up or down at any time. */
  detail(): RecordDetail;
  emit(draft: SchedulerRecordDraft): void;
}

/** Expands a node's verdict to one entry per filter plugin: passed, rejected, or not run. */
export function filterPluginVerdicts(record: SchedulingAttemptRecord, verdict: FilterVerdict): { plugin: string; verdict: 'passed' | 'rejected' | 'not run'; reasons: readonly string[] }[] {
  const failedAt = verdict.plugin === '' ? -1 : record.filterPlugins.indexOf(verdict.plugin);
  return record.filterPlugins.map((plugin, i) => ({
    plugin,
    verdict: failedAt < 0 || i < failedAt ? 'passed' : i === failedAt ? 'rejected' : 'not run',
    reasons: i === failedAt ? verdict.reasons : [],
  }));
}
